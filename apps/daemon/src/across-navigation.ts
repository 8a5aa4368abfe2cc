import { EventWaiters, NavigationTimeoutError, type Page, isDocumentGone } from '@argus/cdp';
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
  const tab = tabNavigation(page);
  for (;;) {
    const seen = tab.watch();
    const before = documentMark(page);
    try {
      return await read(Math.max(0, deadline - performance.now()));
    } catch (error) {
      if (!isDocumentGone(error) || page.closed) throw error;
      if (!seen.requested && documentMark(page) === before) throw error;
      await nextDocument(page, tab, seen, deadline, onTimeout);
    } finally {
      tab.unwatch(seen);
    }
  }
}

/** What the main frame did since one read began (what NavigationWatcher reports of it, for a read). */
interface Seen {
  /** a cross-document navigation was requested or started */
  requested: boolean;
  /** loaderId of the newest document committed */
  committedLoader: string | undefined;
  /** it stopped loading after a request without committing (204, cancelled, download) */
  stoppedWithoutCommit: boolean;
  /** loaders that reached DOMContentLoaded */
  parsed: Set<string>;
}

/**
 * The main frame's navigation events of one tab, listened to once for the tab's life (made with its
 * first read) and told to the reads running at the time. Every snapshot and text read used to make
 * a NavigationWatcher of its own: eight event subscriptions made and dropped per read.
 */
class TabNavigation {
  private readonly reads = new Set<Seen>();
  private readonly waiters: EventWaiters;

  constructor(page: Page) {
    const session = page.session;
    this.waiters = new EventWaiters(session);
    const isMain = (frameId: string) => frameId === page.mainFrameId;
    const offs = [
      session.on('Page.frameRequestedNavigation', (event) => {
        // newTab/newWindow dispositions open another tab; `download` never navigates this one
        if (isMain(event.frameId) && event.disposition === 'currentTab') this.mark((seen) => (seen.requested = true));
      }),
      session.on('Page.frameStartedNavigating', (event) => {
        if (isMain(event.frameId) && !event.navigationType.toLowerCase().includes('samedocument'))
          this.mark((seen) => (seen.requested = true));
      }),
      session.on('Page.frameStoppedLoading', (event) => {
        if (isMain(event.frameId))
          this.mark((seen) => {
            if (seen.requested && seen.committedLoader === undefined) seen.stoppedWithoutCommit = true;
          });
      }),
      session.on('Page.frameNavigated', (event) => {
        if (event.frame.parentId) return;
        const loader = event.frame.loaderId;
        this.mark((seen) => {
          seen.requested = true;
          seen.committedLoader = loader;
          if (event.type === 'BackForwardCacheRestore') seen.parsed.add(loader);
        });
      }),
      session.on('Page.lifecycleEvent', (event) => {
        if (isMain(event.frameId) && event.name === 'DOMContentLoaded')
          this.mark((seen) => seen.parsed.add(event.loaderId));
      }),
    ];
    session.onDetach(() => {
      for (const off of offs) off();
      tabs.delete(page);
    });
  }

  /** Starts telling a read what the main frame does from now on. */
  watch(): Seen {
    const seen: Seen = { requested: false, committedLoader: undefined, stoppedWithoutCommit: false, parsed: new Set() };
    this.reads.add(seen);
    return seen;
  }

  unwatch(seen: Seen): void {
    this.reads.delete(seen);
  }

  private mark(update: (seen: Seen) => void): void {
    for (const seen of this.reads) update(seen);
    this.waiters.notify();
  }

  /** Resolves when `check()` is true, re-checked on every event; rejects on timeout or when the tab closes. */
  until(check: () => boolean, timeoutMs: number): Promise<void> {
    return this.waiters.until(check, timeoutMs, () => 'The next document');
  }
}

const tabs = new WeakMap<Page, TabNavigation>();

/** The tab's one TabNavigation, made the first time a read runs in it. */
function tabNavigation(page: Page): TabNavigation {
  let tab = tabs.get(page);
  if (!tab) {
    tab = new TabNavigation(page);
    tabs.set(page, tab);
  }
  return tab;
}

/** What changes when the main frame's document does: the page's epoch and its contexts there. */
function documentMark(page: Page): string {
  const frame = page.mainFrameId;
  return `${page.epoch}|${page.frames.mainWorld(frame)}|${page.frames.knownIsolatedWorld(frame)}`;
}

/** Resolves once the main frame has committed a document since the read began and parsed it (or stopped without one). */
async function nextDocument(
  page: Page,
  tab: TabNavigation,
  seen: Seen,
  deadline: number,
  onTimeout: () => ArgusError,
): Promise<void> {
  const parsed = () => {
    const loader = seen.committedLoader;
    return seen.stoppedWithoutCommit || (loader !== undefined && seen.parsed.has(loader));
  };
  try {
    await page.session.guard(tab.until(parsed, Math.max(0, deadline - performance.now())), 'the next document');
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
