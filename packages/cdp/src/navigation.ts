import type { Session } from './session.js';

/**
 * Watches a page's main frame from just before an action until after it, so the action can tell
 * whether it started a navigation and wait for exactly that document. Event driven only.
 */
export class NavigationWatcher {
  requested = false;
  sameDocumentUrl: string | undefined;
  /** loaderId of the newest committed document of the main frame. */
  committedLoader: string | undefined;
  committedUrl: string | undefined;
  /** The main frame's requested navigation became a download (it will never commit). */
  downloadStarted = false;
  private readonly lifecycle = new Map<string, Set<string>>();
  private readonly waiters = new Set<() => void>();
  private readonly offs: Array<() => void>;

  constructor(
    private readonly session: Session,
    private readonly mainFrameId: () => string,
  ) {
    const isMain = (frameId: string) => frameId === this.mainFrameId();
    this.offs = [
      session.on('Page.frameRequestedNavigation', (event) => {
        if (isMain(event.frameId)) this.mark(() => (this.requested = true));
      }),
      session.on('Page.frameStartedNavigating', (event) => {
        if (isMain(event.frameId) && !event.navigationType.startsWith('sameDocument')) this.mark(() => (this.requested = true));
      }),
      session.on('Page.frameStartedLoading', (event) => {
        if (isMain(event.frameId)) this.mark(() => (this.requested = true));
      }),
      session.on('Page.frameNavigated', (event) => {
        if (event.frame.parentId) return;
        this.mark(() => {
          this.requested = true;
          this.committedLoader = event.frame.loaderId;
          this.committedUrl = event.frame.url + (event.frame.urlFragment ?? '');
          if (event.type === 'BackForwardCacheRestore') {
            this.record(event.frame.loaderId, 'DOMContentLoaded');
            this.record(event.frame.loaderId, 'load');
          }
        });
      }),
      session.on('Page.navigatedWithinDocument', (event) => {
        if (isMain(event.frameId)) this.mark(() => (this.sameDocumentUrl = event.url));
      }),
      session.on('Page.downloadWillBegin', (event) => {
        if (isMain(event.frameId)) this.mark(() => (this.downloadStarted = true));
      }),
      session.on('Page.lifecycleEvent', (event) => {
        if (isMain(event.frameId)) this.mark(() => this.record(event.loaderId, event.name));
      }),
    ];
  }

  private record(loaderId: string, name: string): void {
    let names = this.lifecycle.get(loaderId);
    if (!names) {
      names = new Set();
      this.lifecycle.set(loaderId, names);
    }
    names.add(name);
  }

  private mark(update: () => void): void {
    update();
    for (const waiter of [...this.waiters]) waiter();
  }

  reached(loaderId: string, name: string): boolean {
    return this.lifecycle.get(loaderId)?.has(name) ?? false;
  }

  /** Resolves when `check()` is true, re-checked on every observed event; rejects on timeout/detach. */
  until(check: () => boolean, timeoutMs: number, describe: () => string): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const cleanup = () => {
        this.waiters.delete(waiter);
        clearTimeout(timer);
        offDetach();
      };
      const waiter = () => {
        if (check()) {
          cleanup();
          resolve();
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new NavigationTimeoutError(describe(), timeoutMs));
      }, timeoutMs);
      const offDetach = this.session.onDetach(() => {
        cleanup();
        reject(new Error('The tab closed during navigation'));
      });
      this.waiters.add(waiter);
    });
  }

  dispose(): void {
    for (const off of this.offs) off();
    this.waiters.clear();
  }
}

export class NavigationTimeoutError extends Error {
  override readonly name = 'NavigationTimeoutError';
  constructor(
    readonly what: string,
    readonly timeoutMs: number,
  ) {
    super(`${what} did not finish within ${timeoutMs} ms`);
  }
}
