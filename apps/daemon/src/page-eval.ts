import { CommandCancelledError, type Page, PageUnresponsiveError } from '@argus/cdp';
import { ArgusError } from '@argus/protocol';
import type { ElementHandle, SnapshotEngine } from '@argus/snapshot';

/**
 * Runs a self-contained page function in Argus's isolated world of the main frame (page scripts
 * cannot tamper with it), with `this` bound to `document`, or to the element `within` names.
 */
export async function runInPage<T>(
  page: Page,
  engine: SnapshotEngine,
  within: string | undefined,
  fn: string,
  args: unknown[] = [],
): Promise<T> {
  if (within !== undefined && within.trim()) {
    const handle = await engine.resolve(within);
    return page.callOn<T>(handle.objectId, fn, args, handle.session);
  }
  const contextId = await isolatedContext(page);
  return page.evaluate<T>(`(${fn}).apply(document, ${JSON.stringify(args)})`, { contextId });
}

/** Calls a page function with `this` bound to an element handle. */
export function callOnElement<T>(page: Page, handle: ElementHandle, fn: string, args: unknown[] = []): Promise<T> {
  return page.callOn<T>(handle.objectId, fn, args, handle.session);
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
