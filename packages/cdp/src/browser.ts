import type { Protocol } from 'devtools-protocol';
import { ArgusError } from '@argus/protocol';
import type { CaptureOptions } from './capture.js';
import { Page } from './page.js';
import { RouteSet } from './routes.js';
import type { NavigationGuard } from './navigation-guard.js';
import { type Session, SessionRouter } from './session.js';
import type { Transport } from './transport.js';
import { withoutPassword } from './url-display.js';

/** How long `close()` waits for Chrome to acknowledge Browser.close. */
const CLOSE_ANSWER_MS = 5_000;

export interface BrowserOptions {
  /**
   * Attach to every page automatically (managed/connect modes). The extension relay attaches only
   * to tabs the agent opens and to tabs picked explicitly.
   */
  autoAttach?: boolean;
  capture?: CaptureOptions;
  /** Asked before every document request of every tab (domain policy, approvals of form submits). */
  guard?: NavigationGuard;
  /**
   * Open each new page in a window of its own (a headless browser: nobody sees windows). Tabs of one
   * window are background tabs but one, and with several of them capturing at once
   * `Page.captureScreenshot` on a background tab sometimes never answers (4 tabs of one headless
   * window, 1,442 captures: 3 hung; 4 windows, 1,600 captures: none).
   */
  newWindows?: boolean;
  /**
   * Drive only tabs in browser contexts this connection created (pool mode: a remote browser of a
   * grid). Its other tabs (its own first tab, another daemon's sessions) are neither listed nor kept
   * attached, and a new tab without a context goes into one context of this connection's own
   * (`defaultContext`), created with disposeOnDetach so it ends with the connection.
   */
  ownContextsOnly?: boolean;
}

export interface TabInfo {
  id: string;
  url: string;
  title: string;
  attached: boolean;
  /** Through the extension relay only: the tab shown in its window (the person's active tab). */
  shown?: boolean;
}

/**
 * A browser reached through a Transport: discovers page targets, attaches flat sessions to them
 * and hands out Page objects.
 */
export class Browser {
  readonly router: SessionRouter;
  private readonly targets = new Map<string, Protocol.Target.TargetInfo>();
  private readonly pages = new Map<string, Page>();
  private readonly pending = new Map<string, Promise<Page>>();
  /** Tabs whose Page is being initialised (guards against a second session to the same tab). */
  private readonly settingUp = new Set<string>();
  /**
   * Tabs closed here whose Target.targetDestroyed has not come yet: Chromium may still report them
   * (Target.targetInfoChanged while the tab unloads), which must not list a closed tab again.
   */
  private readonly closing = new Set<string>();
  private readonly attachWaiters = new Map<string, Array<(page: Page | Error) => void>>();
  private readonly closeListeners = new Set<(reason: string) => void>();
  private readonly pageListeners = new Set<(event: 'added' | 'removed', page: Page) => void>();
  /** Request interception rules for every tab (`argus route --all-tabs`); each tab's own rules come first. */
  readonly routes = new RouteSet();
  /** ownContextsOnly: the browser contexts this connection created (the only ones it drives). */
  private readonly ownContexts = new Set<string>();
  /** ownContextsOnly: the context of tabs opened without one (created on first use). */
  private homeContext: Promise<string> | undefined;

