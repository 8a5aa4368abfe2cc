import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type Page, outsideCommandScope } from '@argus/cdp';
import { ArgusError, type CallContext } from '@argus/protocol';
import { type BrowserManager, type SessionMode, assertDisplay } from '../browser-manager.js';
import { asDaemon } from '../caller.js';
import { HANDOFF_CALLER } from '../caller-log.js';
import type { Dispatch } from '../dispatch.js';
import type { Logger } from '../logger.js';
import { type Banner, installBanner } from './banner.js';
import { type CookieJar, cookieChanges, readCookies } from './cookie-changes.js';
import { readSessionStorage, writeSessionStorage } from './session-storage.js';

/** The saved state a managed relaunch carries over (`<state dir>/states/<name>.json`, removed after). */
const HANDOFF_STATE = 'argus-handoff';
/** Each tab reopened by a relaunch gets this long to load; a slow one stays open on whatever it reached. */
const TAB_LOAD_MS = 15_000;
const MIN_TIMEOUT_MS = 10_000;
const MAX_TIMEOUT_MS = 24 * 3_600_000;

export type HandoffEnd = 'done' | 'resumed' | 'timeout' | 'tab_closed';

export interface HandoffView {
  tab: string;
  mode: SessionMode;
  reason: string;
  url: string;
  startedAt: string;
  expiresAt: string;
}

export interface HandoffChanges {
  url: string;
  title: string;
  urlChanged: boolean;
  cookiesAdded: string[];
  cookiesChanged: string[];
  cookiesRemoved: string[];
}

export interface HandoffResult extends HandoffView {
  state: HandoffEnd | 'waiting';
  changes: HandoffChanges | null;
}

interface Running {
  view: HandoffView;
  page: Page;
  banner: Banner | undefined;
  before: CookieJar;
  /** Managed: Argus made the browser headed for this handoff and makes it headless again at the end. */
  relaunched: boolean;
  timer: NodeJS.Timeout;
  ended: Promise<HandoffResult>;
  end(state: HandoffEnd): Promise<HandoffResult>;
}

export interface HandoffDeps {
  manager: BrowserManager;
  log: Logger;
  stateDir: string;
  workspace: string;
  /** The router's dispatch (state save/load run as they do for `argus restart`). */
  dispatch: () => Dispatch;
  /** Told when a hand-off has ended, however it ended (the person may have been all that kept the daemon). */
  onEnded?: () => void;
}

/** `15m`, `90s`, `1h` in ms, within 10 s..24 h. */
export function handoffTimeoutMs(value: string): number {
  const match = /^(\d+)([smh])$/.exec(value);
  const ms = match ? Number(match[1]) * { s: 1_000, m: 60_000, h: 3_600_000 }[match[2] as 's' | 'm' | 'h'] : NaN;
  if (!(ms >= MIN_TIMEOUT_MS && ms <= MAX_TIMEOUT_MS))
    throw new ArgusError('invalid_input', `--timeout ${value} is out of range: give 10s to 24h, e.g. 15m.`);
  return ms;
}

/**
 * Human handoff: one tab at a time is given to a person. Managed mode relaunches the browser
 * headed on the same tabs (cookies, local storage and tab URLs carried over by `state save|load`,
 * as `argus restart` does), extension and connect mode bring the tab to the front where it is.
 * A banner in the page shows the reason and a Done button; Done, `argus resume`, the timeout or
 * the tab closing ends it, and a managed browser goes back to headless with the new cookies.
 * When the browser is restarted under it (a crash, a disconnect) the handoff stays: the tab is
 * reopened at its last URL in the new browser and the banner installed again.
 */
export class HandoffService {
  private running: Running | undefined;
  /** Argus is relaunching the browser itself: the start hook leaves the tab to the relaunch. */
  private relaunching = false;

  constructor(private readonly deps: HandoffDeps) {
    deps.manager.onStart(async (browser) => {
      const running = this.running;
      if (!running || this.relaunching) return;
      // after the launch has finished (this hook runs inside it): reopen the tab in the new browser
      setImmediate(() => {
        this.reattach(running, browser).catch((error: unknown) =>
          deps.log.warn('handoff.reattach_failed', { message: (error as Error).message }),
        );
      });
    });
  }

  /** The running handoff, for `argus status`. */
  list(): HandoffView[] {
    return this.running ? [{ ...this.running.view }] : [];
  }

