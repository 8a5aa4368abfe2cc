import type { Session } from './session.js';
import { TransportClosedError } from './transport.js';

/**
 * Waits for a condition on what a tab's events told their owner (a NavigationWatcher, a read's
 * TabNavigation). Event driven, never polled: the owner calls `notify()` after each event it
 * recorded, and every pending wait checks its condition again then.
 */
export class EventWaiters {
  private readonly waiters = new Set<() => void>();

  /** `session`: the tab's; a wait fails when it detaches (the tab closed). */
  constructor(private readonly session: Pick<Session, 'onDetach'>) {}

  /** Checks every pending wait again; the owner calls it after each event it recorded. */
  notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /**
   * Resolves when `check()` is true, checked now and after every `notify()`; rejects with a
   * NavigationTimeoutError naming `describe()` after `timeoutMs`, with a TransportClosedError when
   * the tab closes, or with `signal`'s reason when it aborts (the caller went away).
   */
  until(check: () => boolean, timeoutMs: number, describe: () => string, signal?: AbortSignal): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const cleanup = () => {
        this.waiters.delete(waiter);
        clearTimeout(timer);
        offDetach();
        signal?.removeEventListener('abort', onAbort);
      };
      const waiter = () => {
        if (!check()) return;
        cleanup();
        resolve();
      };
      const onAbort = () => {
        cleanup();
        reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new NavigationTimeoutError(describe(), timeoutMs));
      }, timeoutMs);
      const offDetach = this.session.onDetach(() => {
        cleanup();
        reject(new TransportClosedError('The tab closed during navigation'));
      });
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(waiter);
    });
  }

  /** Stops checking the pending waits (their owner is disposed); each still ends at its timeout or detach. */
  clear(): void {
    this.waiters.clear();
  }
}

/** A wait for a navigation's step (a commit, a lifecycle event, the next document) ran out of time. */
export class NavigationTimeoutError extends Error {
  override readonly name = 'NavigationTimeoutError';
  constructor(
    readonly what: string,
    readonly timeoutMs: number,
  ) {
    super(`${what} did not finish within ${timeoutMs} ms`);
  }
}
