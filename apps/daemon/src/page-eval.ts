import { CommandCancelledError, type Page, PageUnresponsiveError, type Session } from '@argus/cdp';
import { ArgusError } from '@argus/protocol';
import { type PageFunction, type SnapshotEngine, pageExpression, pageResult } from '@argus/snapshot';

/**
 * The one way the daemon runs code in a page: typed page functions of @argus/snapshot (`page/*`),
 * their arguments checked by tsc and their answers by the function's result schema.
 */

/**
 * Runs a page function in Argus's isolated world of the main frame (page scripts cannot tamper with
 * it), with `this` bound to `document`, or to the element `within` names.
 */
export async function runInPage<A extends unknown[], R>(
  page: Page,
  engine: SnapshotEngine,
  within: string | undefined,
  fn: PageFunction<'element' | 'document', A, R>,
  ...args: A
): Promise<R> {
  if (within !== undefined && within.trim()) return callOnElement(page, await engine.resolve(within), fn, ...args);
  const contextId = await isolatedContext(page);
  return pageResult(fn, await page.evaluate(pageExpression(fn, 'document', args), { contextId }));
}

/** Calls a page function with `this` bound to an element (a handle from the engine, or any remote object). */
export async function callOnElement<A extends unknown[], R>(
  page: Page,
  handle: { objectId: string; session: Session },
  fn: PageFunction<'element', A, R>,
  ...args: A
): Promise<R> {
  return pageResult(fn, await page.callOn(handle.objectId, fn.source, args, handle.session));
}

/**
 * Evaluates a page function with no `this`, in the main world of the main frame unless `contextId`
 * names another (the isolated world: `isolatedContext`; a frame's, on the `session` that owns it).
 */
export async function evaluateInPage<A extends unknown[], R>(
  page: Page,
  fn: PageFunction<'none', A, R>,
  args: A,
  options: { contextId?: number; session?: Session } = {},
): Promise<R> {
  return pageResult(fn, await page.evaluate(pageExpression(fn, 'undefined', args), options));
}

export async function isolatedContext(page: Page): Promise<number> {
  try {
    return await page.frames.isolatedWorld(page.mainFrameId);
  } catch (error) {
    if (error instanceof PageUnresponsiveError || error instanceof CommandCancelledError) throw error;
    throw new ArgusError('target_closed', 'The page has no document right now. Retry after it loads.', {
      cause: error,
    });
  }
}