  async start(
    input: { tab?: string | undefined; reason: string; wait: boolean; timeout: string },
    ctx: CallContext,
  ): Promise<HandoffResult> {
    const timeoutMs = handoffTimeoutMs(input.timeout);
    const current = this.running;
    const { manager } = this.deps;
    if (current) {
      // one at a time: a call for its tab (or for none) joins it; one for another tab is refused,
      // never answered with the running handoff as if this tab had been handed over
      if (input.tab !== undefined && (await manager.page(input.tab)).id !== current.view.tab)
        throw new ArgusError(
          'handoff_running',
          `A handoff is already running, on tab ${manager.shortTabId(current.view.tab)} ("${current.view.reason}"), and there is one at a time. Wait for it (\`argus handoff --wait\` joins it) or end it (\`argus resume\`), then hand this tab over.`,
          { details: { tab: current.view.tab, reason: current.view.reason } },
        );
      return input.wait ? current.ended : { ...current.view, state: 'waiting', changes: null };
    }
    if (manager.mode === 'managed') this.assertManagedHandoff();
    let page = await manager.page(input.tab);
    const before = await readCookies(manager.current, page);
    const startUrl = page.url;
    let relaunched = false;
    if (manager.mode === 'managed' && manager.headless) {
      page = await this.relaunch(false, page, ctx);
      relaunched = true;
    } else {
      // the user's own tab (extension), or a browser already on screen: bring it to the front
      await page.session.send('Page.bringToFront', {}).catch(() => undefined);
      await manager.current?.activate(page.id).catch(() => undefined);
      manager.activeTab = page.id;
    }
    const startedAt = Date.now();
    let finish!: (result: HandoffResult) => void;
    const running: Running = {
      view: {
        tab: page.id,
        mode: manager.mode,
        reason: input.reason,
        url: startUrl,
        startedAt: new Date(startedAt).toISOString(),
        expiresAt: new Date(startedAt + timeoutMs).toISOString(),
      },
      page,
      banner: undefined,
      before,
      relaunched,
      timer: setTimeout(() => void running.end('timeout'), timeoutMs),
      ended: new Promise<HandoffResult>((resolve) => (finish = resolve)),
      end: (state) => {
        // the first end wins; later ones (a Done after resume) get the same answer
        running.end = () => running.ended;
        // the daemon's own work, whatever ends it (a timer made in the start call, a later resume):
        // never bound by a command's deadline or cancelled with its request, never run as a client
        void outsideCommandScope(() => asDaemon(() => this.finish(running, state, ctx)))
          .then(finish, (error: unknown) => {
            this.deps.log.error('handoff.end_failed', { message: (error as Error).message });
            finish({ ...running.view, state, changes: null });
          })
          .finally(() => {
            if (this.running === running) this.running = undefined;
            this.deps.onEnded?.();
          });
        return running.ended;
      },
    };
    running.timer.unref();
    this.running = running;
    try {
      await this.show(running, page);
    } catch (error) {
      clearTimeout(running.timer);
      this.running = undefined;
      if (relaunched) await this.relaunch(true, page, ctx).catch(() => undefined);
      throw manager.translate(error, page);
    }
    this.deps.log.info('handoff.started', { tab: page.id, mode: manager.mode, relaunched });
    return input.wait ? running.ended : { ...running.view, state: 'waiting', changes: null };
  }

  /** `argus resume`: ends the running handoff as Done would. */
  resume(): Promise<HandoffResult> {
    const running = this.running;
    if (!running)
      throw new ArgusError(
        'no_handoff',
        'No handoff is running: `argus handoff --reason "…"` starts one; `argus status` lists them.',
      );
    return running.end('resumed');
  }

  /** Daemon stop: the handoff ends without a relaunch (the browser is closing anyway). */
  close(): void {
    const running = this.running;
    if (!running) return;
    clearTimeout(running.timer);
    running.relaunched = false;
    this.running = undefined;
  }

  /** Sessions and shared tokens have tabs of their own in the managed browser, which a relaunch would close. */
  private assertManagedHandoff(): void {
    const { manager } = this.deps;
    const others = manager.current?.attachedPages().some((page) => manager.clients.owner(page.id)) ?? false;
    if (others)
      throw new ArgusError(
        'unsupported',
        'A handoff relaunches the managed browser headed, which would close the tabs of named sessions and shared tokens open in it now. Close them first (`argus sessions`, `argus session close NAME`), or hand off in extension mode.',
      );
    if (manager.headless) {
      try {
        assertDisplay(false);
      } catch {
        throw new ArgusError(
          'no_display',
          'A handoff shows the browser to a person, and this session has no display to show a headed browser on (no DISPLAY or WAYLAND_DISPLAY). Use your own Chrome instead: install the Argus extension, `argus connect --extension`, then `argus handoff` brings your tab to the front with the banner (docs/EXTENSION.md). Or run Argus where a display is (set DISPLAY, or `xvfb-run -a` with a VNC viewer on it).',
        );
      }
    }
  }

