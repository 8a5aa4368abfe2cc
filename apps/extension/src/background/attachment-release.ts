import type { NodeState } from '../shared/messages.js';
import type { DebuggerSessions } from './debugger-sessions.js';

/** Hands ended sessions to the offscreen document, which names them in its next hello. */
type Tell = (sessionIds: string[], reason: string) => void;

/**
 * How long the debugger stays on the person's tabs while the relay is away. The relay keeps the
 * commands in flight for the same time (its reconnectGraceMs) and replays them on these sessions;
 * past it nothing will use them, and the tabs would stay under automation with Chrome's bar showing.
 */
export const RELEASE_GRACE_MS = 10_000;

/**
 * Lets go of every tab when the connection ends: at once when the person disconnects (Disconnect,
 * the relay URL cleared), after RELEASE_GRACE_MS when the relay drops and does not come back. The
 * sessions ended while no relay could hear it are told to the next one that connects (in its hello),
 * so its clients attach afresh instead of sending on sessions that no longer exist.
 */
export class AttachmentRelease {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private releasing: Promise<void> | undefined;

  constructor(
    private readonly sessions: DebuggerSessions,
    private readonly tell: Tell,
    private readonly graceMs = RELEASE_GRACE_MS,
  ) {}

  /** Follows the connection's state; resolves once the tabs are let go when the state asks for it. */
  onState(state: NodeState): Promise<void> {
    if (state === 'authenticated_connected') {
      clearTimeout(this.timer);
      this.timer = undefined;
      return Promise.resolve();
    }
    if (state === 'disabled') return this.releaseNow('the extension was disconnected (Disconnect in its popup)');
    if (state === 'needs_relay_url') return this.releaseNow("the extension's relay URL was removed");
    // connecting, reconnecting, pairing, error: the relay may be back within its grace
    if (this.timer === undefined && this.sessions.count > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.releaseNow(
          `the relay was unreachable for ${Math.round(this.graceMs / 1000)} s, so the extension detached`,
        );
      }, this.graceMs);
    }
    return this.releasing ?? Promise.resolve();
  }

  private releaseNow(reason: string): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    // one release at a time: Disconnect reports 'disabled' twice (the worker's and the socket's view)
    this.releasing ??= this.sessions
      .releaseAll()
      .then((ended) => {
        if (ended.length > 0) this.tell(ended, reason);
      })
      .finally(() => (this.releasing = undefined));
    return this.releasing;
  }
}
