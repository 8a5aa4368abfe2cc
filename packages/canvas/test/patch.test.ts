import { describe, expect, it } from 'vitest';
import { CanvasSession, type CanvasDocument, type CanvasNode } from '../src/index.js';
import { CARD, refusal } from './fixtures.js';

function withCard(): CanvasSession {
  const session = CanvasSession.create('doc', 'Doc');
  session.patch(CARD);
  return session;
}

function node(doc: CanvasDocument, id: string): CanvasNode {
  const found = doc.pages.flatMap((page) => page.nodes).find((n) => n.id === id);
  if (!found) throw new Error(`no node ${id}`);
  return found;
}

describe('patch operations', () => {
  it('page.create adds a page; a second page with the same id is refused', () => {
    const session = CanvasSession.create('doc', 'Doc');
    session.patch([{ op: 'page.create', page: { id: 'p2', name: 'Second' } }]);
    expect(session.toJson().pages.map((p) => p.id)).toEqual(['page-1', 'p2']);
    const error = refusal(() => session.patch([{ op: 'page.create', page: { id: 'p2', name: 'Again' } }]));
    expect(error.code).toBe('invalid_patch');
    expect(error.details?.['opIndex']).toBe(0);
  });

  it('node.insert builds the tree in order, with index, parent links and defaults', () => {
    const session = withCard();
    session.patch([{ op: 'node.insert', pageId: 'page-1', parentId: 'card', index: 0, node: { kind: 'shape' } }]);
    const doc = session.toJson();
    const card = node(doc, 'card');
    expect(card.childIds).toHaveLength(3);
    expect(card.childIds.slice(1)).toEqual(['title', 'actions']);
    const shape = node(doc, card.childIds[0] ?? '');
    expect(shape).toMatchObject({
      kind: 'shape',
      name: 'shape',
      parentId: 'card',
      rect: { x: 0, y: 0, width: 0, height: 0 },
    });
    expect(doc.pages[0]?.nodes.map((n) => n.id)).toEqual(['card', shape.id, 'title', 'actions', 'label']);
  });

  it('node.insert refuses a missing page, a missing parent, a leaf parent, a taken id and an index past the end', () => {
    const session = withCard();
    const cases: [unknown, RegExp][] = [
      [{ op: 'node.insert', pageId: 'nope', parentId: null, node: { kind: 'frame' } }, /no page "nope"/],
      [{ op: 'node.insert', pageId: 'page-1', parentId: 'ghost', node: { kind: 'frame' } }, /no node "ghost"/],
      [
        { op: 'node.insert', pageId: 'page-1', parentId: 'title', node: { kind: 'text' } },
        /text, which cannot have children/,
      ],
      [{ op: 'node.insert', pageId: 'page-1', parentId: null, node: { id: 'card', kind: 'frame' } }, /already exists/],
      [{ op: 'node.insert', pageId: 'page-1', parentId: 'card', index: 5, node: { kind: 'text' } }, /past the end/],
    ];
    for (const [op, message] of cases) {
      const error = refusal(() => session.patch([op]));
      expect(error.code).toBe('invalid_patch');
      expect(error.message).toMatch(message);
    }
  });

  it('node.update sets dotted paths, removes with null and replaces whole groups', () => {
    const session = withCard();
    session.patch([
      {
        op: 'node.update',
        nodeId: 'title',
        changes: { 'style.color': '#222', 'rect.width': 320, 'props.text': 'Hi', name: 'Heading' },
      },
      {
        op: 'node.update',
        nodeId: 'card',
        changes: { 'style.backgroundColor': null, tokenRefs: { backgroundColor: 'color.bg' } },
      },
    ]);
    const doc = session.toJson();
    expect(node(doc, 'title')).toMatchObject({
      name: 'Heading',
      rect: { width: 320 },
      props: { text: 'Hi' },
      style: { color: '#222', fontSize: 24 },
    });
    expect(node(doc, 'card').style).toEqual({});
    expect(node(doc, 'card').tokenRefs).toEqual({ backgroundColor: 'color.bg' });
  });

  it('node.update refuses overlapping paths, unknown paths, bad values and an unknown node', () => {
    const session = withCard();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ style: { color: 'red' }, 'style.color': 'blue' }, /"style" and "style.color" overlap/],
      [{ 'rect.width': 1, rect: { x: 0, y: 0, width: 1, height: 1 } }, /overlap/],
      [{ parentId: 'x' }, /not a changeable path/],
      [{ 'style.color.dark': 'x' }, /deeper than group.key/],
      [{ 'rect.width': -5 }, /too small|>=0/],
      [{ 'rect.depth': 3 }, /nrecognized|depth/],
      [{ 'props.onclick': 'alert(1)' }, /nrecognized|onclick/],
      [{ 'style.color': { nested: 1 } }, /not an object/],
      [{ 'rect.x': null }, /cannot be removed/],
      [{}, /changes is empty/],
    ];
    for (const [changes, message] of cases) {
      const error = refusal(() => session.patch([{ op: 'node.update', nodeId: 'title', changes }]));
      expect(error.code, JSON.stringify(changes)).toBe('invalid_patch');
      expect(error.message, JSON.stringify(changes)).toMatch(message);
    }
    expect(
      refusal(() => session.patch([{ op: 'node.update', nodeId: 'ghost', changes: { name: 'x' } }])).message,
    ).toMatch(/no node "ghost"/);
  });

  it('node.remove takes the whole subtree and unlinks it from its parent', () => {
    const session = withCard();
    session.patch([{ op: 'node.remove', nodeId: 'actions' }]);
    const doc = session.toJson();
    expect(doc.pages[0]?.nodes.map((n) => n.id)).toEqual(['card', 'title']);
    expect(node(doc, 'card').childIds).toEqual(['title']);
    // The removed subtree's ids are free again.
    session.patch([{ op: 'node.insert', pageId: 'page-1', parentId: null, node: { id: 'label', kind: 'text' } }]);
  });

  it('node.reparent moves a node, and refuses a move into itself or its own subtree', () => {
    const session = withCard();
    session.patch([{ op: 'node.reparent', nodeId: 'label', parentId: 'card', index: 0 }]);
    let doc = session.toJson();
    expect(node(doc, 'card').childIds).toEqual(['label', 'title', 'actions']);
    expect(node(doc, 'actions').childIds).toEqual([]);
    expect(node(doc, 'label').parentId).toBe('card');
    session.patch([{ op: 'node.reparent', nodeId: 'actions', parentId: null }]);
    doc = session.toJson();
    expect(doc.pages[0]?.rootIds).toEqual(['card', 'actions']);
    expect(refusal(() => session.patch([{ op: 'node.reparent', nodeId: 'card', parentId: 'card' }])).message).toMatch(
      /own subtree/,
    );
    session.patch([{ op: 'node.reparent', nodeId: 'actions', parentId: 'card' }]);
    expect(
      refusal(() => session.patch([{ op: 'node.reparent', nodeId: 'card', parentId: 'actions' }])).message,
    ).toMatch(/own subtree/);
    expect(
      refusal(() => session.patch([{ op: 'node.reparent', nodeId: 'actions', parentId: 'title' }])).message,
    ).toMatch(/cannot have children/);
  });

  it('node.reorder moves among siblings and refuses an index past the last', () => {
    const session = withCard();
    session.patch([{ op: 'node.reorder', nodeId: 'title', index: 1 }]);
    expect(node(session.toJson(), 'card').childIds).toEqual(['actions', 'title']);
    expect(refusal(() => session.patch([{ op: 'node.reorder', nodeId: 'title', index: 2 }])).message).toMatch(
      /past the last sibling/,
    );
  });

  it('node.duplicate deep-copies the subtree with fresh ids right after the original', () => {
    const session = withCard();
    const outcome = session.patch([{ op: 'node.duplicate', nodeId: 'actions' }]);
    expect(outcome.created).toHaveLength(2);
    const [copyId, labelCopyId] = outcome.created;
    const doc = session.toJson();
    expect(node(doc, 'card').childIds).toEqual(['title', 'actions', copyId]);
    expect(node(doc, copyId ?? '')).toMatchObject({ kind: 'group', parentId: 'card', childIds: [labelCopyId] });
    expect(node(doc, labelCopyId ?? '')).toMatchObject({ parentId: copyId, props: { text: 'Go' } });
  });

  it('token.set sets a value and per-mode values', () => {
    const session = CanvasSession.create('doc', 'Doc');
    session.patch([
      { op: 'token.set', path: 'color.brand.primary', value: '#0055ff' },
      { op: 'token.set', path: 'color.brand.primary', value: '#88aaff', mode: 'dark' },
    ]);
    expect(session.toJson().tokens).toEqual({
      'color.brand.primary': { value: '#0055ff', modes: { dark: '#88aaff' } },
    });
    expect(refusal(() => session.patch([{ op: 'token.set', path: 'bad path', value: 'x' }])).details?.['opIndex']).toBe(
      0,
    );
  });

  it('refuses malformed batches naming the operation index', () => {
    const session = withCard();
    expect(refusal(() => session.patch([])).code).toBe('invalid_patch');
    expect(refusal(() => session.patch({ op: 'node.remove' })).code).toBe('invalid_patch');
    const unknownOp = refusal(() =>
      session.patch([
        { op: 'node.remove', nodeId: 'title' },
        { op: 'node.explode', nodeId: 'card' },
      ]),
    );
    expect(unknownOp.details?.['opIndex']).toBe(1);
    expect(unknownOp.message).toMatch(/Operation 1/);
  });
});

