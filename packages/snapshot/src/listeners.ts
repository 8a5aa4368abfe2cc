import { ARGUS_SCRIPT, OBJECT_GROUP, evalObject, type FrameContext } from './frame-eval.js';

/** Listener types that make an element something to click. */
const CLICK_TYPES = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'touchend', 'dblclick']);
/** A page with more listener targets than this is marked for the first ones only: the walk stays cheap. */
const MAX_MARKED = 400;

/**
 * Tells the frame's walker which elements have click-type listeners, so controls made clickable by
 * script alone (`el.addEventListener('click', …)`, no role, no cursor) get refs. The isolated world
 * cannot see listeners; CDP can, for the whole document in one call (DOMDebugger.getEventListeners
 * with depth -1). Best effort: a failure leaves the walk to its other signals.
 */
export async function markListeners(ctx: FrameContext): Promise<void> {
  try {
    const document = await evalObject(ctx, 'document');
    if (!document?.objectId) return;
    const { listeners } = await ctx.session.send('DOMDebugger.getEventListeners', { objectId: document.objectId, depth: -1, pierce: true });
    const ids = [...new Set(listeners.filter((listener) => CLICK_TYPES.has(listener.type) && listener.backendNodeId).map((listener) => listener.backendNodeId!))].slice(0, MAX_MARKED);
    const objects = await Promise.all(
      ids.map((backendNodeId) =>
        ctx.session
          .send('DOM.resolveNode', { backendNodeId, executionContextId: ctx.contextId, objectGroup: OBJECT_GROUP })
          .then(({ object }) => object.objectId)
          // a node of another frame (pierce crosses same-process frames) does not resolve in this world
          .catch(() => undefined),
      ),
    );
    await ctx.session.send('Runtime.callFunctionOn', {
      functionDeclaration: `function (...els) { (${ARGUS_SCRIPT}).markListened(...els.filter((el) => el && el.nodeType === 1)); }`,
      executionContextId: ctx.contextId,
      arguments: objects.filter((objectId): objectId is string => Boolean(objectId)).map((objectId) => ({ objectId })),
      objectGroup: OBJECT_GROUP,
    });
  } catch {
    // listeners are one signal among several; the walk goes on without them
  }
}
