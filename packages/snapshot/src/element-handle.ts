import type { Page, Session } from '@argus/cdp';
import { callOnElementWithWalker, documentContext, evalObject } from './frame-eval.js';
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

/** What the page throws for a selector `querySelector` refuses (not valid CSS). */
const BAD_SELECTOR = '__argus_bad_selector__';

/** The first element a CSS selector matches in the top document (`element_not_found` if none). */
export async function selectorHandle(page: Page, selector: string): Promise<ElementHandle> {
  const ctx = await documentContext(page, page.mainFrameId);
  // one round trip: the element, or the page's word that the selector is not valid CSS
  const object = await evalObject(
    ctx,
    `(() => { try { return document.querySelector(${JSON.stringify(selector)}); } catch { throw new Error('${BAD_SELECTOR}'); } })()`,
  ).catch((error: unknown) => {
    if (error instanceof Error && error.message.includes(BAD_SELECTOR)) throw badTargetError(selector);
    throw error;
  });
  if (!object?.objectId) {
    throw noMatchError(selector);
  }
  const [{ node }, label] = await Promise.all([
    ctx.session.send('DOM.describeNode', { objectId: object.objectId }),
    elementLabel(ctx.session, object.objectId, selector),
  ]);
  return {
    session: ctx.session,
    objectId: object.objectId,
    backendNodeId: node.backendNodeId,
    frameId: ctx.frameId,
    label,
  };
}

/**
 * How a message and a reply name an element that was found (a target's `label`): the walker's
 * `role "name"` (or `role (hint)`), the words of its snapshot line, whether it was found by ref, by
 * locator or by selector, in the top document or in a frame; `fallback` when the page cannot say.
 */
export function elementLabel(session: Session, objectId: string, fallback: string): Promise<string> {
  return callOnElementWithWalker<string | null>(session, objectId, 'function (a) { return a.label(this); }')
    .then((value) => String(value ?? fallback))
    .catch(() => fallback);
}
