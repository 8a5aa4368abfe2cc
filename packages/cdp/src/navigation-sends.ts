import { ArgusError } from '@argus/protocol';
import { CommandCancelledError, outsideCommandScope } from './command-scope.js';
import { NavigationTimeoutError } from './event-waiters.js';
import { isHistoryNavigation, type NavigationWatcher } from './navigation.js';
import type { Page } from './page.js';
import type { WaitUntil } from './page-navigation.js';
import { withoutPassword } from './url-display.js';

/**
 * How many times a navigation is sent when a navigation the page left behind had under way commits
 * over it (NavigationWatcher.replacedBy): the page the caller asked for is loaded again, twice at
 * most, within the same deadline.
 */
const MAX_NAVIGATE_SENDS = 3;
/** Page.stopLoading after a timeout is answered by the browser process at once, or not at all. */
const STOP_LOADING_MS = 2_000;

/** What sending a navigation answered. */
export type SentNavigation =
  /** Page.navigate's answer: its loader (none: the same document) or why it failed, for `url`. */
  | { url: string; loaderId: string | undefined; errorText: string | undefined }
  /** A history entry or a reload, answered without its loader: its own start tells (sentSince). */
  | { startedAs: (navigationType: string) => boolean };

/** A navigation the caller asked for: how it is sent the first time, and again when it was overtaken. */
export interface NavigationSend {
  /** For messages: "Navigation to …", "Going back", "Reload". */
  what: string;
  first(): Promise<SentNavigation>;
  /** `overtaken`: the navigation whose document the page left behind's navigation committed over. */
  again(overtaken: string): Promise<SentNavigation>;
}

const isReload = (navigationType: string) => /^reload/i.test(navigationType);

/** goto: Page.navigate, the same every time. */
export function sendTo(page: Page, url: string): Promise<SentNavigation> {
  return page.session
    .send('Page.navigate', { url, frameId: page.mainFrameId })
    .then(({ loaderId, errorText }) => ({ url, loaderId, errorText }));
}

/** A history entry of this tab (Page.getNavigationHistory). */
export interface HistoryEntry {
  id: number;
  url: string;
}

/** back / forward: the entry, by its id. */
export function sendToEntry(page: Page, entry: HistoryEntry): Promise<SentNavigation> {
  return page.session
    .send('Page.navigateToHistoryEntry', { entryId: entry.id })
    .then(() => ({ startedAs: isHistoryNavigation }));
}

/** reload: the current entry, whose document is loaded again. */
export function sendReload(page: Page): Promise<SentNavigation> {
  return page.session.send('Page.reload', {}).then(() => ({ startedAs: isReload }));
}

/**
 * goto sent again once a navigation of the page left behind committed over the document it had
 * landed on (`overtaken`): back to that document's history entry when it is the one just before the
 * page that committed over it (Chrome added that page as a new entry), so `back` from the page asked
 * for goes where it went before the goto, not to the page left behind's; else (that page took the
 * entry's place) Page.navigate again.
 */
export async function returnToLanding(
  page: Page,
  watcher: NavigationWatcher,
  url: string,
  overtaken: string,
): Promise<SentNavigation> {
  const landed = watcher.committedUrlOf(overtaken);
  if (landed !== undefined) {
    const { currentIndex, entries } = await page.session.send('Page.getNavigationHistory');
    const before = entries[currentIndex - 1];
    if (before && before.url === landed) return sendToEntry(page, before);
  }
  return sendTo(page, url);
}

/**
 * Back to `entry` once a navigation of the page left behind committed over it: the same entry when
 * the tab's history still has it (the page's navigation came after it, as a new entry); its URL when
 * that navigation took the entry's place (a `location.replace`), since Chrome then refuses the id.
 * A reload goes back this way too: sent again, Page.reload would reload the page's document.
 */
export async function returnToEntry(page: Page, entry: HistoryEntry): Promise<SentNavigation> {
  const { entries } = await page.session.send('Page.getNavigationHistory');
  if (entries.some((candidate) => candidate.id === entry.id)) return sendToEntry(page, entry);
  return sendTo(page, entry.url);
}