  private constructor(
    readonly transport: Transport,
    private readonly options: BrowserOptions,
  ) {
    this.router = new SessionRouter(transport);
    const root = this.router.root;
    root.on('Target.targetCreated', ({ targetInfo }) => this.noteTarget(targetInfo));
    root.on('Target.targetInfoChanged', ({ targetInfo }) => this.noteTarget(targetInfo));
    root.on('Target.targetDestroyed', ({ targetId }) => {
      this.closing.delete(targetId);
      this.dropTarget(targetId, 'the tab was closed');
    });
    root.on('Target.attachedToTarget', (event) => {
      if (event.targetInfo.type === 'page' && !this.owns(event.targetInfo)) {
        // another context's tab (ownContextsOnly): let it run and let go of it
        void transport.send('Runtime.runIfWaitingForDebugger', undefined, event.sessionId).catch(() => undefined);
        void transport
          .send('Target.detachFromTarget', { sessionId: event.sessionId }, undefined)
          .catch(() => undefined);
        return;
      }
      if (event.targetInfo.type !== 'page') {
        // not ours to drive (e.g. a service worker): let it run
        void root.send('Runtime.runIfWaitingForDebugger').catch(() => undefined);
        return;
      }
      this.noteTarget(event.targetInfo);
      void this.setUpPage(event);
    });
    root.on('Target.detachedFromTarget', (event) => {
      for (const [id, page] of this.pages)
        if (page.session.id === event.sessionId) this.dropPage(id, 'the debugger detached');
    });
    transport.onClose((reason) => {
      for (const id of [...this.pages.keys()]) this.dropPage(id, reason);
      for (const listener of this.closeListeners) listener(reason);
    });
  }

  /**
   * Connects to a browser and attaches to its pages. `alongside` (browser-wide set-up that needs no
   * page: interception on the browser session, download behaviour, the version) runs with the
   * attach, not after it: the first page's set-up waits for its renderer, and a round trip queued
   * behind that wait was one more on every cold start's way to its first navigation.
   */
  static async connect(
    transport: Transport,
    options: BrowserOptions = {},
    alongside?: (browser: Browser) => Promise<unknown>,
  ): Promise<Browser> {
    const browser = new Browser(transport, options);
    await Promise.all([browser.attachExisting(), alongside?.(browser)]);
    return browser;
  }

  private async attachExisting(): Promise<void> {
    const transport = this.transport;
    await transport.send('Target.setDiscoverTargets', { discover: true }, undefined);
    if (this.options.autoAttach === false) return;
    await transport.send(
      'Target.setAutoAttach',
      { autoAttach: true, waitForDebuggerOnStart: true, flatten: true },
      undefined,
    );
    // auto-attach covers targets created from now on (Chromium attaches the existing ones too, but
    // not every CDP endpoint does): attach to the pages that exist and are not being set up already
    const { targetInfos } = (await transport.send('Target.getTargets', undefined, undefined)) as {
      targetInfos: Protocol.Target.TargetInfo[];
    };
    await Promise.all(
      targetInfos
        .filter((info) => info.type === 'page' && this.owns(info))
        .map((info) => {
          this.noteTarget(info);
          return this.attach(info.targetId).catch(() => undefined);
        }),
    );
  }

  /**
   * Reads every target's info again (one Target.getTargets): for what only the endpoint knows now,
   * such as which tab the person has in front through the extension relay (`TabInfo.shown`).
   */
  async refreshTargets(): Promise<void> {
    const { targetInfos } = (await this.transport.send('Target.getTargets', undefined, undefined)) as {
      targetInfos: Protocol.Target.TargetInfo[];
    };
    for (const info of targetInfos) if (this.targets.has(info.targetId)) this.noteTarget(info);
  }

  /** Whether a target is one this connection drives (always, unless ownContextsOnly). */
  private owns(info: Protocol.Target.TargetInfo): boolean {
    if (!this.options.ownContextsOnly) return true;
    return info.browserContextId !== undefined && this.ownContexts.has(info.browserContextId);
  }

  private noteTarget(info: Protocol.Target.TargetInfo): void {
    if (info.type !== 'page' || this.closing.has(info.targetId) || !this.owns(info)) return;
    this.targets.set(info.targetId, info);
    const page = this.pages.get(info.targetId);
    if (page) {
      page.url = info.url;
      // headless targets carry the URL as title forever; the page reads its own document.title on
      // load, so only a real title (a headed browser's) replaces it
      if (info.title && info.title !== info.url) page.title = info.title;
    }
  }

  private dropTarget(targetId: string, reason: string): void {
    this.targets.delete(targetId);
    this.dropPage(targetId, reason);
  }

