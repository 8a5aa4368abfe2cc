import { type CdpEvent, type Transport, TransportListeners } from '@argus/cdp';
import { ArgusError } from '@argus/protocol';
import type { ExtensionLink } from './extension-link.js';
import { toTargetInfo, toVersion } from './target-info.js';
import { CDP_ERROR_CODE, RemoteCommandError, toArgusError } from './wire-error.js';
import type { EventParams, TabInfo } from './wire/index.js';

export interface RelayTransportOptions {
  /** Builds the error for a CDP protocol error Chrome returned (the daemon passes its ProtocolError). */
  protocolError?: (method: string, protocolCode: number | undefined, message: string) => Error;
  /** Deadline for one command (defaults to the relay's commandTimeoutMs). */
  timeoutMs?: number;
}

interface TabSession {
  targetId: string;
  tabId: number;
}

/**
 * A CDP Transport whose "browser" is the set of tabs the extension sees. Root-session Target.*
 * methods are emulated with tab operations (the extension cannot speak the browser endpoint);
 * everything sent on a flat session is forwarded to chrome.debugger unchanged.
 */
export class RelayTransport implements Transport {
  private discover = false;
  private autoAttach = false;
  private isClosed = false;
  private readonly tabSessions = new Map<string, TabSession>();
  /** child sessionId -> the tab session it lives under (children arrive via Target.attachedToTarget). */
  private readonly childSessions = new Map<string, string>();
  private readonly tabsByTarget = new Map<string, TabInfo>();
  private readonly listeners = new TransportListeners();
  private readonly disposers: Array<() => void> = [];
  private nodeId: string | undefined;

  constructor(
    private readonly link: ExtensionLink,
    private readonly options: RelayTransportOptions,
    private readonly onDispose: (transport: RelayTransport) => void,
  ) {
    this.nodeId = link.info?.nodeId;
    this.disposers.push(
      link.onEvent((event, params) => this.onLinkEvent(event, params)),
      link.onChange(() => this.onNodeChange()),
    );
  }

  get closed(): boolean {
    return this.isClosed;
  }

  async send(method: string, params: object | undefined, sessionId: string | undefined): Promise<unknown> {
    if (this.isClosed) throw new ArgusError('browser_not_found', 'The relay transport is closed.');
    const p = (params ?? {}) as Record<string, unknown>; // CDP params are plain JSON objects
    try {
      if (sessionId !== undefined) return await this.forward(sessionId, method, p);
      return await this.root(method, p);
    } catch (error) {
      throw this.mapError(method, error);
    }
  }

  onEvent(listener: (event: CdpEvent) => void): () => void {
    return this.listeners.onEvent(listener);
  }

  onClose(listener: (reason: string) => void): () => void {
    return this.listeners.onClose(listener);
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    const sessions = [...this.tabSessions.keys()];
    // release our debugger sessions; a user's tab must not stay under the debugger after we leave
    await Promise.allSettled(
      sessions.map((sessionId) => this.link.send('debugger.detach', { sessionId }, { timeoutMs: 2000 })),
    );
    this.terminate('transport closed');
  }