/**
 * Sends a navigation and waits, within `timeoutMs` for everything, until its document reached
 * `waitUntil` (NavigationWatcher.settled). When a navigation the page left behind had under way
 * commits over that document before then (`replacedBy(…).stale`), it is sent again (`again`), at most
 * MAX_NAVIGATE_SENDS times in all; when one is still under way once the document has its `load`, it is
 * stopped. Resolves with the loader of the document it landed on, undefined for a same-document
 * navigation (or `waitUntil: 'none'` with Page.navigate's answer). Fails as navigation_failed or
 * navigation_timeout, after Page.stopLoading.
 */
export async function sendUntilLanded(
  page: Page,
  watcher: NavigationWatcher,
  navigation: NavigationSend,
  waitUntil: WaitUntil,
  timeoutMs: number,
): Promise<string | undefined> {
  const { what } = navigation;
  const started = performance.now();
  const left = () => Math.max(0, timeoutMs - (performance.now() - started));
  const bounded = <T>(pending: Promise<T>) => stopOnFailure(page, pending, timeoutMs, what, waitUntil);
  const eventName = waitUntil === 'domcontentloaded' ? 'DOMContentLoaded' : 'load';
  /** The navigation of ours that the page left behind's committed over, once one was. */
  let overtaken: string | undefined;
  for (let sent = 1; ; sent++) {
    const since = watcher.step;
    const answer = await bounded(
      within(overtaken === undefined ? navigation.first() : navigation.again(overtaken), left(), what),
    );
    let loaderId: string | undefined;
    if ('startedAs' in answer) {
      const own = () => watcher.sentSince(since, answer.startedAs);
      await bounded(
        page.session.guard(
          watcher.until(
            () => own() !== undefined,
            left(),
            () => what,
          ),
          what,
        ),
      );
      loaderId = own()?.loaderId;
    } else if (answer.errorText) {
      await settleFailedNavigation(page, watcher, answer.loaderId, waitUntil, left());
      throw navigationFailed(withoutPassword(answer.url), answer.errorText);
    } else {
      loaderId = answer.loaderId;
    }
    if (loaderId === undefined || waitUntil === 'none') return loaderId;
    const ours = loaderId;
    // the page left behind had a navigation of its own under way, which committed over this one
    const isOvertaken = () => sent < MAX_NAVIGATE_SENDS && watcher.replacedBy(ours)?.stale === true;
    await bounded(
      page.session.guard(
        watcher.until(
          () => isOvertaken() || watcher.settled(ours, eventName),
          left(),
          () => what,
        ),
        what,
      ),
    );
    if (!watcher.reached(ours, eventName) && isOvertaken()) {
      overtaken = ours;
      continue;
    }
    if (watcher.contested(ours) && watcher.replacedBy(ours) === undefined) {
      // the page left behind has a navigation under way that Chrome would commit over this
      // document, after this answer: it is stopped (this document has its `load` by now; a
      // stop before that would also stop this document's own loading)
      if (waitUntil === 'load') {
        await within(page.session.send('Page.stopLoading'), Math.min(left(), STOP_LOADING_MS), what).catch(
          () => undefined,
        );
      }
      if (isOvertaken()) {
        overtaken = ours;
        continue;
      }
    }
    // a reload or history entry whose document could not be loaded is answered like any other and
    // commits Chromium's error page: its failure is said as a goto's is (an HTTP error status with a
    // body is a document, and stays a success)
    const errorPage = watcher.errorPageOf(watcher.replacedBy(ours)?.loaderId ?? ours);
    if (errorPage) throw loadFailed(what, withoutPassword(errorPage.url), errorPage.errorText);
    return ours;
  }
}

/** Chrome's error for a server that asks for HTTP authentication and got no valid credentials. */
const AUTH_FAILED = 'net::ERR_INVALID_AUTH_CREDENTIALS';

const AUTH_NEXT =
  'The server asks for HTTP authentication (401) and no valid credentials were given: put them in the URL, as http://user:password@host/path (Argus shows the password as *** in what it reports).';

