import type { TabInfo } from '@argus/relay/wire';
import { SESSION_KEYS } from '../shared/messages.js';
import type { DebuggerSessions } from './debugger-sessions.js';
import { CommandFailure } from './failure.js';

type Emit = (event: string, params: unknown) => void;

const GROUP_TITLE = 'Argus';

/**
 * The tabs the relay can see. Tabs an agent opened are remembered (chrome.storage.session, so a
 * service-worker restart keeps them) and grouped; only those may be closed without `force`.
 */
export class Tabs {
  private agentTabs = new Set<number>();
  private groupId: number | undefined;

  constructor(
    private readonly sessions: DebuggerSessions,
    private readonly emit: Emit,
  ) {
    chrome.tabs.onCreated.addListener((tab) => void this.announce('tab.created', tab));
    chrome.tabs.onUpdated.addListener((_tabId, change, tab) => {
      if (change.url !== undefined || change.title !== undefined || change.status === 'complete')
        void this.announce('tab.updated', tab);
    });
    // the tab the person has in front changed: every tab of that window (the one shown before too)
    chrome.tabs.onActivated.addListener(({ windowId }) => void this.announceWindow(windowId));
    chrome.tabs.onRemoved.addListener((tabId) => {
      this.sessions.tabGone(tabId, 'tab closed');
      if (this.agentTabs.delete(tabId)) void this.persist();
      this.emit('tab.removed', { tabId });
    });
  }

  async reconcile(): Promise<void> {
    const stored = (await chrome.storage.session.get(SESSION_KEYS.agentTabs))[SESSION_KEYS.agentTabs];
    const open = new Set((await chrome.tabs.query({})).map((tab) => tab.id));
    this.agentTabs = new Set(
      Array.isArray(stored) ? stored.filter((id): id is number => typeof id === 'number' && open.has(id)) : [],
    );
    await this.persist();
  }

  async list(): Promise<TabInfo[]> {
    const [tabs, targets] = await Promise.all([chrome.tabs.query({}), chrome.debugger.getTargets()]);
    const targetByTab = new Map(targets.filter((t) => t.tabId !== undefined).map((t) => [t.tabId, t.id]));
    return tabs.flatMap((tab) => {
      const targetId = tab.id === undefined ? undefined : targetByTab.get(tab.id);
      return tab.id === undefined || !targetId ? [] : [this.info(tab, targetId)];
    });
  }

  async get(tabId: number): Promise<TabInfo> {
    const tab = (await this.list()).find((candidate) => candidate.tabId === tabId);
    if (!tab) throw new CommandFailure('tab_not_found', `No tab ${tabId}; it may have closed.`);
    return tab;
  }

  async open(url: string, active: boolean | undefined): Promise<TabInfo> {
    const tab = await chrome.tabs.create({ url, active: active ?? true });
    if (tab.id === undefined) throw new CommandFailure('internal', 'Chrome created a tab without an id.');
    this.agentTabs.add(tab.id);
    await this.persist();
    await this.group(tab.id);
    return this.get(tab.id);
  }

  async close(tabId: number, force: boolean | undefined): Promise<boolean> {
    if (!this.agentTabs.has(tabId) && force !== true) {
      throw new CommandFailure(
        'forbidden_scope',
        `Tab ${tabId} was opened by the user, not by an agent; Argus closes only tabs it opened (pass force to override).`,
      );
    }
    try {
      await chrome.tabs.remove(tabId);
    } catch (error) {
      throw CommandFailure.from(error);
    }
    return true;
  }

  async activate(tabId: number): Promise<void> {
    try {
      const tab = await chrome.tabs.update(tabId, { active: true });
      if (tab?.windowId !== undefined) await chrome.windows.update(tab.windowId, { focused: true }).catch(() => {});
    } catch (error) {
      throw CommandFailure.from(error);
    }
  }

  get count(): Promise<number> {
    return chrome.tabs.query({}).then((tabs) => tabs.length);
  }

  private info(tab: chrome.tabs.Tab, targetId: string): TabInfo {
    const tabId = tab.id ?? -1;
    return {
      tabId,
      targetId,
      ...(tab.windowId === undefined ? {} : { windowId: tab.windowId }),
      url: tab.pendingUrl ?? tab.url ?? '',
      title: tab.title ?? '',
      active: tab.active,
      agentOpened: this.agentTabs.has(tabId),
      attached: this.sessions.isAttached(tabId),
    };
  }

  private async announce(event: 'tab.created' | 'tab.updated', tab: chrome.tabs.Tab): Promise<void> {
    if (tab.id === undefined) return;
    const targets = await chrome.debugger.getTargets();
    const targetId = targets.find((t) => t.tabId === tab.id)?.id;
    if (targetId) this.emit(event, { tab: this.info(tab, targetId) });
  }

  private async announceWindow(windowId: number): Promise<void> {
    const [tabs, targets] = await Promise.all([chrome.tabs.query({ windowId }), chrome.debugger.getTargets()]);
    for (const tab of tabs) {
      const targetId = targets.find((t) => t.tabId !== undefined && t.tabId === tab.id)?.id;
      if (targetId) this.emit('tab.updated', { tab: this.info(tab, targetId) });
    }
  }

  /** Agent tabs share one "Argus" group; headless builds without tab groups just skip it. */
  private async group(tabId: number): Promise<void> {
    if (!chrome.tabGroups || !chrome.tabs.group) return;
    try {
      const groupId = await chrome.tabs.group(
        this.groupId === undefined ? { tabIds: [tabId] } : { tabIds: [tabId], groupId: this.groupId },
      );
      if (groupId !== this.groupId) {
        this.groupId = groupId;
        await chrome.tabGroups.update(groupId, { title: GROUP_TITLE, color: 'purple' });
      }
    } catch {
      // the remembered group was closed, or grouping is unsupported here: retry once fresh
      if (this.groupId === undefined) return;
      this.groupId = undefined;
      await this.group(tabId);
    }
  }

  private persist(): Promise<void> {
    return chrome.storage.session.set({ [SESSION_KEYS.agentTabs]: [...this.agentTabs] });
  }
}
