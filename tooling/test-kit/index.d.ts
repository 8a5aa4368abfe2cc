// Hand-written types for src/index.js (plain ESM, no build step). Keep in sync with the JSDoc there.

export interface FixtureServer {
  /** Base URL with a trailing slash, e.g. `http://127.0.0.1:41234/`. */
  readonly url: string;
  /** Scheme + host + port, e.g. `http://127.0.0.1:41234`. */
  readonly origin: string;
  readonly port: number;
  /** Absolute URL of a path on this server: `urlFor('/form.html')`. */
  urlFor(path: string): string;
  /** Stops listening and destroys every open (keep-alive) socket and pending timer. Idempotent. */
  close(): Promise<void>;
  /** A copy of the request counters (politeness and retry tests). */
  traffic(): Traffic;
  /** Zeroes the counters. */
  resetTraffic(): void;
}

export interface Traffic {
  /** Requests since start (or the last reset). */
  total: number;
  /** Requests being answered now. */
  inFlight: number;
  /** The most requests answered at the same time. */
  maxInFlight: number;
  /** Requests per path (without the query). */
  paths: Record<string, number>;
}

/** A full inline answer, for fakes that are not HTML (robots.txt, sitemaps, a search API). */
export interface InlineAnswer {
  status?: number;
  contentType?: string;
  headers?: Record<string, string>;
  body: string;
}

/** A page a test writes inline: its HTML, or a function of the request URL that returns it. */
export type InlinePage = string | ((url: URL, req: import('node:http').IncomingMessage) => string | InlineAnswer);

export interface FixtureServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /**
   * HTML served at these exact paths (e.g. `'/form'`), before any other route or file: for tests
   * that keep their page next to their assertions.
   */
  pages?: Record<string, InlinePage>;
  /**
   * The host name in `url`/`origin` (default `127.0.0.1`). `localhost` is a different site from
   * `127.0.0.1` (a cross-site iframe runs out of process); the server listens on 127.0.0.1 either way.
   * `127.0.0.2` listens on that second loopback address: a host an address policy can tell apart.
   */
  hostname?: '127.0.0.1' | 'localhost' | '127.0.0.2';
}

/**
 * Starts the fixture server on 127.0.0.1.
 *
 * Inline: `options.pages` at their exact paths, ahead of everything else.
 * Static: `pages/*` at `/` (e.g. `/form.html`), real saved pages at `/real/<name>/` (serves
 * `source.html`; `/real/<name>/expected-metadata.json` too), `/` lists everything.
 * Dynamic: `/slow?ms=N` (N <= 10000), `/barrier?name=X&count=N&ms=T` (answers `met` once N requests
 * named X are in flight together, else `alone` after T ms), `/status/<code>`, `/redirect?to=<path|url>[&status=30x]`,
 * `/echo-headers`, `/set-cookie?name=..&value=..[&max-age=S][&http-only=1][&same-site=Strict|Lax|None]`, `/download/<name>.txt`, `/json`,
 * `/big?bytes=N` (N <= 50_000_000), `/flaky?name=X&fail=N&status=503[&retry-after=S]` (the first N
 * requests named X fail), `/site/<n>?size=S[&ms=T]` (a generated site of S linked pages). Missing files 404; `..` in the path is refused with 403.
 *
 * A second origin is a second `startFixtureServer()` (a different port is a different origin;
 * `hostname: 'localhost'` makes it a different site too; cookies are scoped by host, so servers on
 * the same host name see the same cookies).
 */
export function startFixtureServer(options?: FixtureServerOptions): Promise<FixtureServer>;

export const MAX_SLOW_MS: number;
/** The user and password the fixture server's `/basic-auth` route accepts. */
export const BASIC_AUTH: { user: string; password: string };
export const MAX_BIG_BYTES: number;

export interface RealPage {
  /** Folder name, e.g. `cnn`. */
  name: string;
  /** URL path on the fixture server, e.g. `/real/cnn/`; use `server.urlFor(page.path)`. */
  path: string;
  /** Absolute path of the saved `source.html`. */
  file: string;
  /** Absolute path of `expected-metadata.json` (title, byline, excerpt, siteName, ...). */
  metadataFile: string;
}

/** The 24 vendored real-world pages, sorted by name. */
export function realPages(): RealPage[];

/** Absolute path of `tooling/test-kit/fixtures/`. */
export const fixturesDir: string;
/** Absolute path of `tooling/test-kit/pages/` (served at `/`). */
export const pagesDir: string;
/** Absolute path of `tooling/test-kit/fixtures/real-pages/` (served at `/real/`). */
export const realPagesDir: string;

/** `argus-chrome-`: directory-name prefix of every Chrome profile Argus creates in os.tmpdir(). */
export const PROFILE_PREFIX: string;

