import { CommandCancelledError, outsideCommandScope } from './command-scope.js';
import { NavigationWatcher, type OpenedTab } from './navigation.js';
import {
  type HistoryEntry,
  returnToEntry,
  sendReload,
  returnToLanding,
  sendTo,
  sendToEntry,
  sendUntilLanded,
  stopOnFailure,
  within,
} from './navigation-sends.js';
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
  const what = `Navigation to ${withoutPassword(url)}`;
  await stopScriptIfStuck(page);
  const watcher = new NavigationWatcher(page.session, () => page.mainFrameId);
  try {
    const loaderId = await sendUntilLanded(
      page,
      watcher,
      {
        what,
        first: () => sendTo(page, url),
        again: (overtaken) => returnToLanding(page, watcher, url, overtaken),
      },
      options.waitUntil ?? 'load',
      options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    );
    const title = await titleOf(page, options.readTitle);
    // no loader: a same-document navigation (e.g. only the hash changed)
    if (loaderId === undefined) return { url: withoutPassword(watcher.sameDocumentUrl ?? url), title, status: null };
    return { url: page.url, title, status: statusOf(page, loaderId) };
  } finally {
    watcher.dispose();
  }
}

const statusOf = (page: Page, loaderId: string | undefined): number | null =>
  loaderId === undefined ? null : (page.documentStatus.get(loaderId) ?? null);

/**
 * Goes to a history entry (`entry`: back, forward) or loads the current one again (`reload`), and
 * waits for the new document's load. Sent again when a navigation the page left behind overtook it
 * (sendUntilLanded): to the same entry, after a reload too (returnToEntry).
 */
export async function navigateBy(
  page: Page,
  how: 'entry' | 'reload',
  entry: HistoryEntry | Promise<HistoryEntry>,
  timeoutMs: number,
  what: string,
  readTitle?: boolean,
): Promise<NavigationResult> {
  page.assertOpen();
  await stopScriptIfStuck(page);
  const watcher = new NavigationWatcher(page.session, () => page.mainFrameId);
  try {
    const loaderId = await sendUntilLanded(
      page,
      watcher,
      {
        what,
        first: async () => (how === 'reload' ? sendReload(page) : sendToEntry(page, await entry)),
        again: async () => returnToEntry(page, await entry),
      },
      'load',
      timeoutMs,
    );
    return { url: page.url, title: await titleOf(page, readTitle), status: statusOf(page, loaderId) };
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
