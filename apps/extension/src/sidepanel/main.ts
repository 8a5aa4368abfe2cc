import type { PanelFeedEntry, PanelInbox } from '../background/panel-state.js';
import { type NodeStatus, SESSION_KEYS } from '../shared/messages.js';
import { feedItem, inboxItems } from './render.js';

/**
 * Side panel: Pause / Resume the agent on the watched tab (the daemon holds its commands there until
 * resumed), the agent's commands on the user's tabs as they run (that tab, or all), and the unread
 * inbox with Clear. The worker keeps all of it in session storage; this page renders it on every
 * storage change. `sidepanel.html?tab=N` pins the panel to tab N (the page opened in a tab of its own).
 */
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T; // ids are in sidepanel.html
const pinned = Number(new URLSearchParams(location.search).get('tab')) || undefined;

async function watchedTab(): Promise<chrome.tabs.Tab | undefined> {
  if (pinned !== undefined) return chrome.tabs.get(pinned).catch(() => undefined);
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  return tab;
}

async function targetIdOf(tabId: number | undefined): Promise<string | undefined> {
  if (tabId === undefined) return undefined;
  return (await chrome.debugger.getTargets()).find((target) => target.tabId === tabId)?.id;
}

async function session<T>(key: string): Promise<T | undefined> {
  return (await chrome.storage.session.get(key))[key] as T | undefined; // written by our worker
}

async function render(): Promise<void> {
  const tab = await watchedTab();
  const paused =
    tab?.id !== undefined && String(tab.id) in ((await session<Record<string, string>>(SESSION_KEYS.paused)) ?? {});
  const status = await session<NodeStatus>(SESSION_KEYS.status);
  $('connection').textContent =
    status?.state === 'authenticated_connected' ? 'Connected to Argus' : 'Not connected to an Argus daemon';
  $('tab').textContent = tab?.title ?? '';
  $('state').textContent = paused ? 'Agent paused on this tab' : 'Agent may act on this tab';
  $('state').dataset.paused = String(paused);
  $<HTMLButtonElement>('pause').textContent = paused ? 'Resume' : 'Pause';

  const all = $<HTMLInputElement>('all-tabs').checked;
  const targetId = all ? undefined : await targetIdOf(tab?.id);
  const feed = ((await session<PanelFeedEntry[]>(SESSION_KEYS.feed)) ?? []).filter(
    (entry) => all || entry.targetId === targetId,
  );
  $('feed').replaceChildren(...feed.map(feedItem));
  $('feed-empty').textContent = feed.length
    ? ''
    : all
      ? 'No agent commands yet.'
      : 'No agent commands on this tab yet.';

  const inbox = (await session<PanelInbox>(SESSION_KEYS.inbox)) ?? { unread: 0, items: [] };
  $('unread').textContent = `(${inbox.unread} unread)`;
  $('inbox').replaceChildren(...inboxItems(inbox));
  $('inbox-empty').textContent = inbox.items.length ? '' : 'Nothing unread.';
  $<HTMLButtonElement>('inbox-clear').disabled = inbox.unread === 0;
}

$('pause').addEventListener('click', () => {
  void (async () => {
    const tab = await watchedTab();
    if (tab?.id === undefined) return;
    const paused = String(tab.id) in ((await session<Record<string, string>>(SESSION_KEYS.paused)) ?? {});
    await chrome.runtime.sendMessage({ type: 'pause', tabId: tab.id, paused: !paused });
  })();
});
$('inbox-clear').addEventListener('click', () => void chrome.runtime.sendMessage({ type: 'inbox.clear' }));
$('all-tabs').addEventListener('change', () => void render());
chrome.storage.onChanged.addListener(() => void render());
chrome.tabs.onActivated.addListener(() => void render());
void render();
