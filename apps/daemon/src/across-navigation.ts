import { NavigationTimeoutError, NavigationWatcher, type Page, isDocumentGone } from '@argus/cdp';
import { ArgusError } from '@argus/protocol';

/** How long a read with no deadline of its own waits for the next document (snapshot, text). */
export const NEXT_DOCUMENT_WAIT_MS = 10_000;

/**
 * Runs a read of the tab's current document, again on the next one when the page navigates by
 * itself (a script's `location.href = …`, a meta refresh) while the read runs. Such a read was not
 * wrong, only early, so it goes on once the new document is committed and parsed (its
 * DOMContentLoaded): event driven, within `timeoutMs` in all, each try given what is left
 * (`read(leftMs)`). A read that named a ref of the old document fails on the retry as ref_stale
 * (the engine checks the ref's document). An error with no sign of a navigation of the main frame
 * (no commit, no request, its contexts unchanged) is the read's own and is thrown at once.
 */
export async function acrossNavigation<T>(
  page: Page,
  timeoutMs: number,
  read: (leftMs: number) => Promise<T>,
  onTimeout: () => ArgusError,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const watcher = new NavigationWatcher(page.session, () => page.mainFrameId);
    const before = documentMark(page);
    try {
      return await read(Math.max(0, deadline - performance.now()));
    } catch (error) {
      if (!isDocumentGone(error) || page.closed) throw error;
      if (!watcher.requested && documentMark(page) === before) throw error;
      await nextDocument(page, watcher, deadline, onTimeout);
    } finally {
      watcher.dispose();
    }
  }
}

/** What changes when the main frame's document does: the page's epoch and its contexts there. */
function documentMark(page: Page): string {
  const frame = page.mainFrameId;
  return `${page.epoch}|${page.frames.mainWorld(frame)}|${page.frames.knownIsolatedWorld(frame)}`;
}

/** Resolves once the main frame has committed a document since `watcher` started and parsed it (or stopped without one). */
async function nextDocument(
  page: Page,
  watcher: NavigationWatcher,
  deadline: number,
  onTimeout: () => ArgusError,
): Promise<void> {
  const parsed = () => {
    const loader = watcher.committedLoader;
    return watcher.stoppedWithoutCommit || (loader !== undefined && watcher.reached(loader, 'DOMContentLoaded'));
  };
  try {
    await page.session.guard(
      watcher.until(parsed, Math.max(0, deadline - performance.now()), () => 'The next document'),
      'the next document',
    );
  } catch (error) {
    if (error instanceof NavigationTimeoutError) throw onTimeout();
    throw error;
  }
}

/** A read that waited in vain for the document the page was moving to. */
export function stillLoading(verb: string): ArgusError {
  return new ArgusError(
    'timeout',
    `The page moved to another document during the ${verb} and it did not load within ${NEXT_DOCUMENT_WAIT_MS / 1000} s. Run \`argus wait --load\`, then the ${verb} again.`,
  );
}
