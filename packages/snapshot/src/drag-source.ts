import type { Page, Session } from '@argus/cdp';
import { type Point, callAction } from './actionability.js';
import { evalValue, frameContext } from './frame-eval.js';
import { DRAGGABLE_AT, DRAGGABLE_NODE } from './page/window.js';
import { pageExpression, pageResult } from './page/page-function.js';

/** Frames inside frames a press is followed through at most (a page nesting deeper is no drag source). */
const MAX_FRAME_DEPTH = 8;

/**
 * Whether a press at `point` (the tab's viewport) starts an HTML5 drag, in whichever document it
 * lands. DRAGGABLE_AT answers for the top document in one call (Argus's isolated world); where the
 * press reaches an <iframe>, the element at the point is found in the frame's document and asked
 * the same (followFrames). False for a top document with no world now (the mouse drags then).
 */
export async function draggableAt(page: Page, point: Point): Promise<boolean> {
  const ctx = await frameContext(page, page.mainFrameId);
  if (!ctx) return false;
  const answer = pageResult(
    DRAGGABLE_AT,
    await evalValue<unknown>(ctx, pageExpression(DRAGGABLE_AT, 'undefined', [point.x, point.y])),
  );
  return answer === 'frame' ? followFrames(page, point) : answer;
}

/**
 * The press point followed into frames by CDP hit tests (`DOM.getNodeForLocation`, which reaches into
 * frames of the same process and stops at the <iframe> of one in another): in an out-of-process frame
 * the point is moved by its content box and hit-tested again in the frame's session, until it lands
 * on an element of some document, which DRAGGABLE_NODE judges in that frame's isolated world.
 */
async function followFrames(page: Page, point: Point): Promise<boolean> {
  let session: Session = page.session;
  let at = point;
  for (let depth = 0; depth < MAX_FRAME_DEPTH; depth++) {
    // hit tests take document coordinates: the viewport point plus the session root frame's scroll
    const { cssLayoutViewport } = await session.send('Page.getLayoutMetrics');
    const hit = await session.send('DOM.getNodeForLocation', {
      x: Math.round(at.x + cssLayoutViewport.pageX),
      y: Math.round(at.y + cssLayoutViewport.pageY),
      ignorePointerEventsNone: true,
    });
    const { node } = await session.send('DOM.describeNode', { backendNodeId: hit.backendNodeId });
    const inner = node.frameId === undefined ? undefined : page.frames.get(node.frameId);
    if (inner && inner.session !== session) {
      const { model } = await session.send('DOM.getBoxModel', { backendNodeId: hit.backendNodeId });
      at = { x: at.x - (model.content[0] ?? 0), y: at.y - (model.content[1] ?? 0) };
      session = inner.session;
      continue;
    }
    const ctx = hit.frameId === undefined ? undefined : await frameContext(page, hit.frameId);
    if (!ctx || ctx.session !== session) return false;
    const { object } = await session.send('DOM.resolveNode', {
      backendNodeId: hit.backendNodeId,
      executionContextId: ctx.contextId,
    });
    if (!object.objectId) return false;
    try {
      return await callAction({ session, objectId: object.objectId }, DRAGGABLE_NODE);
    } finally {
      void session.send('Runtime.releaseObject', { objectId: object.objectId }).catch(() => undefined);
    }
  }
  return false;
}