  /** @internal the relay closes its transports on shutdown */
  terminate(reason: string): void {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const dispose of this.disposers) dispose();
    this.onDispose(this);
    this.listeners.closed(reason);
  }

  private async forward(sessionId: string, method: string, params: Record<string, unknown>): Promise<unknown> {
    if (!this.tabSessions.has(sessionId) && !this.childSessions.has(sessionId)) {
      throw new ArgusError('target_closed', `Session ${sessionId} is not attached (its tab closed or was detached).`);
    }
    const { result } = await this.link.send(
      'cdp.send',
      { sessionId, method, params },
      { timeoutMs: this.options.timeoutMs },
    );
    return result;
  }

  private async root(method: string, p: Record<string, unknown>): Promise<unknown> {
    switch (method) {
      case 'Target.setDiscoverTargets': {
        this.discover = p.discover === true;
        if (this.discover)
          for (const tab of await this.listTabs()) this.emit('Target.targetCreated', { targetInfo: toTargetInfo(tab) });
        return {};
      }
      case 'Target.setAutoAttach':
        // extension mode: auto-attach only to tabs the agent creates; user tabs are attached on demand
        this.autoAttach = p.autoAttach === true;
        return {};
      case 'Target.getTargets':
        return { targetInfos: (await this.listTabs()).map(toTargetInfo) };
      case 'Target.getTargetInfo': {
        const tab = await this.tabFor(String(p.targetId ?? ''));
        return { targetInfo: toTargetInfo(tab) };
      }
      case 'Target.attachToTarget':
        return { sessionId: await this.attach(await this.tabFor(String(p.targetId ?? ''))) };
      case 'Target.detachFromTarget': {
        const sessionId = String(p.sessionId ?? '');
        const session = this.tabSessions.get(sessionId);
        if (!session) throw new ArgusError('target_closed', `No attached session ${sessionId}.`);
        await this.link.send('debugger.detach', { sessionId });
        this.sessionGone(sessionId);
        return {};
      }
      case 'Target.createTarget': {
        const { tab } = await this.link.send('tabs.open', {
          url: typeof p.url === 'string' && p.url ? p.url : 'about:blank',
          active: p.background !== true,
        });
        this.tabsByTarget.set(tab.targetId, tab);
        if (this.autoAttach) await this.attach(tab);
        return { targetId: tab.targetId };
      }
      case 'Target.closeTarget': {
        const tab = await this.tabFor(String(p.targetId ?? ''));
        // `argusForce` is our extension of the protocol: closing a user's own tab needs explicit consent
        await this.link.send('tabs.close', { tabId: tab.tabId, force: p.argusForce === true });
        return { success: true };
      }
      case 'Target.activateTarget': {
        const tab = await this.tabFor(String(p.targetId ?? ''));
        await this.link.send('tabs.activate', { tabId: tab.tabId });
        return {};
      }
      case 'Browser.getVersion': {
        const status = await this.link.send('node.status', {});
        return toVersion(status.userAgent);
      }
      default:
        throw new ArgusError(
          'unsupported',
          `${method} is not available on the browser session in extension mode; send it on a tab session.`,
          {
            details: { method },
          },
        );
    }
  }

  private async attach(tab: TabInfo): Promise<string> {
    const { sessionId, tab: fresh } = await this.link.send('debugger.attach', { tabId: tab.tabId });
    this.tabsByTarget.set(fresh.targetId, fresh);
    this.tabSessions.set(sessionId, { targetId: fresh.targetId, tabId: fresh.tabId });
    this.emit('Target.attachedToTarget', {
      sessionId,
      targetInfo: { ...toTargetInfo(fresh), attached: true },
      waitingForDebugger: false,
    });
    return sessionId;
  }

  private async listTabs(): Promise<TabInfo[]> {
    const { tabs } = await this.link.send('tabs.list', {});
    this.tabsByTarget.clear();
    for (const tab of tabs) this.tabsByTarget.set(tab.targetId, tab);
    return tabs;
  }

  private async tabFor(targetId: string): Promise<TabInfo> {
    const known = this.tabsByTarget.get(targetId);
    if (known) return known;
    const tab = (await this.listTabs()).find((candidate) => candidate.targetId === targetId);
    if (!tab)
      throw new ArgusError('tab_not_found', `No tab with target id ${targetId}. List tabs again: it may have closed.`);
    return tab;
  }

  private onLinkEvent(event: string, params: unknown): void {
    if (event === 'cdp.event') return this.onCdpEvent(params as EventParams<'cdp.event'>); // validated by the link
    if (event === 'session.detached') {
      const { sessionId } = params as EventParams<'session.detached'>;
      if (this.tabSessions.has(sessionId)) this.sessionGone(sessionId);
      return;
    }
    if (event === 'tab.created' || event === 'tab.updated') {
      const { tab } = params as EventParams<'tab.created'>;
      const known = this.tabsByTarget.has(tab.targetId);
      this.tabsByTarget.set(tab.targetId, tab);
      if (this.discover)
        this.emit(known || event === 'tab.updated' ? 'Target.targetInfoChanged' : 'Target.targetCreated', {
          targetInfo: toTargetInfo(tab),
        });
      return;
    }
    if (event === 'tab.removed') {
      const { tabId, targetId } = params as EventParams<'tab.removed'>;
      for (const [id, session] of this.tabSessions) if (session.tabId === tabId) this.sessionGone(id);
      const gone = targetId ?? [...this.tabsByTarget.values()].find((tab) => tab.tabId === tabId)?.targetId;
      if (gone) {
        this.tabsByTarget.delete(gone);
        if (this.discover) this.emit('Target.targetDestroyed', { targetId: gone });
      }
    }
  }

  private onCdpEvent({ sessionId, method, params }: EventParams<'cdp.event'>): void {
    const owner = this.tabSessions.has(sessionId) ? sessionId : this.childSessions.get(sessionId);
    if (owner === undefined) return; // another consumer's session
    if (method === 'Target.attachedToTarget') {
      const child = (params as { sessionId?: string }).sessionId;
      if (child) this.childSessions.set(child, owner);
    } else if (method === 'Target.detachedFromTarget') {
      const child = (params as { sessionId?: string }).sessionId;
      if (child) this.childSessions.delete(child);
    }
    this.dispatch({ method, params, sessionId });
  }

  private sessionGone(sessionId: string): void {
    const session = this.tabSessions.get(sessionId);
    if (!session) return;
    this.tabSessions.delete(sessionId);
    for (const [child, owner] of this.childSessions) {
      if (owner !== sessionId) continue;
      this.childSessions.delete(child);
      this.emit('Target.detachedFromTarget', { sessionId: child }, sessionId);
    }
    this.emit('Target.detachedFromTarget', { sessionId, targetId: session.targetId });
  }

  private onNodeChange(): void {
    const nodeId = this.link.info?.nodeId;
    if (nodeId === this.nodeId) return;
    this.nodeId = nodeId;
    // a different browser took over: none of our sessions exist there
    for (const sessionId of [...this.tabSessions.keys()]) this.sessionGone(sessionId);
  }

  private emit(method: string, params: unknown, sessionId?: string): void {
    this.dispatch({ method, params, sessionId });
  }

  private dispatch(event: CdpEvent): void {
    this.listeners.emit(event);
  }

  private mapError(method: string, error: unknown): Error {
    if (error instanceof RemoteCommandError && error.wire.code === CDP_ERROR_CODE) {
      const code = error.wire.details?.protocolCode;
      const protocolCode = typeof code === 'number' ? code : undefined;
      if (this.options.protocolError) return this.options.protocolError(method, protocolCode, error.wire.message);
    }
    return toArgusError(error);
  }
}
