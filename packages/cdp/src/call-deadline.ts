import { CommandCancelledError, type CommandScope } from './command-scope.js';

/** How long CDP calls may take and how soon a silent page is judged unresponsive. */
export interface CallTiming {
  /** Deadline of a call made outside any command scope (a command's own deadline replaces it). */
  callTimeoutMs: number;
  /** A call still unanswered after this long makes the session check that its page answers at all. */
  probeAfterMs: number;
  /** A page whose main thread does not answer a trivial evaluation within this is unresponsive. */
  probeTimeoutMs: number;
}

export const DEFAULT_CALL_TIMING: CallTiming = { callTimeoutMs: 60_000, probeAfterMs: 2_000, probeTimeoutMs: 5_000 };

/** A CDP call (or a wait) outlived its deadline. */
export class CdpTimeoutError extends Error {
  override readonly name = 'CdpTimeoutError';
  constructor(
    readonly what: string,
    readonly timeoutMs: number,
  ) {
    super(`Chrome did not answer ${what} within ${Math.round(timeoutMs)} ms`);
  }
}

/** The page's main thread did not answer at all (an endless script, a frozen renderer). */
export class PageUnresponsiveError extends Error {
  override readonly name = 'PageUnresponsiveError';
  constructor(
    readonly what: string,
    readonly silentMs: number,
  ) {
    super(`The page did not answer ${what}: its main thread has been busy for ${Math.round(silentMs / 1000)} s`);
  }
}

/**
 * Calls answered by the browser process or the renderer's IO thread, not by the page's main
 * thread: they work on a page whose script never yields, so liveness does not judge them.
 */
const OFF_MAIN_THREAD = new Set([
  'Runtime.terminateExecution',
  'Page.navigate',
  'Page.stopLoading',
  'Page.reload',
  'Page.getNavigationHistory',
  'Page.navigateToHistoryEntry',
  'Page.close',
]);

/**
 * Whole domains served by the browser process. Fetch matters most: the navigation guard answers
 * `Fetch.requestPaused` for the very load that replaces a stuck page, so refusing it would wedge that load.
 */
const BROWSER_DOMAINS = ['Target.', 'Browser.', 'Fetch.'];

export function isJudgedByLiveness(method: string): boolean {
  return !OFF_MAIN_THREAD.has(method) && !BROWSER_DOMAINS.some((domain) => method.startsWith(domain));
}

/**
 * Tracks whether one session's page answers. While any call has been pending for `probeAfterMs`,
 * it sends one trivial evaluation; if that is not answered within `probeTimeoutMs`, every pending
 * judged call fails with PageUnresponsiveError and new ones fail at once, until the stuck probe is
 * finally answered (the script ended or was terminated). No timer runs while nothing is pending.
 */
export class Liveness {
  private stuckSince: number | undefined;
  private probing: Promise<boolean> | undefined;
  private readonly listeners = new Set<(error: PageUnresponsiveError) => void>();

  constructor(
    private readonly probe: () => Promise<unknown>,
    readonly timing: CallTiming,
  ) {}

  get unresponsive(): boolean {
    return this.stuckSince !== undefined;
  }

  /** Milliseconds since the page stopped answering (0 when it answers). */
  get silentMs(): number {
    return this.stuckSince === undefined ? 0 : performance.now() - this.stuckSince + this.timing.probeTimeoutMs;
  }

  /** Sends a probe (one at a time) and resolves whether the page answered in time. */
  check(): Promise<boolean> {
    if (this.stuckSince !== undefined) return Promise.resolve(false);
    this.probing ??= new Promise<boolean>((resolve) => {
      // any answer, even an error (no context during a navigation, a closed target), means the
      // main thread is running
      const answered = this.probe().then(
        () => true,
        () => true,
      );
      const timer = setTimeout(() => resolve(false), this.timing.probeTimeoutMs);
      void answered.then(() => {
        clearTimeout(timer);
        resolve(true);
        // the probe that found the page stuck was answered at last: the page is back
        this.stuckSince = undefined;
      });
    }).then((alive) => {
      this.probing = undefined;
      if (!alive) {
        this.stuckSince = performance.now();
        const error = new PageUnresponsiveError('in time', this.silentMs);
        for (const listener of [...this.listeners]) listener(error);
      }
      return alive;
    });
    return this.probing;
  }

  onUnresponsive(listener: (error: PageUnresponsiveError) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * Bounds a pending call or wait: it rejects when the command's deadline (or `fallbackMs`) passes,
 * when the command's caller goes away, (when `liveness` is given) when the page stops answering,
 * and (when `gone` is given) when its session detaches: Chrome never answers a call left pending
 * on a session whose target went away (an out-of-process frame its top document navigated from).
 * The underlying promise keeps running; its late result is dropped.
 */
export function bound<T>(
  pending: Promise<T>,
  what: string,
  options: {
    scope: CommandScope | undefined;
    fallbackMs: number | undefined;
    liveness: Liveness | undefined;
    /** registers `fail` for the session's detach, with the error to fail with; returns its removal */
    gone?: ((fail: (error: Error) => void, what: string) => () => void) | undefined;
  },
): Promise<T> {
  const { scope, liveness, gone } = options;
  const now = performance.now();
  const deadline = scope?.deadline ?? (options.fallbackMs === undefined ? undefined : now + options.fallbackMs);
  if (deadline === undefined && !scope?.signal && !liveness && !gone) return pending;
  return new Promise<T>((resolve, reject) => {
    const cleanups: Array<() => void> = [];
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      for (const cleanup of cleanups) cleanup();
      settle();
    };
    pending.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(error)),
    );
    if (deadline !== undefined) {
      const timer = setTimeout(
        () => finish(() => reject(new CdpTimeoutError(what, deadline - now))),
        Math.max(0, deadline - now),
      );
      cleanups.push(() => clearTimeout(timer));
    }
    const signal = scope?.signal;
    if (signal) {
      const onAbort = () => finish(() => reject(new CommandCancelledError()));
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      cleanups.push(() => signal.removeEventListener('abort', onAbort));
    }
    if (gone) cleanups.push(gone((error) => finish(() => reject(error)), what));
    if (liveness) {
      cleanups.push(
        liveness.onUnresponsive((error) => finish(() => reject(new PageUnresponsiveError(what, error.silentMs)))),
      );
      // re-checked while the call stays pending: a page can freeze in the middle of a long wait
      const probeTimer = setInterval(() => void liveness.check(), liveness.timing.probeAfterMs);
      cleanups.push(() => clearInterval(probeTimer));
    }
  });
}
