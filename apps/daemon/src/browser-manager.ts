import { ArgusError } from '@argus/protocol';
import {
  Browser,
  type BrowserOptions,
  CdpTimeoutError,
  type AnyChromeProcess,
  CommandCancelledError,
  currentCommandScope,
  type NavigationGuard,
  type Page,
  PageUnresponsiveError,
  BetweenDocumentsError,
  NAVIGATED_AWAY,
  ProtocolError,
  type Transport,
  TargetGoneError,
  TransportClosedError,
  connectChrome,
  connectCri,
  describeExit,
  startFailure,
  discardEarlyLaunch,
  launchChrome,
  outsideCommandScope,
  runInCommandScope,
  removeProfile,
  resolveBrowserEndpoint,
} from '@argus/cdp';
import { type SnapshotEngine } from '@argus/snapshot';
import type { Logger } from './logger.js';
import { asDaemon, currentClient } from './caller.js';
import { ClientTabs } from './client-tabs.js';
import { type QueueStats, TabQueues } from './tab-queue.js';
import { TabPauses } from './tab-pauses.js';
import { TabLeases } from './tab-leases.js';
import { currentLeaseClaim } from './lease-claims.js';
import { FrameChoices } from './frame-choice.js';
import { FrameScopedEngine } from './frame-scope.js';
import { TabState } from './tab-state.js';
import { resolveTabRef, shortIds } from './tab-refs.js';
import { unresponsive } from './page-unresponsive.js';
import { BrowserPool, DEFAULT_OWNER, type PoolOptions } from './pool/browser-pool.js';
import { withEndpointMasked } from './pool/placement.js';

export type SessionMode = 'managed' | 'connect' | 'extension' | 'pool';

export interface BrowserManagerOptions {
  log: Logger;
  /** The daemon's log file (`<state dir>/daemon.log`): errors that say to look there name it. */
  logFile: string;
  headless: boolean;
  extraFlags: string[];
  /** connect mode: a CDP URL (http://host:port or ws://...). */
  cdpUrl?: string | undefined;
  captureCapacity: number;
  /** Chrome binary from the config (`chrome.path` / CHROME_PATH); else the usual install paths. */
  chromePath?: string | undefined;
  /** A persistent user-data dir (`--profile`), asked at each launch; absent: a fresh temporary profile. */
  userDataDir?: (() => string) | undefined;
  /** Asked before every document request of every tab: the operator's domain policy and form-submit approvals. */
  guard?: NavigationGuard | undefined;
  /** extension mode: a CDP transport over the extension relay (the daemon's RelayHost). */
  extensionTransport?: (() => Promise<Transport>) | undefined;
  /** Checked after every tab command, before its result is returned (throws to withhold it). */
  guardPage?: ((page: Page) => void) | undefined;
  /** Tab commands running at once across tabs (config maxParallelCommands; default 8). */
  maxParallel?: number | undefined;
  /** pool mode: remote CDP endpoints, one connection each, sessions placed on them (config `pool`). */
  pool?: PoolOptions | undefined;
}

function navigatedError(cause: ProtocolError, page: Page | undefined): ArgusError {
  return new ArgusError(
    'navigated',
    'The page navigated to another document while the command ran, so what it was doing in the old one is lost. Run it again on the new page (`argus url` says where the tab is now).',
    { cause, details: { method: cause.method, ...(page ? { url: page.url } : {}) } },
  );
}

/** A write that found its tab leased once it reached the front of the tab's queue: it leaves the queue and waits again. */
const LEASE_RETRY = Symbol('lease-retry');

/** How long readying a new document for its first read may take (a page that hangs: the read then does it). */
const READY_DOCUMENT_MS = 5_000;

/**
 * Owns the browser for the daemon: launches it lazily on the first page command, notices a crash,
 * reports `browser_crashed` once, then relaunches on the next command. Also owns the active tab,
 * per-tab command queues and each tab's snapshot engine.
 */