describe('atomic batches', () => {
  it('one invalid operation rejects the whole batch and nothing changes', () => {
    const session = withCard();
    const before = session.toJson();
    const error = refusal(() =>
      session.patch([
        { op: 'node.update', nodeId: 'title', changes: { 'props.text': 'changed' } },
        { op: 'node.remove', nodeId: 'label' },
        { op: 'token.set', path: 'color.x', value: 'red' },
        { op: 'node.reorder', nodeId: 'ghost', index: 0 },
      ]),
    );
    expect(error.code).toBe('invalid_patch');
    expect(error.details).toMatchObject({ opIndex: 3, op: 'node.reorder' });
    expect(session.toJson()).toEqual(before);
    expect(session.undoDepth).toBe(1);
  });

  it('later operations see earlier ones of the same batch', () => {
    const session = CanvasSession.create('doc', 'Doc');
    session.patch([
      ...CARD,
      { op: 'node.update', nodeId: 'label', changes: { 'props.text': 'Now' } },
      { op: 'node.remove', nodeId: 'title' },
    ]);
    expect(node(session.toJson(), 'label').props.text).toBe('Now');
    expect(session.revision).toBe(1);
  });

  it('a stale base revision is revision_conflict carrying the latest revision; the right one applies', () => {
    const session = withCard();
    const error = refusal(() => session.patch([{ op: 'node.remove', nodeId: 'title' }], 0));
    expect(error.code).toBe('revision_conflict');
    expect(error.details?.['revision']).toBe(1);
    expect(session.patch([{ op: 'node.remove', nodeId: 'title' }], 1).revision).toBe(2);
  });
});
