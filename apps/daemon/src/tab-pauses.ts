import { ArgusError } from '@argus/protocol';

/** Longest a command waits on a paused tab when its own deadline says nothing (ms). */
const DEFAULT_WAIT_MS = 55_000;

/**
 * Tabs the person paused the agent on (the extension side panel's Pause): a command for such a tab
 * waits, outside the tab's queue, until they resume it, its caller leaves or its wait runs out
 * (`tab_paused`, saying why). Resuming wakes the waiters at once (no polling).
 */
export class TabPauses {
  private readonly paused = new Map<string, number>();
  /** Each waiter is woken with nothing (resumed) or with the error it must fail with. */
  private readonly waiters = new Map<string, Set<(error?: ArgusError) => void>>();

  set(tab: string, paused: boolean): void {
    if (paused) {
      if (!this.paused.has(tab)) this.paused.set(tab, Date.now());
      return;
    }
    this.paused.delete(tab);
    for (const wake of [...(this.waiters.get(tab) ?? [])]) wake();
  }

  /**
   * The extension went away: nobody is left to press Resume, so every pause ends, and the commands
   * waiting on one fail with `browser_not_found` (their tab is gone with the extension) instead of
   * running on a tab the person had paused. Returns the tabs that were paused.
   */
  endAll(): string[] {
    const tabs = [...this.paused.keys()];
    this.paused.clear();
    for (const tab of tabs) {
      const error = new ArgusError(
        'browser_not_found',
        `The Argus extension disconnected while this command waited on tab ${tab}, which the person had paused; the pause ended with the connection. Reconnect the extension (its popup), check the tab with \`argus tabs\`, then retry.`,
        { details: { tab, reason: 'extension_disconnected' } },
      );
      for (const wake of [...(this.waiters.get(tab) ?? [])]) wake(error);
    }
    return tabs;
  }

  list(): Array<{ tab: string; since: string }> {
    return [...this.paused].map(([tab, since]) => ({ tab, since: new Date(since).toISOString() }));
  }

  /** Resolves when the tab is not paused; waits for Resume up to `waitMs`, else fails with `tab_paused`. */
  async admit(tab: string, signal: AbortSignal | undefined, waitMs = DEFAULT_WAIT_MS): Promise<void> {
    const since = this.paused.get(tab);
    if (since === undefined) return;
    await new Promise<void>((resolve, reject) => {
      const set = this.waiters.get(tab) ?? new Set<(error?: ArgusError) => void>();
      this.waiters.set(tab, set);
      const done = (error?: ArgusError) => {
        clearTimeout(timer);
        set.delete(wake);
        signal?.removeEventListener('abort', abort);
        if (error) reject(error);
        else resolve();
      };
      const wake = (error?: ArgusError) => done(error);
      const abort = () => done(new ArgusError('cancelled', 'The caller went away while the tab was paused.'));
      const timer = setTimeout(
        () =>
          done(
            new ArgusError(
              'tab_paused',
              `The person paused the agent on tab ${tab} (Argus side panel, since ${new Date(since).toISOString()}); this command waited ${Math.round(waitMs / 1000)} s. Wait for them to press Resume, then retry; \`argus status\` lists paused tabs.`,
              { details: { tab, since: new Date(since).toISOString() } },
            ),
          ),
        waitMs,
      );
      set.add(wake);
      if (signal?.aborted) return abort();
      signal?.addEventListener('abort', abort, { once: true });
    });
  }
}
