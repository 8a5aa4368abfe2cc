import { describe, expect, it } from 'vitest';
import { ArgusError } from '@argus/protocol';
import { CanvasSession, HISTORY_DEPTH, type PatchOpInput, vectorWith } from '../src/index.js';
import { CARD } from './fixtures.js';

/** A varied sequence of batches touching every kind of operation. */
function batches(): PatchOpInput[][] {
  return [
    CARD,
    [
      { op: 'token.set', path: 'color.bg', value: '#fff' },
      { op: 'token.set', path: 'color.bg', value: '#111', mode: 'dark' },
    ],
    [{ op: 'node.update', nodeId: 'title', changes: { 'style.color': '#222', 'rect.width': 320, 'props.text': 'Hi' } }],
    [{ op: 'node.duplicate', nodeId: 'actions' }],
    [{ op: 'node.reparent', nodeId: 'label', parentId: null, index: 0 }],
    [{ op: 'node.reorder', nodeId: 'title', index: 1 }],
    [
      { op: 'page.create', page: { id: 'p2', name: 'Two' } },
      {
        op: 'node.insert',
        pageId: 'p2',
        parentId: null,
        node: { id: 'solo', kind: 'image', props: { src: 'a.png', alt: 'A' } },
      },
    ],
    [{ op: 'node.remove', nodeId: 'card' }],
    [{ op: 'node.update', nodeId: 'solo', changes: { style: { opacity: 0.5 }, tokenRefs: { color: 'color.bg' } } }],
  ];
}

function errorOf(run: () => unknown): ArgusError {
  try {
    run();
  } catch (error) {
    if (error instanceof ArgusError) return error;
    throw error;
  }
  throw new Error('expected an error');
}

describe('undo and redo', () => {
  it('N batches then N undos deep-equals the original; each undo is a new revision; N redos come back', () => {
    const session = CanvasSession.create('doc', 'Doc');
    const original = session.toJson();
    const states = [original];
    for (const batch of batches()) {
      session.patch(batch);
      states.push(session.toJson());
    }
    const n = batches().length;
    for (let i = n - 1; i >= 0; i--) {
      const before = session.revision;
      expect(session.undo().revision).toBe(before + 1);
      const { revision: _r, ...content } = session.toJson();
      const { revision: _s, ...expected } = states[i] ?? original;
      expect(content).toEqual(expected);
    }
    expect({ ...session.toJson(), revision: 0 }).toEqual(original);
    expect(session.revision).toBe(2 * n);
    for (let i = 1; i <= n; i++) {
      session.redo();
      expect({ ...session.toJson(), revision: 0 }).toEqual({ ...states[i], revision: 0 });
    }
  });

  it('nothing to undo or redo is history_empty; a new batch clears redo', () => {
    const session = CanvasSession.create('doc', 'Doc');
    expect(errorOf(() => session.undo())).toMatchObject({ code: 'history_empty', details: { direction: 'undo' } });
    session.patch(CARD);
    expect(errorOf(() => session.redo()).code).toBe('history_empty');
    session.undo();
    expect(session.redoDepth).toBe(1);
    session.patch([{ op: 'token.set', path: 'x', value: '1' }]);
    expect(session.redoDepth).toBe(0);
    expect(errorOf(() => session.redo()).details).toEqual({ direction: 'redo' });
  });

  it('a refused batch leaves no undo step', () => {
    const session = CanvasSession.create('doc', 'Doc');
    session.patch(CARD);
    errorOf(() => session.patch([{ op: 'node.remove', nodeId: 'ghost' }]));
    session.undo();
    expect(session.toJson().pages[0]?.nodes).toEqual([]);
    expect(errorOf(() => session.undo()).code).toBe('history_empty');
  });

  it(`keeps the last ${HISTORY_DEPTH} batches`, () => {
    const session = CanvasSession.create('doc', 'Doc');
    for (let i = 0; i < HISTORY_DEPTH + 5; i++) session.patch([{ op: 'token.set', path: 'n', value: String(i) }]);
    expect(session.undoDepth).toBe(HISTORY_DEPTH);
    for (let i = 0; i < HISTORY_DEPTH; i++) session.undo();
    expect(session.toJson().tokens['n']?.value).toBe('4');
    expect(errorOf(() => session.undo()).code).toBe('history_empty');
  });
});