export interface ArgusChromeProcess {
  pid: number;
  /** Arguments joined by spaces. */
  cmdline: string;
  /** The `--user-data-dir` value. */
  userDataDir: string;
}

/** Live, non-zombie processes whose command line has `--user-data-dir=<os.tmpdir()>/argus-chrome-`. */
export function listArgusChromeProcesses(): ArgusChromeProcess[];
/** Pids of listArgusChromeProcesses(). */
export function listArgusChromes(): number[];
/** A live process as /proc shows it. */
export interface LiveProcess {
  pid: number;
  /** Its command line. */
  args: string[];
  /** Its process group. */
  pgrp: number;
}
/** Fields of /proc/<pid>/stat after the command name (0 state, 1 ppid, 2 pgrp, 19 start ticks); throws when gone. */
export function procStatFields(pid: number): string[];
/** The parent of a live process (Linux /proc). */
export function parentOf(pid: number): number;
/** Every live, non-zombie process but this one (Linux /proc; [] elsewhere). */
export function liveProcesses(): LiveProcess[];
/** Live, non-zombie members of a process group (a launched Chrome leads its own). */
export function processGroupMembers(pgid: number): number[];

export interface ChromeLeakGuard {
  /** Records the Argus Chromes alive before the run. */
  setup(): void;
  /**
   * Waits (default up to 5 s, 100 ms steps) for Chromes started since setup() to exit; SIGKILLs
   * the rest, removes their profiles and throws an Error listing them.
   */
  teardown(): Promise<void>;
}

export interface ChromeLeakGuardOptions {
  /** Grace period before killing, default 5000 ms. */
  timeoutMs?: number;
  /** Poll step, default 100 ms. */
  intervalMs?: number;
  /** What to watch; default listArgusChromeProcesses (tests pass a narrower list). */
  list?: () => ArgusChromeProcess[];
}

/** Build a guard; `@argus/test-kit/global-setup` is a ready-made one for vitest `globalSetup`. */
export function chromeLeakGuard(options?: ChromeLeakGuardOptions): ChromeLeakGuard;

/**
 * Where a built bundle first holds a character outside ASCII, with some text around it ('' when it
 * holds none): a bundle run from the code cache must be ASCII only.
 */
export function firstNonAscii(file: string): string;

/**
 * Runs a command as its own process and collects its output (asynchronously, so a fixture server in
 * the test process keeps answering meanwhile). The child is killed after `timeoutMs` (default 60 s).
 */
export function runProcess(
  command: string,
  args: string[],
  /** `stdin`: text written to the process's stdin (else stdin is closed). */
  options?: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; stdin?: string },
): Promise<{ code: number; stdout: string; stderr: string }>;

/** Anything that sends CDP commands like `@argus/cdp`'s `Transport` (what `connectCri()` returns). */
export interface CdpSender {
  send(method: string, params: object | undefined, sessionId: string | undefined): Promise<unknown>;
}

/** The built unpacked Argus extension, `apps/extension/dist` (`pnpm --filter @argus/extension build`). */
export const EXTENSION_DIR: string;

/**
 * Chromium flags that load the unpacked extension at `dir` (default EXTENSION_DIR) and no other; pass
 * them to `@argus/cdp`'s `launchChrome({ extraFlags })`. Throws when the extension is not built.
 */
export function extensionFlags(dir?: string): string[];

/** Resolves once `check()` is true; throws `timed out waiting for <what>` after `timeoutMs` (default 15 s). */
export function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs?: number, what?: string): Promise<void>;

/** The extension's service worker target, waited for (up to 10 s) on a browser-level connection. */
export function findServiceWorker(cdp: CdpSender): Promise<{ targetId: string; url: string; extensionId: string }>;

/**
 * Evaluates an expression (awaited) in the extension's service worker and returns its value through
 * JSON (`undefined` becomes `null`). Attaches, waits for `chrome.storage`, evaluates, detaches.
 */
export function evaluateInWorker(cdp: CdpSender, targetId: string, expression: string): Promise<unknown>;

/** The part of the daemon's typed client `pairExtension` uses. */
export interface PairingClient {
  session: {
    connect: {
      mutate(input: {
        extension: true;
        timeoutMs?: number;
      }): Promise<{ extension: { relayUrl: string | null; connected: boolean } }>;
    };
  };
}

/**
 * Pairs the extension in a test's browser with a daemon started with `ARGUS_RELAY_PORT=0` and
 * `ARGUS_RELAY_LAUNCH_TOKEN=<launchToken>`: extension mode on (the relay starts), the extension
 * pointed at the relay with the launch token, then waited for (15 s). Returns the relay URL.
 */
export function pairExtension(
  client: PairingClient,
  evalInWorker: (expression: string) => Promise<unknown>,
  launchToken: string,
): Promise<string>;

