import type { Browser } from '@argus/cdp';
import { displayUrl, withEndpointMasked } from './placement.js';

/** How long a connection or a health answer may take before the endpoint counts as down. */
const CONNECT_MS = 10_000;
const HEALTH_MS = 5_000;

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * One remote CDP endpoint of the pool and the daemon's one connection to it. Every session placed
 * here is a browser context on that connection. Death is noticed two ways: the socket closing (an
 * event: a killed browser or a dropped link) and the periodic Browser.getVersion failing or hanging
 * (a browser that is wedged but keeps its socket open).
 */
export class PoolEndpoint {
  health: 'unchecked' | 'healthy' | 'down' = 'unchecked';
  version: string | null = null;
  lastError: string | null = null;
  private browser: Browser | undefined;
  private connecting: Promise<Browser> | undefined;
  private closing = false;

  constructor(
    readonly url: string,
    readonly maxSessions: number,
    private readonly open: (url: string) => Promise<Browser>,
    private readonly onDown: (endpoint: PoolEndpoint, reason: string, browser: Browser | undefined) => void,
  ) {}

  get shown(): string {
    return displayUrl(this.url);
  }

  /** The live connection, if there is one. */
  get current(): Browser | undefined {
    return this.browser && !this.browser.closed ? this.browser : undefined;
  }

  /** The connection, opened on first use (and again after the endpoint came back). */
  connect(): Promise<Browser> {
    const live = this.current;
    if (live) return Promise.resolve(live);
    this.connecting ??= this.dial().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async dial(): Promise<Browser> {
    const opening = this.open(this.url);
    let browser: Browser;
    try {
      browser = await within(opening, CONNECT_MS, `${this.shown}`);
    } catch (error) {
      // a connection that arrives after we gave up is not left open on the far side
      void opening.then((late) => late.disconnect()).catch(() => undefined);
      this.markDown(`cannot connect: ${(error as Error).message}`);
      throw error;
    }
    if (this.closing) {
      await browser.disconnect().catch(() => undefined);
      throw new Error('the pool is closing');
    }
    this.browser = browser;
    this.health = 'healthy';
    this.lastError = null;
    browser.onClose((reason) => {
      if (this.browser === browser && !this.closing) this.markDown(`its connection closed (${reason})`);
    });
    return browser;
  }

  /** One health check: connect if needed, then Browser.getVersion within a bound. */
  async check(): Promise<void> {
    if (this.closing) return;
    try {
      const browser = await this.connect();
      const { product } = await within(browser.version(), HEALTH_MS, 'Browser.getVersion');
      this.version = product;
      this.health = 'healthy';
    } catch (error) {
      this.markDown((error as Error).message);
    }
  }

  /**
   * The endpoint is gone (or wedged): its connection is dropped so commands still waiting on it fail
   * at once, and the pool hears which sessions were on it. Idempotent.
   */
  markDown(reason: string): void {
    // the reason quotes the URL it failed on (a connect error does): the grid's token must not reach
    // status, a browser_lost message or another session's caller
    reason = withEndpointMasked(reason, this.url);
    const browser = this.browser;
    const wasUp = this.health !== 'down' || browser !== undefined;
    this.browser = undefined;
    this.health = 'down';
    this.lastError = reason;
    if (browser && !browser.closed) void browser.disconnect().catch(() => undefined);
    if (wasUp) this.onDown(this, reason, browser);
  }

  /** Lets go of the connection (the remote browser runs on; our contexts end with the connection). */
  async close(): Promise<void> {
    this.closing = true;
    await this.connecting?.catch(() => undefined);
    const browser = this.browser;
    this.browser = undefined;
    if (browser && !browser.closed) await browser.disconnect().catch(() => undefined);
  }
}
