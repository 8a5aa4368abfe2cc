import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeOf, failure, useHarness } from './harness.js';

const h = useHarness();

const CARD = [
  {
    op: 'node.insert',
    pageId: 'page-1',
    parentId: null,
    node: {
      id: 'card',
      kind: 'frame',
      rect: { x: 40, y: 40, width: 400, height: 240 },
      style: { backgroundColor: '#fff' },
    },
  },
  {
    op: 'node.insert',
    pageId: 'page-1',
    parentId: 'card',
    node: { id: 'title', kind: 'text', props: { text: 'Hello' } },
  },
];

/** The canvas through the daemon: documents stored under the workspace's .argus/canvas/. */
describe('canvas commands', () => {
  it('new, patch, undo, redo, show, list and rm; the file on disk follows every revision', async () => {
    const made = await h.client.canvas.new.mutate({ name: 'Landing page' });
    expect(made).toMatchObject({ id: 'landing-page', revision: 0, pages: 1, nodes: 0 });
    expect(made.path).toBe(join(h.workspace, '.argus', 'canvas', 'landing-page.json'));
    const patched = await h.client.canvas.patch.mutate({ doc: 'landing-page', ops: CARD, baseRevision: 0 });
    expect(patched).toMatchObject({ revision: 1, created: ['card', 'title'], ops: 2, undo: 1, redo: 0 });
    const onDisk = JSON.parse(readFileSync(made.path, 'utf8')) as { revision: number; pages: { nodes: unknown[] }[] };
    expect(onDisk.revision).toBe(1);
    expect(onDisk.pages[0]?.nodes).toHaveLength(2);

    const stale = await failure(
      h.client.canvas.patch.mutate({
        doc: 'landing-page',
        ops: [{ op: 'node.remove', nodeId: 'title' }],
        baseRevision: 0,
      }),
    );
    expect(stale.code).toBe('revision_conflict');
    expect(stale.details?.['revision']).toBe(1);

    const bad = await failure(
      h.client.canvas.patch.mutate({
        doc: 'landing-page',
        ops: [
          { op: 'node.update', nodeId: 'title', changes: { 'props.text': 'x' } },
          { op: 'node.reparent', nodeId: 'card', parentId: 'title' },
        ],
      }),
    );
    expect(bad.code).toBe('invalid_patch');
    expect(bad.details?.['opIndex']).toBe(1);
    const shown = await h.client.canvas.show.query({ doc: 'landing-page' });
    expect(shown.document).toMatchObject({ revision: 1 });
    expect(JSON.stringify(shown.document)).toContain('"text":"Hello"');

    expect(await h.client.canvas.undo.mutate({ doc: 'landing-page' })).toMatchObject({ revision: 2, undo: 0, redo: 1 });
    expect(JSON.parse(readFileSync(made.path, 'utf8'))).toMatchObject({ revision: 2, pages: [{ nodes: [] }] });
    expect(await codeOf(h.client.canvas.undo.mutate({ doc: 'landing-page' }))).toBe('history_empty');
    expect(await h.client.canvas.redo.mutate({ doc: 'landing-page' })).toMatchObject({ revision: 3, undo: 1, redo: 0 });

    const listed = await h.client.canvas.list.query({});
    expect(listed.documents).toEqual([
      expect.objectContaining({ id: 'landing-page', name: 'Landing page', revision: 3, nodes: 2 }),
    ]);
    expect(await codeOf(h.client.canvas.new.mutate({ name: 'again', id: 'landing-page' }))).toBe('file_exists');
    expect(await h.client.canvas.rm.mutate({ doc: 'landing-page' })).toEqual({ id: 'landing-page', removed: true });
    expect(await codeOf(h.client.canvas.show.query({ doc: 'landing-page' }))).toBe('canvas_not_found');
    expect((await h.client.canvas.list.query({})).documents).toEqual([]);
  });

  it('save writes the document and load brings it back identical; a tampered file is refused', async () => {
    await h.client.canvas.new.mutate({ name: 'Card', id: 'card' });
    await h.client.canvas.patch.mutate({
      doc: 'card',
      ops: [...CARD, { op: 'token.set', path: 'color.bg', value: '#fff', mode: 'light' }],
    });
    const saved = await h.client.canvas.save.mutate({ doc: 'card', path: join(h.workspace, 'card.json') });
    const original = (await h.client.canvas.show.query({ doc: 'card' })).document;
    expect(JSON.parse(readFileSync(saved.path, 'utf8'))).toEqual(original);
    expect(await codeOf(h.client.canvas.save.mutate({ doc: 'card', path: join(h.workspace, 'card.json') }))).toBe(
      'file_exists',
    );
    expect(await codeOf(h.client.canvas.load.mutate({ path: saved.path }))).toBe('file_exists');
    const loaded = await h.client.canvas.load.mutate({ path: saved.path, id: 'card-copy' });
    expect(loaded).toMatchObject({ id: 'card-copy', revision: 1, nodes: 2 });
    expect((await h.client.canvas.show.query({ doc: 'card-copy' })).document).toEqual({ ...original, id: 'card-copy' });

    const tampered = JSON.parse(readFileSync(saved.path, 'utf8')) as {
      pages: { nodes: { parentId: string | null }[] }[];
    };
    tampered.pages[0]!.nodes[1]!.parentId = null;
    writeFileSync(join(h.workspace, 'bad.json'), JSON.stringify(tampered));
    expect(await codeOf(h.client.canvas.load.mutate({ path: join(h.workspace, 'bad.json'), id: 'bad' }))).toBe(
      'invalid_input',
    );
    expect(await codeOf(h.client.canvas.load.mutate({ path: '/etc/passwd', id: 'pw' }))).toBe('path_forbidden');
    expect(await codeOf(h.client.canvas.save.mutate({ doc: 'card', path: '/etc/argus-card.json' }))).toBe(
      'path_forbidden',
    );
  });
});

describe('canvas lint', () => {
  it('names the node of each finding; a missing page is refused', async () => {
    await h.client.canvas.new.mutate({ name: 'Lint me', id: 'lint-me' });
    await h.client.canvas.patch.mutate({
      doc: 'lint-me',
      ops: [
        ...CARD,
        { op: 'node.update', nodeId: 'title', changes: { 'style.color': '#aaa' } },
        {
          op: 'node.insert',
          pageId: 'page-1',
          parentId: 'card',
          node: {
            id: 'hero',
            kind: 'image',
            rect: { x: 0, y: 0, width: 500, height: 100 },
            props: { src: '/hero.png' },
          },
        },
      ],
    });
    const result = await h.client.canvas.lint.query({ doc: 'lint-me' });
    expect(result).toMatchObject({ doc: 'lint-me', revision: 1, errors: 2, warnings: 1 });
    expect(result.findings.map((finding) => `${finding.rule} ${finding.nodeId}`).sort()).toEqual([
      'contrast title',
      'image-alt hero',
      'overflow hero',
    ]);
    expect(await codeOf(h.client.canvas.lint.query({ doc: 'lint-me', page: 'nope' }))).toBe('invalid_input');
    expect(await codeOf(h.client.canvas.lint.query({ doc: 'no-such-doc' }))).toBe('canvas_not_found');
  });
});
