import * as Y from 'yjs';
import { ArgusError } from '@argus/protocol';
import { applyBatch, parseBatch } from './apply.js';
import { checkDocument } from './integrity.js';
import type { CanvasDocument } from './schema.js';
import { contentTypes, readDocument, readRevision, writeDocument, writeRevision } from './y-state.js';

/** Undo keeps this many batches. */
export const HISTORY_DEPTH = 100;

/** Transaction origin of local batches: the only origin the undo manager tracks. */
const PATCH_ORIGIN = 'canvas-patch';

export interface PatchOutcome {
  revision: number;
  created: string[];
  ops: number;
}

/**
 * One live document: a Y.Doc, its undo history and the revision counter. Every change (patch, undo,
 * redo) is a new revision; remote updates (another client's Y updates) are applied as they come and
 * are never undone by this client's undo.
 */
export class CanvasSession {
  readonly ydoc: Y.Doc;
  private readonly history: Y.UndoManager;

  private constructor(ydoc: Y.Doc) {
    this.ydoc = ydoc;
    // captureTimeout 0: each batch is its own undo step, however fast batches follow each other.
    this.history = new Y.UndoManager(contentTypes(ydoc), {
      captureTimeout: 0,
      trackedOrigins: new Set([PATCH_ORIGIN]),
    });
  }

  static create(id: string, name: string): CanvasSession {
    return CanvasSession.fromJson({
      format: 'argus-canvas',
      version: 1,
      id,
      name,
      revision: 0,
      pages: [{ id: 'page-1', name: 'Page 1', rootIds: [], nodes: [] }],
      tokens: {},
      assets: {},
    });
  }

  /** A session from a stored document (checked first); loading is not an undoable step. */
  static fromJson(raw: unknown, source = 'The document'): CanvasSession {
    const doc = checkDocument(raw, source);
    const ydoc = new Y.Doc();
    ydoc.transact(() => {
      writeDocument(ydoc, { ...doc, pages: [], tokens: {}, assets: {} }, doc);
      writeRevision(ydoc, doc.revision);
    }, 'canvas-load');
    return new CanvasSession(ydoc);
  }

  /** A session that starts from another client's full state (`encodeState`). */
  static fromUpdate(update: Uint8Array): CanvasSession {
    const ydoc = new Y.Doc();
    Y.applyUpdate(ydoc, update, 'remote');
    return new CanvasSession(ydoc);
  }

  get revision(): number {
    return readRevision(this.ydoc);
  }

  get undoDepth(): number {
    return this.history.undoStack.length;
  }

  get redoDepth(): number {
    return this.history.redoStack.length;
  }

  toJson(): CanvasDocument {
    return readDocument(this.ydoc);
  }

  /**
   * Applies a raw batch atomically: validated whole against the projection first (the first bad
   * operation names its index and nothing changes), then written to the Y.Doc in one transaction.
   */
  patch(raw: unknown, baseRevision?: number): PatchOutcome {
    const ops = parseBatch(raw);
    const before = this.toJson();
    if (baseRevision !== undefined && baseRevision !== before.revision) {
      throw new ArgusError(
        'revision_conflict',
        `The document is at revision ${before.revision}, not ${baseRevision}: someone changed it. Read it again (argus canvas show) and rebase your operations on revision ${before.revision}.`,
        { details: { revision: before.revision, baseRevision } },
      );
    }
    const { doc: after, created } = applyBatch(before, ops);
    const revision = before.revision + 1;
    this.ydoc.transact(() => {
      writeDocument(this.ydoc, before, after);
      writeRevision(this.ydoc, revision);
    }, PATCH_ORIGIN);
    this.history.stopCapturing();
    while (this.history.undoStack.length > HISTORY_DEPTH) this.history.undoStack.shift();
    return { revision, created, ops: ops.length };
  }

  undo(): { revision: number } {
    if (!this.history.canUndo()) {
      throw new ArgusError('history_empty', 'Nothing to undo: no batch of this session is left to take back.', {
        details: { direction: 'undo' },
      });
    }
    this.history.undo();
    return this.bump();
  }

  redo(): { revision: number } {
    if (!this.history.canRedo()) {
      throw new ArgusError(
        'history_empty',
        'Nothing to redo: redo only follows an undo, and a new patch clears what could be redone.',
        { details: { direction: 'redo' } },
      );
    }
    this.history.redo();
    return this.bump();
  }

  /** The whole state as one Y update, for a new client. */
  encodeState(since?: Uint8Array): Uint8Array {
    return Y.encodeStateAsUpdate(this.ydoc, since);
  }

  /** Another client's Y update; it converges and is outside this client's undo history. */
  applyUpdate(update: Uint8Array): void {
    Y.applyUpdate(this.ydoc, update, 'remote');
  }

  /** What this document holds, as a Yjs state vector: `encodeState(vector)` elsewhere gives what it lacks. */
  stateVector(): Uint8Array {
    return Y.encodeStateVector(this.ydoc);
  }

  /**
   * A replica's update, taken as one new revision: applied to a copy first, so an update that is not
   * one, that builds on changes this document lacks, or that would leave it inconsistent (two
   * concurrent reparents can) is refused and nothing changes. Outside the undo history, like
   * `applyUpdate`; the revision counter stays the document's own (one more), whatever the update says.
   */
  push(update: Uint8Array): { revision: number } {
    const before = this.revision;
    const copy = new Y.Doc();
    try {
      Y.applyUpdate(copy, this.encodeState());
      try {
        Y.applyUpdate(copy, update, 'remote');
      } catch (error) {
        throw new ArgusError('invalid_input', `That is not a Yjs update (${(error as Error).message}).`);
      }
      if (copy.store.pendingStructs !== null || copy.store.pendingDs !== null) {
        throw new ArgusError(
          'invalid_input',
          'The update builds on changes this document does not have (the replica is from another document, or from before a reset). Start the replica again from `canvas updates`.',
        );
      }
      let projected: unknown;
      try {
        projected = readDocument(copy);
      } catch (error) {
        throw new ArgusError('invalid_input', `The update leaves no readable document (${(error as Error).message}).`);
      }
      checkDocument(projected, 'The document after the update');
    } finally {
      copy.destroy();
    }
    const revision = before + 1;
    // two transactions: applying an update marks its transaction remote, and a local write in a
    // remote transaction makes Yjs think another client uses this document's id (it switches ids)
    Y.applyUpdate(this.ydoc, update, 'remote');
    this.ydoc.transact(() => writeRevision(this.ydoc, revision), 'canvas-history');
    return { revision };
  }

  destroy(): void {
    this.history.destroy();
    this.ydoc.destroy();
  }

  private bump(): { revision: number } {
    const revision = this.revision + 1;
    this.ydoc.transact(() => writeRevision(this.ydoc, revision), 'canvas-history');
    return { revision };
  }
}

/**
 * A state vector advanced by what an update holds: what a replica has once it made `update` itself,
 * so the feed does not send the replica's own structs back (Yjs would take them for another client
 * using its id and switch ids).
 */
export function vectorWith(vector: Uint8Array, update: Uint8Array): Uint8Array {
  const merged = Y.decodeStateVector(vector);
  for (const [client, clock] of Y.decodeStateVector(Y.encodeStateVectorFromUpdate(update)))
    merged.set(client, Math.max(clock, merged.get(client) ?? 0));
  return Y.encodeStateVector(merged);
}