export class BrowserManager {
  mode: SessionMode;
  private browser: Browser | undefined;
  private chrome: AnyChromeProcess | undefined;
  private starting: Promise<Browser> | undefined;
  private crashed: string | undefined;
  /** A command running when the browser died already told its caller: the next command relaunches. */
  private crashReported = false;
  private stopping = false;
  /** The daemon is stopping (close): no browser is started again. */
  private shutDown = false;
  launches = 0;
  activeTabId: string | undefined;
  private readonly queues: TabQueues;
  /** Exclusive tab leases (`tab lease`): others' writes on a leased tab wait or fail with tab_leased. */
  readonly leases = new TabLeases();
  /** Tabs the person paused the agent on (extension side panel). */
  readonly pauses = new TabPauses();
  private readonly engines = new WeakMap<Page, SnapshotEngine>();
  /**
   * Element refs: the next number to hand out (one counter for all tabs), and where tabs of the
   * current browser start. Each new browser (a relaunch after a crash, a handoff, a reconnect)
   * starts its tabs above every ref the ones before handed out, so an old ref fails as stale, never
   * as unknown or as a different element.
   */
  private refHigh = 1;
  private refFloor = 1;
  private readonly tabStates = new WeakMap<Page, TabState>();
  /** Tabs of remote clients (shared tokens): who owns which, their active tab, their browser context. */
  readonly clients = new ClientTabs(() => this.mode);
  /** Frame chosen with `argus frame`, per tab; selectors, eval and text use it (absent = main frame). */
  readonly frameChoices = new FrameChoices();
  private readonly startHooks = new Set<(browser: Browser) => Promise<void>>();
  /** Start hooks that need no page (browser-wide set-up): they run alongside the attach to the first tab. */
  private readonly earlyHooks = new Set<(browser: Browser) => Promise<void>>();
  private versionCache: string | null = null;
  /** pool mode: where each session lives; the manager asks it for the caller's browser. */
  private pool: BrowserPool | undefined;
  private recreateHook: ((browser: Browser, state: string) => Promise<void>) | undefined;

  constructor(private readonly options: BrowserManagerOptions) {
    this.mode = options.cdpUrl ? 'connect' : options.pool ? 'pool' : 'managed';
    this.queues = new TabQueues(options.maxParallel);
    if (this.mode === 'pool') this.startPool();
  }

  /** The scheduler's load: tab commands running and waiting for a slot. */
  get queueStats(): QueueStats {
    return this.queues.stats();
  }

  /** Set by a handoff: the next launches are headed (false) until it is cleared (undefined: the config's choice). */
  headlessOverride: boolean | undefined;

  /** Whether the next managed launch is headless. */
  get headless(): boolean {
    return this.headlessOverride ?? this.options.headless;
  }

  get running(): boolean {
    if (this.mode === 'pool') return this.pool?.connected ?? false;
    return this.browser !== undefined && !this.browser.closed;
  }

  get pid(): number | null {
    return this.chrome && !this.chrome.hasExited ? this.chrome.pid : null;
  }

  get version(): string | null {
    if (this.mode === 'pool') return this.pool?.endpoints.find((endpoint) => endpoint.current)?.version ?? null;
    return this.running ? this.versionCache : null;
  }

  /** The CDP URL of connect mode. */
  get cdpUrl(): string | undefined {
    return this.mode === 'connect' ? this.options.cdpUrl : undefined;
  }

  get hasCrashed(): boolean {
    return this.crashed !== undefined;
  }