  private dropPage(targetId: string, reason: string): void {
    const page = this.pages.get(targetId);
    if (!page) return;
    this.pages.delete(targetId);
    page.markClosed(reason);
    for (const listener of this.pageListeners) listener('removed', page);
  }

  private async setUpPage(event: Protocol.Target.AttachedToTargetEvent): Promise<void> {
    const targetId = event.targetInfo.targetId;
    const session = this.router.get(event.sessionId);
    if (!session) return;
    if (this.pages.has(targetId) || this.settingUp.has(targetId)) {
      // A second session to a tab we already drive (browser auto-attach raced an explicit attach):
      // drop it, or two Pages would both capture its events and both answer its dialogs.
      void this.transport
        .send('Target.detachFromTarget', { sessionId: event.sessionId }, undefined)
        .catch(() => undefined);
      return;
    }
    this.settingUp.add(targetId);
    try {
      await this.initPage(event, session);
    } finally {
      this.settingUp.delete(targetId);
    }
  }

  private async initPage(event: Protocol.Target.AttachedToTargetEvent, session: Session): Promise<void> {
    const targetId = event.targetInfo.targetId;
    const page = new Page(
      session,
      targetId,
      this.router,
      { url: event.targetInfo.url, title: event.targetInfo.title },
      this.options.capture,
      this.options.guard,
      this.routes,
    );
    try {
      await page.init();
    } catch (error) {
      this.resolveAttach(targetId, error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (session.isDetached) {
      this.resolveAttach(targetId, new ArgusError('target_closed', `Tab ${targetId} closed while it was being set up`));
      return;
    }
    this.pages.set(targetId, page);
    for (const listener of this.pageListeners) listener('added', page);
    this.resolveAttach(targetId, page);
  }

  private resolveAttach(targetId: string, result: Page | Error): void {
    const waiters = this.attachWaiters.get(targetId);
    this.attachWaiters.delete(targetId);
    for (const waiter of waiters ?? []) waiter(result);
  }

  private waitForPage(targetId: string, timeoutMs: number): Promise<Page> {
    const ready = this.pages.get(targetId);
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new ArgusError('timeout', `Tab ${targetId} did not become ready within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const list = this.attachWaiters.get(targetId) ?? [];
      list.push((result) => {
        clearTimeout(timer);
        if (result instanceof Error) reject(result);
        else resolve(result);
      });
      this.attachWaiters.set(targetId, list);
    });
  }

  onClose(listener: (reason: string) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  onPage(listener: (event: 'added' | 'removed', page: Page) => void): () => void {
    this.pageListeners.add(listener);
    return () => this.pageListeners.delete(listener);
  }

  /** Every page target the browser has, attached or not. */
  tabs(): TabInfo[] {
    return [...this.targets.values()].map((info) => {
      const page = this.pages.get(info.targetId);
      const { shown } = info as { shown?: unknown };
      return {
        id: info.targetId,
        url: withoutPassword(info.url),
        title: page ? page.title : info.title,
        attached: page !== undefined,
        ...(typeof shown === 'boolean' ? { shown } : {}),
      };
    });
  }

  page(targetId: string): Page | undefined {
    return this.pages.get(targetId);
  }

  attachedPages(): Page[] {
    return [...this.pages.values()];
  }

  /** Attaches to a tab (no-op when already attached) and returns its Page. */
  async attach(targetId: string, timeoutMs = 10_000): Promise<Page> {
    const ready = this.pages.get(targetId);
    if (ready) return ready;
    let pending = this.pending.get(targetId);
    // auto-attach already gave it a session that is being set up: a second attach would only be
    // detached again as a duplicate (two more round trips, and a session on a starting renderer)
    if (!pending && this.settingUp.has(targetId)) return this.waitForPage(targetId, timeoutMs);
    if (!pending) {
      if (!this.targets.has(targetId))
        throw new ArgusError('tab_not_found', `No tab with id ${targetId}. Run \`argus tabs\` to list tabs.`);
      const waiting = this.waitForPage(targetId, timeoutMs);
      pending = this.transport
        .send('Target.attachToTarget', { targetId, flatten: true }, undefined)
        .then(() => waiting)
        .finally(() => this.pending.delete(targetId));
      this.pending.set(targetId, pending);
    }
    return pending;
  }

  /** Opens a new tab (in `browserContextId` when given) and resolves when its session is ready. */
  async newPage(timeoutMs = 10_000, browserContextId?: string): Promise<Page> {
    browserContextId ??= await this.defaultContext();
    const params = {
      url: 'about:blank',
      ...(browserContextId ? { browserContextId } : {}),
      ...(this.options.newWindows ? { newWindow: true } : {}),
    };
    const { targetId } = (await this.transport.send('Target.createTarget', params, undefined)) as { targetId: string };
    if (this.options.autoAttach === false) return this.attach(targetId, timeoutMs);
    return this.waitForPage(targetId, timeoutMs);
  }

  /** A new isolated browser context (its own cookies, storage and cache, like a fresh incognito profile). */
  async createContext(): Promise<string> {
    const { browserContextId } = (await this.transport.send(
      'Target.createBrowserContext',
      { disposeOnDetach: true },
      undefined,
    )) as { browserContextId: string };
    this.ownContexts.add(browserContextId);
    return browserContextId;
  }

  /**
   * The context of tabs opened without one: undefined (the browser's default context), or with
   * ownContextsOnly a context of this connection's own, created on first use.
   */
  defaultContext(): Promise<string | undefined> {
    if (!this.options.ownContextsOnly) return Promise.resolve(undefined);
    this.homeContext ??= this.createContext().catch((error: unknown) => {
      this.homeContext = undefined;
      throw error;
    });
    return this.homeContext;
  }

  /** Closes a context made by `createContext` and every tab in it. */
  async disposeContext(browserContextId: string): Promise<void> {
    await this.transport.send('Target.disposeBrowserContext', { browserContextId }, undefined);
    this.ownContexts.delete(browserContextId);
    if (this.homeContext && (await this.homeContext.catch(() => undefined)) === browserContextId)
      this.homeContext = undefined;
  }

  async closePage(targetId: string): Promise<void> {
    await this.transport.send('Target.closeTarget', { targetId }, undefined);
    // bounded: a browser that never confirms a close must not grow this without end
    if (this.closing.size >= 256) this.closing.clear();
    this.closing.add(targetId);
    this.dropTarget(targetId, 'closed by Argus');
  }

  async activate(targetId: string): Promise<void> {
    await this.transport.send('Target.activateTarget', { targetId }, undefined);
  }

  async version(): Promise<{ product: string; userAgent: string }> {
    return (await this.transport.send('Browser.getVersion', undefined, undefined)) as {
      product: string;
      userAgent: string;
    };
  }

  get closed(): boolean {
    return this.transport.closed;
  }

  /** Asks the browser to close (managed mode) and drops the connection. */
  async close(): Promise<void> {
    if (!this.transport.closed) {
      // held requests are answered before the browser goes: nothing is left paused, even briefly
      await Promise.all([...this.pages.values()].map((page) => page.interception.release()));
      // a wedged browser may never answer: the caller's kill of the process group is the fallback
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_ANSWER_MS)));
      await Promise.race([this.transport.send('Browser.close', undefined, undefined).catch(() => undefined), gaveUp]);
      clearTimeout(timer);
    }
    await this.transport.close();
    this.router.dispose();
  }

  /**
   * Drops the connection but leaves the browser running (connect/extension modes). Requests our
   * routes hold are let go first, and interception is turned off, so the user's tabs never hang.
   */
  async disconnect(): Promise<void> {
    if (!this.transport.closed) await Promise.all([...this.pages.values()].map((page) => page.interception.release()));
    await this.transport.close();
    this.router.dispose();
  }
}
