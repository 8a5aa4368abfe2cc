import { ArgusError } from '@argus/protocol';
import type { Session } from './session.js';

/** The requests of one tab (incl. its OOPIFs) still in flight, for network-idle waits. */
export class InflightRequests {
  /** In-flight request key -> the loader (document) that issued it. */
  readonly inflight = new Map<string, string>();
  private readonly listeners = new Set<() => void>();

  /** Follows the requests of `session` (the tab's or an OOPIF's); returns the unsubscribers. */
  track(session: Session): Array<() => void> {
    const notify = () => {
      for (const listener of [...this.listeners]) listener();
    };
    const done = (requestId: string) => {
      if (this.inflight.delete(`${session.id}:${requestId}`)) notify();
    };
    return [
      session.on('Network.requestWillBeSent', (event) => {
        this.inflight.set(`${session.id}:${event.requestId}`, event.loaderId);
        notify();
      }),
      session.on('Network.loadingFinished', (event) => done(event.requestId)),
      session.on('Network.loadingFailed', (event) => done(event.requestId)),
      session.on('Network.requestServedFromCache', (event) => done(event.requestId)),
      session.on('Page.frameNavigated', ({ frame }) => {
        // Chrome never finishes some requests of a document that is gone (e.g. a fetch whose body
        // was never read): forget everything this session's old documents left behind
        if (frame.parentId) return;
        let dropped = false;
        for (const [key, loaderId] of this.inflight) {
          if (key.startsWith(`${session.id}:`) && loaderId !== frame.loaderId) {
            this.inflight.delete(key);
            dropped = true;
          }
        }
        if (dropped) notify();
      }),
    ];
  }

  /** Resolves once no request has been in flight for `idleMs` (event driven); fails when `session` detaches. */
  waitForIdle(idleMs: number, timeoutMs: number, session: Session, targetId: string): Promise<void> {
    return new Promise((resolve, reject) => {
      let idleTimer: NodeJS.Timeout | undefined;
      const cleanup = () => {
        clearTimeout(idleTimer);
        clearTimeout(deadline);
        this.listeners.delete(check);
        offDetach();
      };
      const check = () => {
        clearTimeout(idleTimer);
        idleTimer = undefined;
        if (this.inflight.size === 0) {
          idleTimer = setTimeout(() => {
            cleanup();
            resolve();
          }, idleMs);
        }
      };
      const deadline = setTimeout(() => {
        cleanup();
        reject(
          new ArgusError(
            'timeout',
            `The network did not go idle within ${timeoutMs} ms (${this.inflight.size} requests still in flight).`,
          ),
        );
      }, timeoutMs);
      const offDetach = session.onDetach(() => {
        cleanup();
        reject(new ArgusError('target_closed', `Tab ${targetId} closed while waiting for network idle.`));
      });
      this.listeners.add(check);
      check();
    });
  }
}
