import type { FrameContext } from './frame-eval.js';

/** Listener types that make an element something to click. */
const CLICK_TYPES = new Set([
  'click',
  'mousedown',
  'mouseup',
  'pointerdown',
  'pointerup',
  'touchstart',
  'touchend',
  'dblclick',
]);
/** A page with more listener targets than this is marked for the first ones only: the walk stays cheap. */
const MAX_MARKED = 400;

/**
 * The elements of a frame's document that have click-type listeners, by backend node id (first
 * MAX_MARKED, in CDP's order), so controls made clickable by script alone
 * (`el.addEventListener('click', …)`, no role, no cursor) get refs. The isolated world cannot see
 * listeners; CDP can, for the whole document in one call (DOMDebugger.getEventListeners with
 * depth -1). Best effort: undefined when they cannot be read, and the walk goes on with its other
 * signals.
 *
 * The listeners are asked of the page's own (main world) document, never of the isolated world's:
 * from there, `pierce` reports the page's listeners too, and DevTools wraps each page handler
 * function into the isolated world. With those cross-world handles the renderer's main thread
 * locked up a few snapshots later (idle on a futex, not even Debugger.pause answered: every call
 * then failed with page_unresponsive). The document handle belongs to no object group: DevTools
 * wraps the handler functions into the group of the object asked about, and into none when it has
 * none, so no handler is wrapped at all (measured: a third cheaper on a page with 31 listeners, and
 * nothing to release after each call).
 */
export async function listenedNodes(
  ctx: FrameContext,
  mainWorld: number | undefined,
  cache: ListenerCache,
): Promise<number[] | undefined> {
  if (mainWorld === undefined) return undefined;
  try {
    const listen = (objectId: string) =>
      ctx.session.send('DOMDebugger.getEventListeners', { objectId, depth: -1, pierce: true });
    // the document handle kept from this document's last snapshot; one that no longer resolves is looked up afresh
    let documentId = cache.documentOf(ctx, mainWorld);
    let answer = documentId ? await listen(documentId).catch(() => undefined) : undefined;
    if (!answer) {
      documentId = await pageDocument(ctx, mainWorld);
      if (!documentId) return undefined;
      answer = await listen(documentId);
    }
    cache.keepDocument(ctx, mainWorld, documentId!);
    return [
      ...new Set(
        answer.listeners
          .filter((listener) => CLICK_TYPES.has(listener.type) && listener.backendNodeId)
          .map((listener) => listener.backendNodeId!),
      ),
    ].slice(0, MAX_MARKED);
  } catch {
    // listeners are one signal among several; the walk goes on without them
    return undefined;
  }
}

/**
 * Looks up the page's main-world `document` handle for listenedNodes ahead of the first snapshot of
 * a document (SnapshotEngine.readyDocument), unless it is known already.
 */
export async function keepPageDocument(ctx: FrameContext, mainWorld: number, cache: ListenerCache): Promise<void> {
  if (cache.documentOf(ctx, mainWorld)) return;
  const documentId = await pageDocument(ctx, mainWorld);
  if (documentId) cache.keepDocument(ctx, mainWorld, documentId);
}

/** The listened elements as remote objects in the frame's isolated world, for the walker's call. */
export async function listenedObjects(ctx: FrameContext, ids: number[], cache: ListenerCache): Promise<string[]> {
  const known = cache.forFrame(ctx);
  const objects = await Promise.all(
    ids.map(async (backendNodeId) => {
      const cached = known.get(backendNodeId);
      if (cached !== undefined) return cached;
      const objectId = await ctx.session
        .send('DOM.resolveNode', { backendNodeId, executionContextId: ctx.contextId, objectGroup: KEPT_GROUP })
        .then(({ object }) => object.objectId ?? '')
        // a node of another frame (pierce crosses same-process frames) does not resolve in this world
        .catch(() => '');
      known.set(backendNodeId, objectId);
      return objectId;
    }),
  );
  return objects.filter((objectId) => objectId !== '');
}

/** The same listened elements, whatever their order: compares what a world was given with what CDP lists now. */
export function listenedKey(ids: readonly number[]): string {
  return [...ids].sort((a, b) => a - b).join(',');
}

/** The page's `document` in its main world, as a handle kept for the next snapshots of it (in no object group: see listenedNodes). */
async function pageDocument(ctx: FrameContext, mainWorld: number): Promise<string | undefined> {
  const { result } = await ctx.session.send('Runtime.evaluate', {
    expression: 'document',
    contextId: mainWorld,
    silent: true,
  });
  return result.objectId;
}

/** Resolved listener elements are kept in this group between snapshots of a document (see ListenerCache). */
const KEPT_GROUP = 'argus-listened';
/** Past this many kept elements in a session, the group is released and resolving starts over. */
const KEPT_MAX = 2000;

/**
 * What the engine knows of each frame's listeners between snapshots: the listened elements already
 * resolved in the frame's isolated world, by backend node id (most of a page's listeners are still
 * there at its next snapshot, and resolving each, one CDP call apiece, hundreds on some pages, was
 * most of the cost of finding them); the page's `document` handle; and which listened elements the
 * world's walker was last given (`marked`), so the next snapshot can walk while CDP is asked, and
 * walk again only when the answer differs. A new document (a new isolated world) starts afresh; the
 * kept objects are bounded per session.
 */
export class ListenerCache {
  private readonly frames = new Map<
    string,
    {
      contextId: number;
      session: FrameContext['session'];
      objects: Map<number, string>;
      /** The page's main-world `document` handle, asked once per document instead of per snapshot. */
      document?: { mainWorld: number; objectId: string };
      /** listenedKey of the elements the world's walker holds as listened */
      marked?: string;
    }
  >();

  documentOf(ctx: FrameContext, mainWorld: number): string | undefined {
    const entry = this.frames.get(ctx.frameId);
    return entry?.contextId === ctx.contextId && entry.document?.mainWorld === mainWorld
      ? entry.document.objectId
      : undefined;
  }

  keepDocument(ctx: FrameContext, mainWorld: number, objectId: string): void {
    this.entry(ctx).document = { mainWorld, objectId };
  }

  /** The listened elements this frame's current world was last given, or undefined when it was given none yet. */
  marked(ctx: FrameContext): string | undefined {
    const entry = this.frames.get(ctx.frameId);
    return entry?.contextId === ctx.contextId ? entry.marked : undefined;
  }

  setMarked(ctx: FrameContext, key: string): void {
    this.entry(ctx).marked = key;
  }

  forFrame(ctx: FrameContext): Map<number, string> {
    const entry = this.entry(ctx);
    const sameSession = [...this.frames.values()].filter((frame) => frame.session === ctx.session);
    if (sameSession.reduce((kept, frame) => kept + frame.objects.size, 0) > KEPT_MAX) {
      // the group is released for every frame of the session at once: all their ids go
      void ctx.session.send('Runtime.releaseObjectGroup', { objectGroup: KEPT_GROUP }).catch(() => undefined);
      for (const frame of sameSession) frame.objects.clear();
    }
    return entry.objects;
  }

  private entry(ctx: FrameContext) {
    let entry = this.frames.get(ctx.frameId);
    if (!entry || entry.contextId !== ctx.contextId) {
      entry = { contextId: ctx.contextId, session: ctx.session, objects: new Map() };
      this.frames.set(ctx.frameId, entry);
    }
    return entry;
  }
}