/** A navigation Chrome refused or could not complete, said with what to do next. */
function navigationFailed(url: string, errorText: string): ArgusError {
  const next = errorText === AUTH_FAILED ? AUTH_NEXT : 'Check the URL and that the server is reachable.';
  return new ArgusError('navigation_failed', `Navigation to ${url} failed: ${errorText}. ${next}`, {
    details: { url, errorText },
  });
}

/**
 * A navigation (`what`: "Reload", "Going back") that landed on Chromium's error page for `url`, said
 * with what to do next. The tab is on that entry now, so a reload is what loads it once it can be.
 */
function loadFailed(what: string, url: string, errorText = 'Chrome showed its error page'): ArgusError {
  const next =
    errorText === AUTH_FAILED
      ? AUTH_NEXT
      : 'Check that the server is reachable, then run `argus reload` (or `argus goto` another URL).';
  return new ArgusError(
    'navigation_failed',
    `${what} failed: ${url} could not be loaded (${errorText}); the tab shows Chrome's error page for it. ${next}`,
    { details: { url, errorText } },
  );
}

/** How long a failed navigation waits for its error page (it commits ~200 ms after the failure). */
const ERROR_PAGE_WAIT_MS = 5_000;

/**
 * Chrome answers a failed navigation before it commits the error page that replaces the document
 * (usually in another renderer). Until then the tab is between documents: a snapshot would still
 * read the old page and Page commands such as `back` are refused. So the failure is reported once
 * the error page has reached `waitUntil` (or the load stopped without one, e.g. net::ERR_ABORTED),
 * bounded; the tab is then settled for the next command.
 */
async function settleFailedNavigation(
  page: Page,
  watcher: NavigationWatcher,
  loaderId: string | undefined,
  waitUntil: WaitUntil,
  leftMs: number,
): Promise<void> {
  if (!loaderId) return;
  const eventName = waitUntil === 'load' ? 'load' : 'DOMContentLoaded';
  const settled = () =>
    watcher.stoppedWithoutCommit ||
    (watcher.committedLoader === loaderId && (waitUntil === 'none' || watcher.reached(loaderId, eventName)));
  const what = 'The error page of a failed navigation';
  await page.session
    .guard(
      watcher.until(settled, Math.max(0, Math.min(ERROR_PAGE_WAIT_MS, leftMs)), () => what),
      what,
    )
    .catch(() => undefined); // the failure is what the caller hears; a later command waits if need be
}

/** Rejects with NavigationTimeoutError when `pending` has not settled within `timeoutMs`. */
export function within<T>(pending: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new NavigationTimeoutError(what, timeoutMs)), timeoutMs);
    pending.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * A navigation that timed out or whose caller went away is stopped, so the tab does not keep
 * loading (or hold a hanging request) behind the next command; the failure becomes a contract error.
 */
export async function stopOnFailure<T>(
  page: Page,
  pending: Promise<T>,
  timeoutMs: number,
  what: string,
  waitUntil: WaitUntil,
): Promise<T> {
  try {
    return await pending;
  } catch (error) {
    if (error instanceof NavigationTimeoutError || error instanceof CommandCancelledError) {
      // sent outside the command's scope: a cancelled command's scope refuses new calls
      // bounded: a renderer stuck in a dialog may never answer it, and the caller's --timeout-ms is up
      await within(
        outsideCommandScope(() => page.session.send('Page.stopLoading')),
        STOP_LOADING_MS,
        'Page.stopLoading',
      ).catch(() => undefined);
    }
    if (error instanceof NavigationTimeoutError) {
      throw new ArgusError(
        'navigation_timeout',
        `${what} did not reach '${waitUntil}' within ${timeoutMs} ms; the load was stopped and the tab is usable. The server may be slow: retry with a longer --timeout-ms${waitUntil === 'load' ? ' or --wait-until domcontentloaded' : ''}.`,
        { details: { timeoutMs } },
      );
    }
    throw error;
  }
}