  /** The connected browser, launching or connecting on first use (pool mode: the caller's session's). */
  async ensure(): Promise<Browser> {
    if (this.shutDown)
      throw new ArgusError(
        'daemon_unreachable',
        'The daemon is stopping: the command was not run. Run it again; a new daemon starts with its browser.',
      );
    if (this.mode === 'pool') return this.poolBrowser();
    if (this.crashed) {
      const reason = this.crashed;
      this.crashed = undefined;
      throw new ArgusError(
        'browser_crashed',
        `The browser ${reason}. It will be relaunched on your next command; tabs and refs from before are gone.`,
      );
    }
    if (this.browser && !this.browser.closed) return this.browser;
    // shared by every command: never bound by (or cancelled with) the one that happened to start it
    this.starting ??= asDaemon(() => outsideCommandScope(() => this.start())).finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private browserOptions(): BrowserOptions {
    return {
      capture: { capacity: this.options.captureCapacity },
      ...(this.options.guard ? { guard: this.options.guard } : {}),
    };
  }

  private async start(): Promise<Browser> {
    const started = performance.now();
    this.crashReported = false;
    let browser: Browser;
    // the version and the page-less start hooks, sent while the first tab is being set up
    let version = { product: 'unknown' };
    const alongside = (connected: Browser) =>
      Promise.all([
        connected.version().then(
          (answer) => (version = answer),
          () => undefined,
        ),
        this.runHooks(this.earlyHooks, connected),
      ]);
    if (this.mode === 'extension' && this.options.extensionTransport) {
      // user tabs are attached on demand (tabs.select / a tab id); agent-opened tabs are attached on creation
      const transport = await this.options.extensionTransport();
      browser = await Browser.connect(transport, { autoAttach: false, ...this.browserOptions() }, alongside).catch(
        async (error: unknown) => {
          await transport.close().catch(() => undefined);
          throw error;
        },
      );
    } else if (this.mode === 'connect' && this.options.cdpUrl) {
      const url = this.options.cdpUrl;
      try {
        const endpoint = await resolveBrowserEndpoint(url);
        browser = await Browser.connect(await connectCri(endpoint), this.browserOptions(), alongside);
      } catch (error) {
        // the failure quotes the URL (browser_not_found: "Could not connect to ws://…?token=…"): a
        // remote browser's token must not reach the caller, as the pool's endpoints' do not
        if (error instanceof Error) error.message = withEndpointMasked(error.message, url);
        throw error;
      }
    } else {
      assertDisplay(this.headless);
      const chrome = await launchChrome({
        headless: this.headless,
        // DevTools on a pipe: no port any other local process could drive the browser through
        pipe: true,
        extraFlags: this.options.extraFlags,
        ...(this.options.userDataDir
          ? { userDataDir: this.options.userDataDir() }
          : this.keptProfile
            ? { tempProfile: this.takeKeptProfile() }
            : {}),
        ...(this.options.chromePath ? { env: { ...process.env, CHROME_PATH: this.options.chromePath } } : {}),
      });
      this.chrome = chrome;
      try {
        browser = await Browser.connect(
          await connectChrome(chrome),
          {
            ...this.browserOptions(),
            // headless: each tab its own window (never a background tab: see BrowserOptions.newWindows)
            newWindows: this.headless,
          },
          alongside,
        );
      } catch (error) {
        throw await startFailure(chrome, error);
      }
      void chrome.exited.then(({ code, signal }) => {
        if (this.stopping || this.chrome !== chrome) return;
        if (!this.crashReported) this.crashed = `exited unexpectedly (${describeExit({ code, signal })})`;
        this.options.log.error('browser.crashed', { pid: chrome.pid, code, signal });
        this.browser = undefined;
        this.activeTabId = undefined;
        this.clients.reset();
        this.leases.clear();
        void chrome.kill(0);
      });
    }
    this.launches++;
    this.browser = browser;
    await this.adopt(browser, { early: false });
    this.versionCache = version.product;
    this.clients.reset();
    this.activeTabId = browser.attachedPages()[0]?.id;
    this.options.log.info('browser.started', {
      mode: this.mode,
      pid: this.pid,
      ms: Math.round(performance.now() - started),
      version: this.versionCache,
    });
    return browser;
  }

  /** Runs start hooks on `browser`, all at once; a failing hook is logged, never fatal. */
  private async runHooks(hooks: Iterable<(browser: Browser) => Promise<void>>, browser: Browser): Promise<void> {
    await Promise.all(
      [...hooks].map((hook) =>
        hook(browser).catch((error: unknown) =>
          this.options.log.warn('browser.start_hook_failed', { message: (error as Error).message }),
        ),
      ),
    );
  }

  /**
   * What every browser the manager starts or connects to gets: the start hooks, and tab bookkeeping.
   * `early: false`: the early hooks already ran alongside the connect.
   */
  private async adopt(browser: Browser, { early = true } = {}): Promise<void> {
    this.refFloor = this.refHigh;
    await this.runHooks(early ? [...this.earlyHooks, ...this.startHooks] : this.startHooks, browser);
    // each new top document of a tab is readied for its first read (readyDocument) once the tab's
    // commands have run: not while a navigation is still answering (measured: a cold start's first
    // goto took longer when its renderer installed the walker before the load), but while the caller
    // reads the answer and decides (an agent's next call comes seconds later)
    const readyDocuments = (page: Page) =>
      page.session.on('Page.domContentEventFired', () => {
        const epoch = page.epoch;
        const readied = this.queues.idle(page.id).then(() => {
          if (page.epoch === epoch && !page.closed)
            // bounded as a command is: a read waiting for this waits no longer than that
            return asDaemon(() =>
              runInCommandScope({ timeoutMs: READY_DOCUMENT_MS }, () => this.engine(page).readyDocument()),
            );
        });
        this.readying.set(page, readied);
      });
    for (const page of browser.attachedPages()) readyDocuments(page);
    browser.onPage((event, page) => {
      if (event === 'added') {
        readyDocuments(page);
        return;
      }
      this.clients.forget(page.id);
      this.leases.forget(page.id);
      if (this.activeTabId === page.id) this.activeTabId = this.operatorPages(browser).at(-1)?.id;
    });
  }

  private startPool(): void {
    const options = this.options.pool;
    if (!options) throw new ArgusError('invalid_input', 'Pool mode needs endpoints: `argus connect --pool URL,...`.');
    this.pool = new BrowserPool(options, {
      log: this.options.log,
      open: (url) => this.openEndpoint(url),
      onSessionLost: (owner, browser) => this.forgetSession(owner, browser),
    });
    this.pool.start();
  }

  /** One connection to a pool endpoint: connect mode's CDP connect, outside any client or command. */
  private openEndpoint(url: string): Promise<Browser> {
    return asDaemon(() =>
      outsideCommandScope(async () => {
        const endpoint = await resolveBrowserEndpoint(url);
        // a grid browser is shared: only the contexts this daemon creates are its sessions' (the
        // default session's too), never the browser's own tabs or another daemon's
        const browser = await Browser.connect(await connectCri(endpoint, { attempts: 3 }), {
          ...this.browserOptions(),
          ownContextsOnly: true,
        });
        this.launches++;
        await this.adopt(browser);
        this.options.log.info('pool.connected', { endpoint: endpoint.replace(/\?.*$/, '') });
        return browser;
      }),
    );
  }

  /** A session's endpoint died: its tabs, leases and browser context went with it. */
  private forgetSession(owner: string, browser: Browser | undefined): void {
    const tabs =
      owner === DEFAULT_OWNER
        ? (browser?.attachedPages() ?? []).filter((page) => !this.clients.owner(page.id)).map((page) => page.id)
        : this.clients.tabsOf(owner);
    for (const tab of tabs) this.leases.forget(tab);
    if (owner === DEFAULT_OWNER) this.activeTabId = undefined;
    else this.clients.forgetOwner(owner);
  }

  /** pool mode: the caller's session's browser, placing (or recreating) the session first. */
  private async poolBrowser(): Promise<Browser> {
    const pool = this.pool;
    if (!pool) throw new ArgusError('invalid_input', 'Pool mode needs endpoints: `argus connect --pool URL,...`.');
    const { browser, restore } = await pool.acquire(this.ownerKey());
    if (restore && this.recreateHook) {
      await this.recreateHook(browser, restore).catch((error: unknown) =>
        this.options.log.warn('pool.restore_failed', { state: restore, message: (error as Error).message }),
      );
    }
    return browser;
  }

  private ownerKey(): string {
    return currentClient()?.id ?? DEFAULT_OWNER;
  }

  /** pool mode: what the pool was configured with (a restart comes back with it). */
  get poolOptions(): PoolOptions | undefined {
    return this.mode === 'pool' ? this.options.pool : undefined;
  }

  /**
   * What closing does to the browser, said before it happens (`argus stop`): a launched browser is
   * closed; a connected, extension or pool browser is only disconnected and runs on.
   */
  closingEffect(): { browser: 'closed' | 'left_running' | 'none'; poolSessions?: number } {
    if (this.mode === 'pool') return { browser: 'left_running', poolSessions: this.pool?.placed ?? 0 };
    if (!this.running) return { browser: 'none' };
    return { browser: this.mode === 'managed' ? 'closed' : 'left_running' };
  }

  /** pool mode: the endpoints, their health and the sessions on each (the caller's named, others counted). */
  poolView(caller: {
    owner?: string | undefined;
    session?: string | undefined;
  }): ReturnType<BrowserPool['view']> | undefined {
    return this.mode === 'pool' ? this.pool?.view(caller) : undefined;
  }

  /** pool mode: asks every endpoint Browser.getVersion now. */
  async checkPool(): Promise<void> {
    await this.pool?.checkAll();
  }

  /** The caller's session saved its state under `name`: a recreation after failover may load it. */
  noteStateSaved(name: string): void {
    this.pool?.noteSaved(this.ownerKey(), name);
  }

  /**
   * Closes a client's tabs and browser context and those of its named sessions (`session close`, a
   * revoked or expired token). In pool mode each lives on its own endpoint, and its slot frees up.
   */
  async closeOwner(owner: string): Promise<number> {
    const pool = this.pool;
    if (this.mode !== 'pool' || !pool) {
      const browser = this.current;
      return browser
        ? this.structural((running) => this.clients.closeAll(running, owner))
        : this.clients.closeAll(undefined, owner);
    }
    const mine = [...new Set([owner, ...this.clients.known()])].filter(
      (each) => each === owner || each.startsWith(`${owner}/`),
    );
    let closed = 0;
    // deepest first: closeAll of an owner also takes its sub-owners, which may live on other endpoints
    for (const each of mine.sort((a, b) => b.length - a.length)) {
      closed += await this.clients.closeAll(pool.browserOf(each), each);
      pool.release(each);
    }
    return closed;
  }

  /** Loads a saved state into a session recreated on another endpoint (set by the daemon: state handlers). */
  onRecreate(hook: (browser: Browser, state: string) => Promise<void>): void {
    this.recreateHook = hook;
  }

  /** Open pages that no remote client owns (the operator's fallback never lands on a client's tab). */
  private operatorPages(browser: Browser): Page[] {
    return browser.attachedPages().filter((page) => !page.closed && !this.clients.owner(page.id));
  }

  /**
   * The page for a tab id (or the active tab), creating a first tab when none exists. A remote
   * client (shared token) sees only its own tabs: another owner's id is `tab_not_found`.
   */
  async page(tabId?: string): Promise<Page> {
    const browser = await this.ensure();
    const client = currentClient();
    // an index or id prefix names a full id among the caller's own tabs
    if (tabId) tabId = resolveTabRef(this.visibleTabs(browser), tabId);
    if (client) return this.clients.page(browser, client, tabId);
    if (tabId) {
      const page = browser.page(tabId) ?? (await browser.attach(tabId));
      page.assertOpen();
      return page;
    }
    const active = this.activeTabId ? browser.page(this.activeTabId) : undefined;
    if (active && !active.closed) return active;
    const fallback = this.operatorPages(browser).at(-1);
    if (fallback) {
      this.activeTabId = fallback.id;
      return fallback;
    }
    const created = await browser.newPage();
    this.activeTabId = created.id;
    return created;
  }

  /** Tabs the caller may see: all for the operator, its own for a remote client. */
  visibleTabs(browser: Browser): ReturnType<Browser['tabs']> {
    const client = currentClient();
    return client ? browser.tabs().filter((tab) => this.clients.owner(tab.id) === client.id) : browser.tabs();
  }

  /** The caller's active tab id. */
  get activeTab(): string | undefined {
    const client = currentClient();
    return client ? this.clients.active(client.id) : this.activeTabId;
  }

  set activeTab(id: string | undefined) {
    const client = currentClient();
    if (client) this.clients.setActive(client.id, id);
    else this.activeTabId = id;
  }

  /** Opens a tab for the caller (a remote client's goes into its own browser context) and makes it its active one. */
  async newTab(browser: Browser): Promise<Page> {
    const client = currentClient();
    const page = client ? await this.clients.newPage(browser, client) : await browser.newPage();
    this.activeTab = page.id;
    return page;
  }

  /**
   * What browser-wide state commands (`state save|load`) may touch for the caller: its browser
   * context (undefined: the default one) and its open pages. A named session saves and restores its
   * own cookies and storage, never the default session's.
   */
  async callerScope(browser: Browser): Promise<{ context: string | undefined; pages: Page[] }> {
    const client = currentClient();
    const open = browser.attachedPages().filter((page) => !page.closed);
    // pool mode: the default session's context is one of the daemon's own (undefined elsewhere)
    if (!client) return { context: await browser.defaultContext(), pages: open };
    if (this.mode === 'extension') {
      throw new ArgusError(
        'unsupported',
        "Named sessions and shared tokens have no browser context of their own in extension mode (the user's tabs share one profile). Drop --session, or switch with `argus connect --managed`.",
      );
    }
    return {
      context: await this.clients.contextFor(browser, client.id),
      pages: open.filter((page) => this.clients.owner(page.id) === client.id),
    };
  }

  /** The readying of each tab's latest document (see adopt), for documentReadied. */
  private readonly readying = new WeakMap<Page, Promise<void>>();

  /** Settles once the tab's latest document has been readied for its first read (or that was given up). */
  documentReadied(page: Page): Promise<void> {
    return this.readying.get(page) ?? Promise.resolve();
  }

  /** The daemon's own state for this tab (created on first use, dropped with the page). */
  tabState(page: Page): TabState {
    let state = this.tabStates.get(page);
    if (!state) {
      state = new TabState();
      this.tabStates.set(page, state);
    }
    return state;
  }

  engine(page: Page): SnapshotEngine {
    let engine = this.engines.get(page);
    if (!engine) {
      engine = new FrameScopedEngine(page, this.frameChoices, {
        first: this.refFloor,
        // one counter for every tab: a ref is of one tab only, and one from another tab says so
        allocate: () => this.refHigh++,
        issuedElsewhere: (ref) => this.refTab(page, ref),
      });
      this.engines.set(page, engine);
    }
    return engine;
  }

  /** The id of another tab the caller sees that issued `ref` (for the error when it is used here). */
  private refTab(page: Page, ref: string): string | undefined {
    const browser = this.browser;
    if (!browser) return undefined;
    const tabs = this.visibleTabs(browser);
    const owner = tabs.find((tab) => {
      const other = tab.id === page.id ? undefined : browser.page(tab.id);
      return other !== undefined && !other.closed && this.engines.get(other)?.refs.issued(ref);
    });
    return owner ? this.shortTabId(owner.id) : undefined;
  }

  /** A tab's id as `argus tabs` lists it to the caller: its short id among the tabs the caller sees. */
  shortTabId(id: string): string {
    const browser = this.browser;
    if (!browser) return id;
    return shortIds(this.visibleTabs(browser).map((tab) => tab.id)).get(id) ?? id;
  }

  /**
   * The frame chosen for a tab (undefined: the top document), also when it is gone: reads in it then
   * fail. A command that runs in it asks `frameInUse` instead, which says why it is gone.
   */
  selectedFrame(page: Page): string | undefined {
    return this.frameChoices.chosen(page);
  }

  /**
   * The frame a command is to run in: the chosen one, or the iframe that replaced it (see
   * FrameChoices); `ref_stale` when it is gone with nothing like it in its place.
   */
  frameInUse(page: Page): Promise<string | undefined> {
    return this.frameChoices.inUse(page);
  }

  /** The connected browser, if one is running (for browser-wide CDP such as downloads; pool mode: the caller's). */
  get current(): Browser | undefined {
    if (this.mode === 'pool') return this.pool?.browserOf(this.ownerKey());
    return this.browser && !this.browser.closed ? this.browser : undefined;
  }

  /**
   * Runs `hook` on every browser this manager starts (and on the running one, if any), once its
   * first tabs are attached. `early`: a hook that needs no page (browser-wide CDP) runs alongside
   * that attach instead, so a cold start's first command does not wait one more round trip for it.
   */
  onStart(hook: (browser: Browser) => Promise<void>, { early = false } = {}): void {
    (early ? this.earlyHooks : this.startHooks).add(hook);
    const running = this.current;
    if (running) void hook(running).catch(() => undefined);
  }

  /** Runs a command on a tab: FIFO per tab, errors translated to the contract's codes. */
  async onTab<T>(tabId: string | undefined, task: (page: Page) => Promise<T>): Promise<T> {
    const page = await this.page(tabId).catch((error: unknown) => {
      throw this.translate(error);
    });
    const claim = currentLeaseClaim();
    const signal = currentCommandScope()?.signal;
    const deadline = Date.now() + (claim?.waitMs ?? 0);
    // a tab the person paused: wait for Resume before queueing (the command's own deadline, less slack)
    const scopeDeadline = currentCommandScope()?.deadline;
    await this.pauses.admit(
      page.id,
      signal,
      scopeDeadline === undefined ? undefined : Math.max(1_000, scopeDeadline - performance.now() - 5_000),
    );
    for (;;) {
      // another client's lease is waited for (or refused) outside the tab's queue, so its holder's own commands go on
      if (claim) await this.leases.admit(page.id, claim, signal, deadline);
      const outcome = await this.queues.run(page.id, async (): Promise<T | typeof LEASE_RETRY> => {
        // a lease taken while this command waited in the queue applies too: the lease took its turn first
        const blocker = claim && this.leases.blocker(page.id, claim);
        if (claim && blocker) {
          if (Date.now() < deadline) return LEASE_RETRY;
          throw this.leases.refusal(blocker, claim);
        }
        try {
          page.assertOpen();
          const result = await task(page);
          if (!page.closed) this.options.guardPage?.(page);
          return result;
        } catch (error) {
          // an error can carry page content too (a script's thrown text): the guard applies to it as well
          if (!page.closed) this.options.guardPage?.(page);
          throw this.translate(error, page);
        }
      });
      if (outcome !== LEASE_RETRY) return outcome;
    }
  }

  /** Serialises structural commands (open/close tabs) behind one queue. */
  structural<T>(task: (browser: Browser) => Promise<T>): Promise<T> {
    return this.queues.run('__structure__', async () => {
      try {
        return await task(await this.ensure());
      } catch (error) {
        throw this.translate(error);
      }
    });
  }

  translate(error: unknown, page?: Page): ArgusError {
    // an out-of-process frame left the page mid-command: the tab and the browser are fine
    if (error instanceof TargetGoneError && error.targetType === 'iframe') {
      return new ArgusError(
        'ref_stale',
        'The frame the command was working in went away during it: the page removed the frame, or its top document navigated. Run `argus snapshot -i` to see the page now (and `argus frame …` again if you had chosen a frame).',
        { cause: error, details: { reason: 'frame_gone' } },
      );
    }
    // pool mode: a tab "closed" because its endpoint just died is the session's loss, said as such
    if (this.mode === 'pool' && (error instanceof TransportClosedError || isArgusCode(error, 'target_closed'))) {
      const lost = this.pool?.report(this.ownerKey());
      if (lost) return lost;
    }
    if (error instanceof ArgusError) return error;
    if (error instanceof PageUnresponsiveError) return unresponsive(error, page);
    if (error instanceof CommandCancelledError)
      return new ArgusError('cancelled', `${error.message}; nothing more was done.`, { cause: error });
    if (error instanceof CdpTimeoutError) {
      return new ArgusError(
        'timeout',
        `${error.message}. Retry with a longer --timeout-ms; if it keeps happening, see ${this.options.logFile}.`,
        { cause: error },
      );
    }
    if (error instanceof TransportClosedError) {
      if (this.crashed || !this.running) {
        // the caller hears it now (whether the exit or the closed socket came first): said once
        this.crashed = undefined;
        this.crashReported = true;
        return new ArgusError(
          'browser_crashed',
          'The browser went away during the command. It will be relaunched on your next command.',
          { cause: error },
        );
      }
      return new ArgusError(
        'target_closed',
        `Tab ${page?.id ?? ''} closed during the command. Run \`argus tabs\` to pick another.`,
        { cause: error },
      );
    }
    if (error instanceof BetweenDocumentsError) {
      return new ArgusError(
        'timeout',
        `${error.message}. Run \`argus url\` to see where the tab is, then retry; \`argus goto\` starts over.`,
        { cause: error },
      );
    }
    if (error instanceof ProtocolError) {
      // a call still running in the document the page left (an awaited script, a wait): not a ref's fault
      if (NAVIGATED_AWAY.test(error.message) && !page?.closed) return navigatedError(error, page);
      if (/No node|Could not find node|does not belong to the document|Cannot find context/i.test(error.message)) {
        return new ArgusError(
          'ref_stale',
          `The element is gone from the page (${error.message}). Run \`argus snapshot\` and use a new ref.`,
          { cause: error },
        );
      }
      return new ArgusError('internal', `Chrome refused the command: ${error.message}`, { cause: error });
    }
    const message = error instanceof Error ? error.message : String(error);
    return new ArgusError('internal', message, { cause: error });
  }

  /**
   * Switches the session mode: closes a managed browser (or disconnects from a connected / extension
   * one, never closing the user's browser); the new mode's browser starts lazily on the next command.
   */
  async switchMode(mode: SessionMode, cdpUrl?: string, pool?: PoolOptions): Promise<void> {
    await this.release();
    this.mode = mode;
    this.options.cdpUrl = mode === 'connect' ? cdpUrl : undefined;
    this.options.pool = mode === 'pool' ? pool : undefined;
    if (mode === 'pool') this.startPool();
  }

  /**
   * `argus disconnect`: lets go of the browser, keeping the mode, so the next command attaches (or
   * launches) again. A connected or extension browser runs on with its tabs (routes' held requests let
   * go first); a browser Argus launched is closed, since nobody else could ever close it.
   */
  /**
   * A temporary profile kept from the browser closed last (`detach({ keepProfile })`) for the next
   * launch, which takes it over (removes it on exit like its own). Removed if the manager closes first.
   */
  private keptProfile: string | undefined;

  private takeKeptProfile(): string | undefined {
    const kept = this.keptProfile;
    this.keptProfile = undefined;
    return kept;
  }

  /**
   * Closes the browser (managed) or disconnects from it, ready to start again. `keepProfile`: a
   * managed browser's temporary profile is kept for the next launch (a handoff's relaunch headed and
   * back: IndexedDB, caches and service workers stay on disk).
   */
  async detach(options: { keepProfile?: boolean } = {}): Promise<'detached' | 'closed' | 'none'> {
    await this.starting?.catch(() => undefined);
    const action = !this.running ? 'none' : this.mode === 'managed' ? 'closed' : 'detached';
    // marked before the close (which would remove it), taken over by the next launch
    const kept =
      options.keepProfile && action === 'closed' && this.chrome && !this.chrome.hasExited
        ? this.chrome.keepProfile()
        : undefined;
    await this.release();
    this.keptProfile = kept;
    // the pool's endpoints stay configured: sessions are placed again on their next command
    if (this.mode === 'pool') this.startPool();
    return action;
  }

  /** Closes (managed) or disconnects from the browser and forgets its tabs, ready to start again. */
  private async release(): Promise<void> {
    await this.starting?.catch(() => undefined);
    await this.closeBrowser();
    this.stopping = false;
    this.crashed = undefined;
    this.activeTabId = undefined;
    this.clients.reset();
    this.leases.clear();
  }

  /**
   * Starts the browser now, without waiting: a daemon started for a command launches Chromium while
   * it finishes starting and the command is on its way. A failure is only logged; the first command
   * that needs the browser tries again and reports it.
   */
  prelaunch(): void {
    // a browser the entry started early (launchBrowserEarly) is adopted by this launch, or not needed
    if (this.mode !== 'managed') return discardEarlyLaunch();
    this.ensure().catch((error: unknown) =>
      this.options.log.warn('browser.prelaunch_failed', { message: (error as Error).message }),
    );
  }

  /** A kept profile no launch took (a failed relaunch, the daemon stopping): removed. */
  private dropKeptProfile(): void {
    const kept = this.takeKeptProfile();
    if (kept) removeProfile(kept);
  }

  /**
   * The daemon is stopping: closes the browser for good. A command that comes meanwhile (a client
   * connected before the stop) is refused rather than launching a browser nothing would close.
   */
  async close(): Promise<void> {
    this.shutDown = true;
    await this.closeBrowser();
  }

  private async closeBrowser(): Promise<void> {
    this.stopping = true;
    this.dropKeptProfile();
    const pool = this.pool;
    this.pool = undefined;
    await pool?.close();
    // a launch under way (a prelaunch, or a command's) finishes first, so its Chrome is closed too
    await this.starting?.catch(() => undefined);
    const browser = this.browser;
    const chrome = this.chrome;
    this.browser = undefined;
    this.chrome = undefined;
    try {
      if (browser) {
        if (this.mode === 'managed') await browser.close();
        else await browser.disconnect();
      }
    } finally {
      // after Browser.close, let Chrome exit by itself: a persistent profile writes its cookies on the way out
      await (browser && this.mode === 'managed' ? chrome?.close() : chrome?.kill());
    }
  }
}

function isArgusCode(error: unknown, code: ArgusError['code']): boolean {
  return error instanceof ArgusError && error.code === code;
}

/**
 * A headed Chromium on Linux needs an X or Wayland display; without one it dies with lines of dbus
 * and ozone noise. Said plainly before launching instead.
 */
export function assertDisplay(headless: boolean, env: NodeJS.ProcessEnv = process.env): void {
  if (headless || process.platform !== 'linux' || env.DISPLAY || env.WAYLAND_DISPLAY) return;
  throw new ArgusError(
    'no_display',
    'A headed browser (ARGUS_HEADLESS=0 / chrome.headless false) needs a display, and this session has none (no DISPLAY or WAYLAND_DISPLAY). Start Argus under a virtual display (`xvfb-run -a argus …`, or set DISPLAY), or run headless (unset ARGUS_HEADLESS or set it to 1, then `argus restart`).',
  );
}
