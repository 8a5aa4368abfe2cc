import { SESSION_KEYS } from '../shared/messages.js';

/**
 * Side panel: Pause / Resume the agent on the active tab. The worker records the state and tells
 * the daemon, which holds the agent's commands on a paused tab until it is resumed.
 */
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T; // ids are in sidepanel.html

async function activeTab(): Promise<chrome.tabs.Tab | undefined> {
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  return tab;
}

async function pausedTabs(): Promise<Record<string, string>> {
  const key = SESSION_KEYS.paused;
  return ((await chrome.storage.session.get(key))[key] ?? {}) as Record<string, string>; // written by our worker
}

async function render(): Promise<void> {
  const tab = await activeTab();
  const paused = tab?.id !== undefined && String(tab.id) in (await pausedTabs());
  $('tab').textContent = tab?.title ?? '';
  $('state').textContent = paused ? 'Agent paused on this tab' : 'Agent may act on this tab';
  $('state').dataset.paused = String(paused);
  $<HTMLButtonElement>('pause').textContent = paused ? 'Resume' : 'Pause';
}

$('pause').addEventListener('click', () => {
  void (async () => {
    const tab = await activeTab();
    if (tab?.id === undefined) return;
    const paused = String(tab.id) in (await pausedTabs());
    await chrome.runtime.sendMessage({ type: 'pause', tabId: tab.id, paused: !paused });
  })();
});
chrome.storage.onChanged.addListener(() => void render());
chrome.tabs.onActivated.addListener(() => void render());
void render();
