import { ArgusError } from '@argus/protocol';
import { CommandCancelledError, outsideCommandScope } from './command-scope.js';
import { NavigationTimeoutError } from './event-waiters.js';
import { NavigationWatcher, type OpenedTab } from './navigation.js';
import type { DialogReport } from './capture.js';
import type { Page } from './page.js';
import { withoutPassword } from './url-display.js';

export type WaitUntil = 'load' | 'domcontentloaded' | 'none';

export interface NavigationResult {
  url: string;
  title: string;
  status: number | null;
}

export interface ActionEffects {
  navigated: boolean;
  url: string;
  /** Dialogs no earlier reply reported: opened during the action or since the previous reply. */
  dialogs: DialogReport[];
  consoleErrors: string[];
  /** Tabs the action opened (a `target=_blank` link, `window.open`). */
  openedTabs: OpenedTab[];
  /** A download the action started (the tab did not navigate). */
  download: { url: string; filename: string } | null;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** How long a navigation answered with content that did not commit waits for its download's announcement. */
const DOWNLOAD_ANNOUNCE_MS = 2_000;
/**
 * How many times a navigation is sent when a navigation the page left behind had under way commits
 * over it (NavigationWatcher.replacedBy): the page the caller asked for is loaded again, twice at
 * most, within the same deadline.
 */
const MAX_NAVIGATE_SENDS = 3;
/** Page.stopLoading after a timeout is answered by the browser process at once, or not at all. */
const STOP_LOADING_MS = 2_000;

/**
 * How a navigation ends. `readTitle: false` leaves reading the new document's title to the caller
 * (the result carries the last known one), which then reads it alongside its own first look at the
 * document (the daemon's challenge check): one renderer round trip after the load instead of two.
 */
export interface NavigationOptions {
  waitUntil?: WaitUntil;
  timeoutMs?: number;
  readTitle?: boolean;
}

/** The new document's title, unless the caller reads it itself (NavigationOptions.readTitle). */
const titleOf = (page: Page, read: boolean | undefined): Promise<string> =>
  read === false ? Promise.resolve(page.title) : page.readTitle();

/**
 * Navigates the main frame. The timeout covers everything, `Page.navigate` included (it waits for
 * the server's response headers): on timeout or when the caller goes away the load is stopped
 * (`Page.stopLoading`), so the tab is usable for the next command.
 */
export async function navigatePage(
  page: Page,
  url: string,
  options: NavigationOptions = {},
): Promise<NavigationResult> {
  page.assertOpen();
  const waitUntil = options.waitUntil ?? 'load';
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const started = performance.now();
  const shown = withoutPassword(url);
  const what = `Navigation to ${shown}`;
  await stopScriptIfStuck(page);
  const watcher = new NavigationWatcher(page.session, () => page.mainFrameId);
  const left = () => Math.max(0, timeoutMs - (performance.now() - started));
  try {
    for (let sent = 1; ; sent++) {
      const result = await stopOnFailure(
        page,
        within(page.session.send('Page.navigate', { url, frameId: page.mainFrameId }), left(), what),
        timeoutMs,
        what,
        waitUntil,
      );
      if (result.errorText) {
        await settleFailedNavigation(page, watcher, result.loaderId, waitUntil, left());
        throw navigationFailed(shown, result.errorText);
      }
      if (!result.loaderId) {
        // same-document navigation (e.g. only the hash changed)
        return {
          url: withoutPassword(watcher.sameDocumentUrl ?? url),
          title: await titleOf(page, options.readTitle),
          status: null,
        };
      }
      const loaderId = result.loaderId;
      if (waitUntil !== 'none') {
        const eventName = waitUntil === 'load' ? 'load' : 'DOMContentLoaded';
        // the page left behind had a navigation of its own under way, which committed over this one
        const overtaken = () => sent < MAX_NAVIGATE_SENDS && watcher.replacedBy(loaderId)?.stale === true;
        await stopOnFailure(
          page,
          page.session.guard(
            watcher.until(
              () => overtaken() || watcher.settled(loaderId, eventName),
              left(),
              () => what,
            ),
            what,
          ),
          timeoutMs,
          what,
          waitUntil,
        );
        if (!watcher.reached(loaderId, eventName) && overtaken()) continue;
        if (watcher.contested(loaderId) && watcher.replacedBy(loaderId) === undefined) {
          // the page left behind has a navigation under way that Chrome would commit over this
          // document, after this answer: it is stopped (this document has its `load` by now; a
          // stop before that would also stop this document's own loading)
          if (waitUntil === 'load') {
            await within(page.session.send('Page.stopLoading'), Math.min(left(), STOP_LOADING_MS), what).catch(
              () => undefined,
            );
          }
          if (overtaken()) continue;
        }
      }
      return {
        url: page.url,
        title: await titleOf(page, options.readTitle),
        status: page.documentStatus.get(loaderId) ?? null,
      };
    }
  } finally {
    watcher.dispose();
  }
}

/** Chrome's error for a server that asks for HTTP authentication and got no valid credentials. */
const AUTH_FAILED = 'net::ERR_INVALID_AUTH_CREDENTIALS';

/** A navigation Chrome refused or could not complete, said with what to do next. */
function navigationFailed(url: string, errorText: string): ArgusError {
  const next =
    errorText === AUTH_FAILED
      ? 'The server asks for HTTP authentication (401) and no valid credentials were given: put them in the URL, as http://user:password@host/path (Argus shows the password as *** in what it reports).'
      : 'Check the URL and that the server is reachable.';
  return new ArgusError('navigation_failed', `Navigation to ${url} failed: ${errorText}. ${next}`, {
    details: { url, errorText },
  });
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

/** Runs something known to navigate (history, reload) and waits for the new document's load event. */
export async function navigateBy(
  page: Page,
  run: () => Promise<unknown>,
  timeoutMs: number,
  what: string,
  readTitle?: boolean,
): Promise<NavigationResult> {
  page.assertOpen();
  await stopScriptIfStuck(page);
  const started = performance.now();
  const watcher = new NavigationWatcher(page.session, () => page.mainFrameId);
  try {
    await within(run(), timeoutMs, what);
    const startedNav = () => watcher.committedLoader !== undefined || watcher.sameDocumentUrl !== undefined;
    await stopOnFailure(
      page,
      page.session.guard(
        watcher.until(startedNav, Math.max(0, timeoutMs - (performance.now() - started)), () => what),
        what,
      ),
      timeoutMs,
      what,
      'load',
    );
    const loaderId = watcher.committedLoader;
    if (loaderId) {
      await waitForLoad(page, watcher, loaderId, started, timeoutMs, what);
    }
    return {
      url: page.url,
      title: await titleOf(page, readTitle),
      status: loaderId ? (page.documentStatus.get(loaderId) ?? null) : null,
    };
  } finally {
    watcher.dispose();
  }
}

/** How an action is run: its navigation bound, and what to read in the round trip after its input. */
export interface ActOptions {
  timeoutMs?: number;
  /**
   * An expression for the round trip after the input, evaluated in Argus's isolated world of the
   * top document when it has one: what it returns (JSON) comes back as `probed`, at no extra cost.
   */
  probe?: string;
}

/**
 * Runs an input action and reports what it caused. It returns right after the input and one
 * renderer round trip, unless the input started a cross-document navigation of this tab, which it
 * then waits for. Same-document navigations (fragment links, pushState routers, forms whose submit
 * handler calls preventDefault) never commit a new document, so they end the action at once; a
 * link that opens a tab or starts a download is reported, not waited for.
 */
export async function actOn<T>(
  page: Page,
  run: () => Promise<T>,
  options: ActOptions = {},
): Promise<{ value: T; effects: ActionEffects; probed?: unknown }> {
  page.assertOpen();
  const watcher = new NavigationWatcher(page.session, () => page.mainFrameId, {
    root: page.rootSession,
    targetId: page.targetId,
  });
  const consoleBefore = page.capture.console.seq;
  try {
    const value = await run();
    // One round trip through the renderer: navigations begun by the input have been announced by now.
    // The caller's probe rides on it (in a document being replaced its world is gone: no answer).
    const world = options.probe === undefined ? undefined : page.frames.knownIsolatedWorld(page.mainFrameId);
    const probe = world === undefined ? undefined : { expression: options.probe, contextId: world };
    const roundTrip = await page.session
      .send('Runtime.evaluate', { expression: '0', ...probe, returnByValue: true })
      .catch((error: unknown) => {
        if (error instanceof CommandCancelledError) throw error;
        return undefined;
      });
    const probed = probe === undefined || roundTrip?.exceptionDetails ? undefined : roundTrip?.result.value;
    let navigated = false;
    if (watcher.requested) {
      const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      const started = performance.now();
      const what = 'The navigation started by the action';
      const settled = () =>
        watcher.committedLoader !== undefined || watcher.download !== undefined || watcher.stoppedWithoutCommit;
      await stopOnFailure(
        page,
        page.session.guard(
          watcher.until(settled, timeoutMs, () => what),
          what,
        ),
        timeoutMs,
        what,
        'load',
      );
      const loaderId = watcher.committedLoader;
      if (loaderId) {
        navigated = true;
        await waitForLoad(page, watcher, loaderId, started, timeoutMs, what);
      } else if (watcher.becomingDownload()) {
        // the browser announces the download after the stop, sometimes well after it on a busy machine
        await watcher
          .until(
            () => watcher.download !== undefined,
            DOWNLOAD_ANNOUNCE_MS,
            () => 'The download',
          )
          .catch(() => undefined);
      } else if (!watcher.download) {
        // a browser-side round trip: a download announced together with the stop arrives before its answer
        await page.session.send('Page.getNavigationHistory').catch(() => undefined);
      }
    } else if (watcher.sameDocumentUrl) {
      navigated = true;
    }
    return {
      value,
      effects: {
        ...page.effectsSince(consoleBefore, navigated),
        openedTabs: watcher.tabsOpened(),
        download: watcher.download ?? null,
      },
      ...(probed === undefined ? {} : { probed }),
    };
  } finally {
    watcher.dispose();
  }
}

/** How long a navigation waits for Runtime.terminateExecution's answer before going on without it. */
const TERMINATE_WAIT_MS = 1_000;

/**
 * A page whose script never yields cannot unload: stop the script first (it runs off the main
 * thread). Its answer is waited for briefly: a renderer caught in a dialog loop may answer only
 * after the caller's --timeout-ms (it took ~50 s), and the termination works without it.
 */
async function stopScriptIfStuck(page: Page): Promise<void> {
  if (!page.session.unresponsive) return;
  await within(
    outsideCommandScope(() => page.session.send('Runtime.terminateExecution')),
    TERMINATE_WAIT_MS,
    'Runtime.terminateExecution',
  ).catch(() => undefined);
}

/** Rejects with NavigationTimeoutError when `pending` has not settled within `timeoutMs`. */
function within<T>(pending: Promise<T>, timeoutMs: number, what: string): Promise<T> {
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
async function stopOnFailure<T>(
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

/** Waits, within what is left of `timeoutMs` since `started`, for the committed document's `load`. */
async function waitForLoad(
  page: Page,
  watcher: NavigationWatcher,
  loaderId: string,
  started: number,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const left = Math.max(0, timeoutMs - (performance.now() - started));
  await stopOnFailure(
    page,
    page.session.guard(
      watcher.until(
        () => watcher.settled(loaderId, 'load'),
        left,
        () => what,
      ),
      what,
    ),
    timeoutMs,
    what,
    'load',
  );
}