  /** Banner on `page`, and the tab's closing ends the handoff (not a browser going away: that is a restart). */
  private async show(running: Running, page: Page): Promise<void> {
    const browser = this.deps.manager.current;
    running.page = page;
    running.view.tab = page.id;
    running.banner = await installBanner(page, running.view.reason, () => void running.end('done'));
    const off = browser?.onPage((event, removed) => {
      if (event !== 'removed' || removed !== running.page) return;
      off?.();
      if (this.running === running && !this.relaunching && !browser.closed && this.deps.manager.current === browser)
        void running.end('tab_closed');
    });
  }

  /** A new browser under a running handoff: the tab at its last URL, the banner again. */
  private async reattach(running: Running, browser: Browser): Promise<void> {
    if (this.running !== running || this.relaunching) return;
    const url = running.page.url;
    const { manager } = this.deps;
    let page = browser.attachedPages().find((candidate) => !candidate.closed && candidate.url === url);
    if (!page) {
      page = await manager.page();
      if (/^(https?|file):/.test(url)) await page.navigate(url, { timeoutMs: TAB_LOAD_MS }).catch(() => undefined);
    }
    manager.activeTab = page.id;
    await this.show(running, page);
    this.deps.log.info('handoff.reattached', { tab: page.id });
  }

  private async finish(running: Running, state: HandoffEnd, ctx: CallContext): Promise<HandoffResult> {
    clearTimeout(running.timer);
    const { manager } = this.deps;
    const page = running.page;
    const url = page.url;
    const title = page.title;
    const after = page.closed ? running.before : await readCookies(manager.current, page).catch(() => running.before);
    await running.banner?.remove().catch(() => undefined);
    if (running.relaunched) await this.relaunch(true, page, ctx);
    const result: HandoffResult = {
      ...running.view,
      tab: running.relaunched ? (manager.activeTab ?? running.view.tab) : running.view.tab,
      state,
      changes: {
        url,
        title,
        urlChanged: url !== running.view.url,
        ...(page.closed && !running.relaunched
          ? { cookiesAdded: [], cookiesChanged: [], cookiesRemoved: [] }
          : cookieChanges(running.before, after)),
      },
    };
    this.deps.log.info('handoff.ended', { state, tab: result.tab });
    return result;
  }

  /**
   * Closes the managed browser and launches it again (headed or headless) with the same cookies,
   * local storage and tabs, through `state save|load`, and the handed-off tab's sessionStorage;
   * returns the tab showing `from`'s URL.
   */
  private async relaunch(headless: boolean, from: Page, ctx: CallContext): Promise<Page> {
    const url = from.url;
    const { manager } = this.deps;
    const dispatch = this.deps.dispatch();
    // the daemon's own work, as `argus restart` does it: not bound by the caller's scopes or leases
    const internal: CallContext = { scopes: ['admin'], client: HANDOFF_CALLER, cwd: ctx.cwd ?? this.deps.workspace };
    this.relaunching = true;
    try {
      const carried = manager.running ? await dispatch('state.save', { name: HANDOFF_STATE }, internal) : undefined;
      const session = await readSessionStorage(from);
      // the same temporary profile goes to the relaunched browser: IndexedDB, caches and service
      // workers stay on disk; state save|load brings the session cookies and tabs
      await manager.detach({ keepProfile: true });
      manager.headlessOverride = headless ? undefined : false;
      const browser = await manager.ensure();
      const blank = browser.attachedPages().filter((page) => page.url === 'about:blank');
      if (carried) {
        const loaded = (await dispatch(
          'state.load',
          { name: HANDOFF_STATE, restoreTabs: true, timeoutMs: TAB_LOAD_MS },
          internal,
        )) as { tabsOpened: string[]; warnings: string[] };
        if (loaded.warnings.length) this.deps.log.warn('handoff.state_warnings', { warnings: loaded.warnings });
        if (loaded.tabsOpened.length) for (const page of blank) await browser.closePage(page.id).catch(() => undefined);
      }
      let page = browser.attachedPages().find((candidate) => !candidate.closed && candidate.url === url);
      if (!page) {
        page = await manager.page();
        if (/^(https?|file):/.test(url)) await page.navigate(url, { timeoutMs: TAB_LOAD_MS });
      }
      if (session && !(await writeSessionStorage(page, session)))
        this.deps.log.warn('handoff.session_storage_not_restored', { entries: session.items.length });
      else if (session)
        // the page loaded before its entries were there: loaded again, its scripts read them at load
        // (a page showing "Signed in as ?" until the agent reloads it)
        await page
          .reload(TAB_LOAD_MS)
          .catch((error: unknown) =>
            this.deps.log.warn('handoff.session_storage_reload_failed', { message: (error as Error).message }),
          );
      manager.activeTab = page.id;
      return page;
    } finally {
      this.relaunching = false;
      rmSync(join(this.deps.stateDir, 'states', `${HANDOFF_STATE}.json`), { force: true });
    }
  }
}
