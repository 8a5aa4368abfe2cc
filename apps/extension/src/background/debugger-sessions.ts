import { SESSION_KEYS } from '../shared/messages.js';
import { CommandFailure } from './failure.js';

type Emit = (event: string, params: unknown) => void;

interface PersistedSessions {
  /** logical tab session id -> tab id */
  tabs: Record<string, number>;
  /** child (OOPIF / worker) session id -> tab id */
  children: Record<string, number>;
}

/**
 * chrome.debugger allows one attach per tab per extension, but the relay may hand several logical
 * sessions for one tab to different consumers (the daemon, a /cdp client). We attach once per tab,
 * fan tab events out to every logical session, and route child-session events by Chrome's own
 * flat sessionId (DebuggerSession.sessionId, Chrome 125+).
 */
export class DebuggerSessions {
  private readonly tabSessions = new Map<string, number>();
  private readonly children = new Map<string, number>();

  constructor(private readonly emit: Emit) {
    chrome.debugger.onEvent.addListener((source, method, params) => this.onEvent(source, method, params));
    chrome.debugger.onDetach.addListener((source, reason) => {
      if (source.tabId !== undefined) this.tabGone(source.tabId, `debugger detached: ${reason}`);
    });
  }

  get count(): number {
    return this.tabSessions.size;
  }

  isAttached(tabId: number): boolean {
    for (const id of this.tabSessions.values()) if (id === tabId) return true;
    return false;
  }

  async attach(tabId: number): Promise<string> {
    if (!this.isAttached(tabId)) {
      try {
        await chrome.debugger.attach({ tabId }, '1.3');
      } catch (error) {
        // after a service-worker restart the tab may still be attached by us: keep using it
        if (!/already attached/i.test(String((error as Error).message))) throw CommandFailure.from(error);
      }
    }
    const sessionId = `tab-${tabId}-${crypto.randomUUID().slice(0, 8)}`;
    this.tabSessions.set(sessionId, tabId);
    await this.persist();
    return sessionId;
  }

  async detach(sessionId: string): Promise<void> {
    const tabId = this.tabSessions.get(sessionId);
    if (tabId === undefined) return;
    this.tabSessions.delete(sessionId);
    if (!this.isAttached(tabId)) {
      for (const [child, owner] of this.children) if (owner === tabId) this.children.delete(child);
      await chrome.debugger.detach({ tabId }).catch(() => {});
    }
    await this.persist();
  }

  async send(sessionId: string, method: string, params: Record<string, unknown> | undefined): Promise<unknown> {
    const tabId = this.tabSessions.get(sessionId);
    const target: chrome.debugger.DebuggerSession | undefined =
      tabId !== undefined
        ? { tabId }
        : this.children.has(sessionId)
          ? { tabId: this.children.get(sessionId) ?? -1, sessionId }
          : undefined;
    if (!target)
      throw new CommandFailure(
        'target_closed',
        `Session ${sessionId} is not attached; its tab closed or was detached.`,
      );
    try {
      return (await chrome.debugger.sendCommand(target, method, params)) ?? {};
    } catch (error) {
      throw CommandFailure.from(error);
    }
  }

  /**
   * Detaches from every tab and forgets every session: the person pressed Disconnect, or the relay
   * stayed away past its grace. Returns the logical sessions that ended, for the next relay to hear.
   */
  async releaseAll(): Promise<string[]> {
    const ended = [...this.tabSessions.keys()];
    const tabIds = new Set(this.tabSessions.values());
    // forgotten first: a command arriving meanwhile fails with target_closed instead of driving the tab
    this.tabSessions.clear();
    this.children.clear();
    await this.persist();
    // also tabs our record lost (a worker restart mid-write); detach fails harmlessly where we are not attached
    for (const target of await chrome.debugger.getTargets())
      if (target.attached && target.tabId !== undefined) tabIds.add(target.tabId);
    await Promise.all([...tabIds].map((tabId) => chrome.debugger.detach({ tabId }).catch(() => undefined)));
    return ended;
  }

  /** Restores the maps after a service-worker restart and reports sessions that did not survive. */
  async reconcile(): Promise<void> {
    const stored = (await chrome.storage.session.get(SESSION_KEYS.sessions))[SESSION_KEYS.sessions] as
      | PersistedSessions
      | undefined; // our own record
    if (!stored) return;
    const attachedTabs = new Set(
      (await chrome.debugger.getTargets()).filter((t) => t.attached && t.tabId !== undefined).map((t) => t.tabId),
    );
    for (const [sessionId, tabId] of Object.entries(stored.tabs)) {
      if (attachedTabs.has(tabId)) this.tabSessions.set(sessionId, tabId);
      else this.emit('session.detached', { sessionId, reason: 'lost while the extension restarted' });
    }
    for (const [sessionId, tabId] of Object.entries(stored.children))
      if (this.isAttached(tabId)) this.children.set(sessionId, tabId);
    await this.persist();
  }

  private onEvent(source: chrome.debugger.DebuggerSession, method: string, params: object | undefined): void {
    const tabId = source.tabId;
    if (tabId === undefined) return;
    if (method === 'Target.attachedToTarget' || method === 'Target.detachedFromTarget') {
      const child = (params as { sessionId?: string } | undefined)?.sessionId; // CDP guarantees the field
      if (child && method === 'Target.attachedToTarget') this.children.set(child, tabId);
      if (child && method === 'Target.detachedFromTarget') this.children.delete(child);
      void this.persist();
    }
    if (source.sessionId) return this.emit('cdp.event', { sessionId: source.sessionId, method, params: params ?? {} });
    for (const [sessionId, owner] of this.tabSessions)
      if (owner === tabId) this.emit('cdp.event', { sessionId, method, params: params ?? {} });
  }

  /** The tab closed or the debugger was detached (e.g. the user dismissed the debugging bar). */
  tabGone(tabId: number, reason: string): void {
    let changed = false;
    for (const [child, owner] of this.children) if (owner === tabId) this.children.delete(child);
    for (const [sessionId, owner] of [...this.tabSessions]) {
      if (owner !== tabId) continue;
      this.tabSessions.delete(sessionId);
      changed = true;
      this.emit('session.detached', { sessionId, reason });
    }
    if (changed) void this.persist();
  }

  private persist(): Promise<void> {
    const value: PersistedSessions = {
      tabs: Object.fromEntries(this.tabSessions),
      children: Object.fromEntries(this.children),
    };
    return chrome.storage.session.set({ [SESSION_KEYS.sessions]: value });
  }
}
