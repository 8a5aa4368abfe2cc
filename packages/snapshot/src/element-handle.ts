import type { Page, Session } from '@argus/cdp';
import { callOnElementWithWalker, documentContext, evalObject, evalValue } from './frame-eval.js';
import { badTargetError, noMatchError } from './ref-registry.js';

/** A live element in a frame's isolated world, as resolved from a ref, locator or selector. */
export interface ElementHandle {
  session: Session;
  objectId: string;
  backendNodeId: number;
  frameId: string;
  /** e.g. `button "Save"`, for messages */
  label: string;
}

/** The first element a CSS selector matches in the top document (`element_not_found` if none). */
export async function selectorHandle(page: Page, selector: string): Promise<ElementHandle> {
  const ctx = await documentContext(page, page.mainFrameId);
  const ok = await evalValue<boolean>(
    ctx,
    `(() => { try { document.querySelector(${JSON.stringify(selector)}); return true } catch { return false } })()`,
  );
  if (!ok) throw badTargetError(selector);
  const object = await evalObject(ctx, `document.querySelector(${JSON.stringify(selector)})`);
  if (!object?.objectId) {
    throw noMatchError(selector);
  }
  const [{ node }, label] = await Promise.all([
    ctx.session.send('DOM.describeNode', { objectId: object.objectId }),
    callOnElementWithWalker<string | null>(ctx.session, object.objectId, 'function (a) { return a.label(this); }')
      .then((value) => String(value ?? selector))
      .catch(() => selector),
  ]);
  return {
    session: ctx.session,
    objectId: object.objectId,
    backendNodeId: node.backendNodeId,
    frameId: ctx.frameId,
    label,
  };
}
