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
/** The page's handler functions that DOMDebugger.getEventListeners wraps live here, released at once. */
const LISTENER_GROUP = 'argus-listeners';

/**
 * The elements of the frame that have click-type listeners, as remote objects in its isolated world
 * (the walk gets them with its call), so controls made clickable by script alone
 * (`el.addEventListener('click', …)`, no role, no cursor) get refs. The isolated world cannot see
 * listeners; CDP can, for the whole document in one call (DOMDebugger.getEventListeners with
 * depth -1). Best effort: a failure leaves the walk to its other signals.
 *
 * The listeners are asked of the page's own (main world) document, never of the isolated world's:
 * from there, `pierce` reports the page's listeners too, and DevTools wraps each page handler
 * function into the isolated world. With those cross-world handles the renderer's main thread
 * locked up a few snapshots later (idle on a futex, not even Debugger.pause answered: every call
 * then failed with page_unresponsive). Asked of the main world, the handlers stay in their world.
 */
export async function listenerTargets(
  ctx: FrameContext,
  mainWorld: number | undefined,
  cache: ListenerCache,
): Promise<string[]> {
  if (mainWorld === undefined) return [];
  try {
    const known = cache.forFrame(ctx);
    const listen = (objectId: string) =>
      ctx.session
        .send('DOMDebugger.getEventListeners', { objectId, depth: -1, pierce: true })
        // the page's handler functions wrapped for the answer are never used: dropped at once
        .finally(
          () =>
            void ctx.session.send('Runtime.releaseObjectGroup', { objectGroup: LISTENER_GROUP }).catch(() => undefined),
        );
    // the document handle kept from this document's last snapshot; one that no longer resolves (its
    // group was released) is looked up afresh
    let documentId = cache.documentOf(ctx, mainWorld);
    let answer = documentId ? await listen(documentId).catch(() => undefined) : undefined;
    if (!answer) {
      documentId = await pageDocument(ctx, mainWorld);
      if (!documentId) return [];
      answer = await listen(documentId);
    }
    cache.keepDocument(ctx, mainWorld, documentId!);
    const { listeners } = answer;
    const ids = [
      ...new Set(
        listeners
          .filter((listener) => CLICK_TYPES.has(listener.type) && listener.backendNodeId)
          .map((listener) => listener.backendNodeId!),
      ),
    ].slice(0, MAX_MARKED);
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
  } catch {
    // listeners are one signal among several; the walk goes on without them
    return [];
  }
}

/** The page's `document` in its main world, as a handle kept (KEPT_GROUP) for the next snapshots of it. */
async function pageDocument(ctx: FrameContext, mainWorld: number): Promise<string | undefined> {
  const { result } = await ctx.session.send('Runtime.evaluate', {
    expression: 'document',
    contextId: mainWorld,
    objectGroup: KEPT_GROUP,
    silent: true,
  });
  return result.objectId;
}

/** Resolved listener elements are kept in this group between snapshots of a document (see ListenerCache). */
const KEPT_GROUP = 'argus-listened';
/** Past this many kept elements in a session, the group is released and resolving starts over. */
const KEPT_MAX = 2000;

/**
 * The listened elements already resolved in each frame's isolated world, by backend node id: most
 * of a page's listeners are still there at its next snapshot, and resolving each (one CDP call
 * apiece, hundreds on some pages) was most of the cost of finding them. A new document (a new
 * isolated world) starts afresh; the kept objects are bounded per session.
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
    }
  >();

  documentOf(ctx: FrameContext, mainWorld: number): string | undefined {
    const entry = this.frames.get(ctx.frameId);
    return entry?.contextId === ctx.contextId && entry.document?.mainWorld === mainWorld
      ? entry.document.objectId
      : undefined;
  }

  keepDocument(ctx: FrameContext, mainWorld: number, objectId: string): void {
    const entry = this.frames.get(ctx.frameId);
    if (entry?.contextId === ctx.contextId) entry.document = { mainWorld, objectId };
  }

  forFrame(ctx: FrameContext): Map<number, string> {
    let entry = this.frames.get(ctx.frameId);
    if (!entry || entry.contextId !== ctx.contextId) {
      entry = { contextId: ctx.contextId, session: ctx.session, objects: new Map() };
      this.frames.set(ctx.frameId, entry);
    }
    const sameSession = [...this.frames.values()].filter((frame) => frame.session === ctx.session);
    if (sameSession.reduce((kept, frame) => kept + frame.objects.size, 0) > KEPT_MAX) {
      // the group is released for every frame of the session at once: all their ids go
      void ctx.session.send('Runtime.releaseObjectGroup', { objectGroup: KEPT_GROUP }).catch(() => undefined);
      for (const frame of sameSession) {
        frame.objects.clear();
        delete frame.document;
      }
    }
    return entry.objects;
  }
}