/** The key the fake Brave Search API accepts. */
export declare const FAKE_BRAVE_KEY: string;

export interface FakeSearchRequest {
  engine: 'searxng' | 'brave' | 'duckduckgo';
  query: string;
  params: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * Fake search engines speaking the real wire formats (SearXNG JSON at `/search`, Brave at
 * `/res/v1/web/search`, DuckDuckGo HTML at `/html/`), pages for `startFixtureServer`. Results point at
 * `/research/*.html` of `pagesOrigin` (default: the engine's own server). A time filter drops the 2019
 * page; the query `fail503` answers 503; `challenge` makes DuckDuckGo answer its bot page.
 */
export declare function fakeSearchEngines(options?: { pagesOrigin?: string; searxngJson?: boolean }): {
  pages: Record<string, InlinePage>;
  requests: FakeSearchRequest[];
};

/** What the soak drive calls on an Argus client (an `ArgusClient` fits). */
export interface SoakClient {
  tabs: {
    open: { mutate(input: { url: string }): Promise<{ id: string }> };
    close: { mutate(input: { id: string }): Promise<unknown> };
  };
  page: {
    goto: { mutate(input: { url: string; tab: string }): Promise<unknown> };
    eval: { mutate(input: { js: string; tab: string }): Promise<{ value?: unknown }> };
    screenshot: { mutate(input: { base64: boolean; tab: string }): Promise<unknown> };
  };
  snapshot: { take: { mutate(input: { interactive?: boolean; tab: string }): Promise<{ text: string }> } };
  input: {
    click: { mutate(input: { target: string; tab: string }): Promise<unknown> };
    fill: { mutate(input: { target: string; text: string; tab: string }): Promise<unknown> };
  };
}

export interface SoakCounts {
  loads: number;
  clicks: number;
  fills: number;
  evals: number;
}

export interface SoakResult {
  name: string;
  /** What the client sent that leaves a count in the page (the first load is the tab's open). */
  sent: SoakCounts;
  /** What the page counted. */
  seen: SoakCounts;
  /** Calls per contract path, as the journal should record them. */
  commandsSent: Record<string, number>;
  failures: string[];
}

/** The soak page: counts its loads, clicks, fill input events and evaluations per `?c=<client>`. */
export declare const SOAK_PAGE: string;
/** The kinds of command in the soak mix, by step % 10. */
export declare const SOAK_MIX: readonly string[];

/**
 * Each client drives a tab of its own through the soak mix (`commands` each, all clients at once)
 * and reads back the page's counters. `onCommand` sees each command's latency and kind.
 */
export function runSoak(options: {
  clients: Array<{ name: string; client: SoakClient }>;
  pageUrl: string;
  commands: number;
  onCommand?: (ms: number, kind: string) => void;
  onDone?: () => Promise<void> | void;
}): Promise<SoakResult[]>;

/** Lost or doubled commands: page counts and journal rows (`journal.export` JSON lines) vs what was sent. */
export function soakMismatches(results: SoakResult[], journalLines: string): string[];

/** A CDP session able to send input events (`@argus/cdp`'s Session fits). */
export interface InputSession {
  send(method: string, params?: object): Promise<unknown>;
}

/** A tab the picker runs in (`@argus/cdp`'s Page fits: its session and main-world evaluate). */
export interface PickerPage {
  session: InputSession;
  evaluate(expression: string): Promise<unknown>;
}

export interface PickerNode {
  nodeId: number;
  backendNodeId: number;
  tag: string;
  cls: string;
  text: string;
}

/** A person's click at a point (viewport CSS px): mouse moved there, left button pressed, released. */
export function clickAt(session: InputSession, point: { x: number; y: number }): Promise<void>;

/**
 * Drives the annotation picker like a person: real CDP mouse and key events on the tab's own session
 * (managed mode, or through chrome.debugger in extension mode).
 */
export class PickerDriver {
  constructor(page: PickerPage);
  /** Resolves once the picker's host element is in the document (a MutationObserver in the page). */
  ready(): Promise<void>;
  /** The centre of the first element matching `selector` (viewport CSS px). */
  centre(selector: string): Promise<{ x: number; y: number }>;
  move(point: { x: number; y: number }): Promise<void>;
  click(point: { x: number; y: number }): Promise<void>;
  /** Types text one key at a time into whatever has focus. */
  type(text: string): Promise<void>;
  press(key: 'Enter' | 'Escape'): Promise<void>;
  /** The picker's own nodes (inside its closed shadow root), through CDP's DOM domain. */
  pickerNodes(): Promise<PickerNode[]>;
  /** Clicks the picker's Send or Cancel button at its box. */
  clickPickerButton(cls: 'send' | 'cancel'): Promise<void>;
}
