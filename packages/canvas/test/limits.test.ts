import { describe, expect, it } from 'vitest';
import { refusal } from './fixtures.js';
import {
  CanvasSession,
  MAX_COORDINATE,
  MAX_NODE_DEPTH,
  exportHtml,
  exportTsx,
  lintDocument,
  type CanvasDocument,
  type CanvasNode,
  type PatchOpInput,
} from '../src/index.js';

/** Inserts of `count` frames, each inside the one before (f0 at the root). */
function chain(count: number, prefix = 'f', rootParent: string | null = null): PatchOpInput[] {
  return Array.from({ length: count }, (_, index) => ({
    op: 'node.insert' as const,
    pageId: 'page-1',
    parentId: index === 0 ? rootParent : `${prefix}${index - 1}`,
    node: { id: `${prefix}${index}`, kind: 'frame' as const },
  }));
}

/** A stored document whose page is a chain of `depth` nested frames, written by hand (no patch). */
function deepDocument(depth: number): CanvasDocument {
  const nodes: CanvasNode[] = Array.from({ length: depth }, (_, index) => ({
    id: `f${index}`,
    kind: 'frame',
    name: 'frame',
    parentId: index === 0 ? null : `f${index - 1}`,
    childIds: index === depth - 1 ? [] : [`f${index + 1}`],
    rect: { x: 0, y: 0, width: 10, height: 10 },
    props: {},
    style: {},
    tokenRefs: {},
  }));
  return {
    format: 'argus-canvas',
    version: 1,
    id: 'deep',
    name: 'Deep',
    revision: 3,
    pages: [{ id: 'page-1', name: 'Page 1', rootIds: ['f0'], nodes }],
    tokens: {},
    assets: {},
  };
}

describe('nesting depth', () => {
  it(`a page nests ${MAX_NODE_DEPTH} levels; one more is invalid_patch naming the limit, however long the chain`, () => {
    const session = CanvasSession.create('doc', 'Doc');
    session.patch(chain(MAX_NODE_DEPTH));
    const doc = session.toJson();
    // the deepest page there may be still exports, as HTML and as TSX
    expect(exportHtml(doc)).toContain(`data-canvas-node="f${MAX_NODE_DEPTH - 1}"`);
    expect(exportTsx(doc)).toContain(`f${MAX_NODE_DEPTH - 1}`);
    expect(CanvasSession.fromJson(JSON.parse(JSON.stringify(doc))).toJson()).toEqual(doc);

    const fresh = CanvasSession.create('doc', 'Doc');
    for (const length of [MAX_NODE_DEPTH + 1, 5000]) {
      const error = refusal(() => fresh.patch(chain(length)));
      expect(error.code).toBe('invalid_patch');
      expect(error.details?.['opIndex']).toBe(MAX_NODE_DEPTH);
      expect(error.message).toContain(`at most ${MAX_NODE_DEPTH} levels`);
    }
    expect(fresh.revision).toBe(0);
  });

  it('a reparent that would nest a subtree too deep is refused', () => {
    const session = CanvasSession.create('doc', 'Doc');
    session.patch([...chain(200, 'a'), ...chain(60, 'b')]);
    const error = refusal(() => session.patch([{ op: 'node.reparent', nodeId: 'b0', parentId: 'a199' }]));
    expect(error.code).toBe('invalid_patch');
    expect(error.message).toMatch(/260 levels deep; a page nests at most 256/);
    // under a shallower node it fits (200 + 56 = 256)
    session.patch([{ op: 'node.reparent', nodeId: 'b4', parentId: 'a199' }]);
  });

  it('a stored document nested deeper than the limit is refused as invalid_input, not a stack overflow', () => {
    for (const depth of [MAX_NODE_DEPTH + 1, 20_000]) {
      const error = refusal(() => CanvasSession.fromJson(deepDocument(depth), 'deep.json'));
      expect(error.code).toBe('invalid_input');
      expect(error.message).toContain(`a page nests at most ${MAX_NODE_DEPTH}`);
    }
    expect(CanvasSession.fromJson(deepDocument(MAX_NODE_DEPTH)).revision).toBe(3);
  });
});

describe('rect values', () => {
  it(`are refused beyond ±${MAX_COORDINATE} px, so the export never prints Infinity`, () => {
    const session = CanvasSession.create('doc', 'Doc');
    const huge = { x: 1e308, y: 0, width: 1e308, height: 10 };
    const insert = refusal(() =>
      session.patch([{ op: 'node.insert', pageId: 'page-1', parentId: null, node: { kind: 'frame', rect: huge } }]),
    );
    expect(insert.code).toBe('invalid_patch');
    expect(insert.message).toContain(`rect values lie within ±${MAX_COORDINATE} px`);
    session.patch([{ op: 'node.insert', pageId: 'page-1', parentId: null, node: { id: 'box', kind: 'frame' } }]);
    const update = refusal(() =>
      session.patch([{ op: 'node.update', nodeId: 'box', changes: { 'rect.y': -MAX_COORDINATE - 1 } }]),
    );
    expect(update.code).toBe('invalid_patch');
    expect(update.message).toContain(`rect values lie within ±${MAX_COORDINATE} px`);
    session.patch([
      {
        op: 'node.update',
        nodeId: 'box',
        changes: { rect: { x: MAX_COORDINATE, y: -MAX_COORDINATE, width: MAX_COORDINATE, height: 1 } },
      },
    ]);
    expect(exportHtml(session.toJson())).not.toMatch(/Infinity|e\+/);
  });
});

describe('token modes', () => {
  it('an unknown mode is invalid_input naming the modes there are, in the export and the lint', () => {
    const session = CanvasSession.create('doc', 'Doc');
    session.patch([{ op: 'token.set', path: 'color.bg', value: '#fff', mode: 'dark' }]);
    const doc = session.toJson();
    for (const run of [
      () => exportHtml(doc, { mode: 'nosuchmode' }),
      () => lintDocument(doc, { mode: 'nosuchmode' }),
    ]) {
      const error = refusal(run);
      expect(error.code).toBe('invalid_input');
      expect(error.message).toContain('Modes: dark.');
    }
    expect(exportHtml(doc, { mode: 'dark' })).toContain('--color-bg:#fff');
    const plain = CanvasSession.create('plain', 'Plain').toJson();
    expect(refusal(() => exportTsx(plain, { mode: 'dark' })).message).toContain('It has no modes');
  });
});
