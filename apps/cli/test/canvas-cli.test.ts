import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';

const cli = useCli('argus-cli-canvas-');

describe('argus canvas', () => {
  it('new, patch from stdin and from --ops, a refused batch naming its operation, undo, show --json', async () => {
    const made = await cli.argus('canvas', 'new', 'Hero', '--json');
    expect(made.code, made.stderr).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({ id: 'hero', revision: 0 });

    const ops = [
      {
        op: 'node.insert',
        pageId: 'page-1',
        parentId: null,
        node: { id: 'box', kind: 'frame', rect: { x: 0, y: 0, width: 100, height: 50 } },
      },
    ];
    const fromStdin = await cli.argusWithStdin(JSON.stringify(ops), 'canvas', 'patch', 'hero', '--json');
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(JSON.parse(fromStdin.stdout)).toMatchObject({ revision: 1, created: ['box'] });

    const fromFlag = await cli.argus(
      'canvas',
      'patch',
      'hero',
      '--base-revision',
      '1',
      '--ops',
      JSON.stringify([{ op: 'node.update', nodeId: 'box', changes: { 'style.backgroundColor': '#123456' } }]),
      '--json',
    );
    expect(fromFlag.code, fromFlag.stderr).toBe(0);
    expect(JSON.parse(fromFlag.stdout)).toMatchObject({ revision: 2 });

    const refused = await cli.argusWithStdin(
      JSON.stringify([
        { op: 'token.set', path: 'a', value: 'b' },
        { op: 'node.remove', nodeId: 'ghost' },
      ]),
      'canvas',
      'patch',
      'hero',
      '--ops',
      '-',
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error\[invalid_patch\]: Operation 1 \(node.remove\) refused: no node "ghost"/);
    const stale = await cli.argus(
      'canvas',
      'patch',
      'hero',
      '--base-revision',
      '0',
      '--ops',
      '[{"op":"node.remove","nodeId":"box"}]',
    );
    expect(stale.stderr).toMatch(/^error\[revision_conflict\]: The document is at revision 2/);
    const empty = await cli.argusWithStdin('', 'canvas', 'patch', 'hero');
    expect(empty.code).toBe(2);

    expect((await cli.argus('canvas', 'undo', 'hero')).code).toBe(0);
    const shown = await cli.argus('canvas', 'show', 'hero', '--json');
    const doc = (
      JSON.parse(shown.stdout) as { document: { revision: number; pages: { nodes: { style: object }[] }[] } }
    ).document;
    expect(doc.revision).toBe(3);
    expect(doc.pages[0]?.nodes[0]?.style).toEqual({});
    const file = JSON.parse(readFileSync(join(cli.stateDir, 'canvas', 'hero.json'), 'utf8')) as unknown;
    expect(file).toEqual(doc);
  });
});