describe('storage format and convergence', () => {
  it('a document round-trips through JSON identically', () => {
    const session = CanvasSession.create('doc', 'Doc');
    for (const batch of batches().slice(0, 7)) session.patch(batch);
    const json = JSON.parse(JSON.stringify(session.toJson())) as unknown;
    const loaded = CanvasSession.fromJson(json);
    expect(loaded.toJson()).toEqual(json);
  });

  it('refuses inconsistent documents', () => {
    const good = CanvasSession.create('doc', 'Doc');
    good.patch(CARD);
    const doc = good.toJson();
    const orphan = structuredClone(doc);
    orphan.pages[0]?.nodes.push({ ...structuredClone(doc.pages[0]!.nodes[1]!), id: 'stray' });
    expect(errorOf(() => CanvasSession.fromJson(orphan)).message).toMatch(/not reachable/);
    const liar = structuredClone(doc);
    liar.pages[0]!.nodes[1]!.parentId = null;
    expect(errorOf(() => CanvasSession.fromJson(liar)).message).toMatch(/names parent/);
    expect(errorOf(() => CanvasSession.fromJson({ format: 'other' })).code).toBe('invalid_input');
  });

  it('two Y.Docs exchanging updates converge, and undo only takes back its own batches', () => {
    const a = CanvasSession.create('doc', 'Doc');
    a.patch(CARD);
    const b = CanvasSession.fromUpdate(a.encodeState());
    expect(b.toJson()).toEqual(a.toJson());
    const relay = (from: CanvasSession, to: CanvasSession): void => {
      from.ydoc.on('update', (update: Uint8Array, origin: unknown) => {
        if (origin !== 'remote') to.applyUpdate(update);
      });
    };
    relay(a, b);
    relay(b, a);
    a.patch([{ op: 'node.update', nodeId: 'title', changes: { 'style.color': 'red' } }]);
    b.patch([{ op: 'node.update', nodeId: 'title', changes: { 'rect.width': 111 } }]);
    b.patch([{ op: 'token.set', path: 'color.bg', value: '#eee' }]);
    expect(a.toJson()).toEqual(b.toJson());
    const title = a.toJson().pages[0]?.nodes.find((n) => n.id === 'title');
    expect(title?.style['color']).toBe('red');
    expect(title?.rect.width).toBe(111);
    b.undo();
    b.undo();
    expect(a.toJson()).toEqual(b.toJson());
    expect(a.toJson().tokens).toEqual({});
    expect(a.toJson().pages[0]?.nodes.find((n) => n.id === 'title')?.style['color']).toBe('red');
    expect(errorOf(() => b.undo()).code).toBe('history_empty');
  });

  it("push takes a replica's update as one revision, keeps its own client id, and refuses bad updates whole", () => {
    const home = CanvasSession.create('doc', 'Doc');
    home.patch(CARD);
    const replica = CanvasSession.fromUpdate(home.encodeState());
    const sentVector = home.stateVector();
    const id = home.ydoc.clientID;
    const before = replica.stateVector();
    replica.patch([{ op: 'node.update', nodeId: 'title', changes: { 'props.text': 'From the replica' } }]);
    const update = replica.encodeState(before);
    expect(home.push(update)).toEqual({ revision: 2 });
    // a local write right after a remote update must not make Yjs switch the document's id
    expect(home.ydoc.clientID).toBe(id);
    expect(home.toJson().pages[0]?.nodes.find((n) => n.id === 'title')?.props['text']).toBe('From the replica');
    expect(home.undoDepth).toBe(1);
    // the echo to the pusher holds the new revision, not its own structs
    const echo = home.encodeState(vectorWith(sentVector, update));
    expect(echo.byteLength).toBeLessThan(home.encodeState(sentVector).byteLength);
    const replicaId = replica.ydoc.clientID;
    replica.applyUpdate(echo);
    expect(replica.ydoc.clientID).toBe(replicaId);
    expect(replica.toJson()).toEqual(home.toJson());

    const snapshot = home.toJson();
    // built on a change home never got
    replica.patch([{ op: 'node.remove', nodeId: 'label' }]);
    const skipped = replica.stateVector();
    replica.patch([{ op: 'token.set', path: 'color.x', value: '#000' }]);
    expect(errorOf(() => home.push(replica.encodeState(skipped))).message).toMatch(/does not have/);
    // not an update at all
    expect(errorOf(() => home.push(new Uint8Array([1, 2, 3, 4, 5]))).code).toBe('invalid_input');
    expect(home.toJson()).toEqual(snapshot);
  });
});
