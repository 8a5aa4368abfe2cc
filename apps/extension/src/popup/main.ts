import { normalizeRelayUrl } from '../background/config-store.js';
import { LOCAL_KEYS, SESSION_KEYS, type NodeStatus } from '../shared/messages.js';

/** Popup: shows the node's state and edits the relay URL; the worker reacts to storage changes. */
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T; // ids are in popup.html

const LABELS: Record<NodeStatus['state'], string> = {
  disabled: 'Disconnected',
  needs_relay_url: 'Set the relay URL to connect',
  pairing: 'Pairing…',
  waiting_for_pair_approval: 'Waiting for pairing approval',
  connecting: 'Connecting…',
  authenticated_connected: 'Connected',
  reconnecting: 'Reconnecting…',
  error: 'Error',
};

async function render(): Promise<void> {
  const status = (await chrome.storage.session.get(SESSION_KEYS.status))[SESSION_KEYS.status] as NodeStatus | undefined; // written by our worker
  const local = await chrome.storage.local.get([LOCAL_KEYS.relayUrl, LOCAL_KEYS.nodeId]);
  const state = status?.state ?? 'needs_relay_url';
  $('state').textContent = LABELS[state];
  $('state').dataset.state = state;
  $('code').textContent = status?.pairingCode
    ? `Approve code ${status.pairingCode} with: argus pair ${status.pairingCode}`
    : '';
  $('error').textContent = status?.lastError ?? '';
  $('node').textContent = typeof local.nodeId === 'string' ? local.nodeId : '';
  const input = $<HTMLInputElement>('relay-url');
  if (document.activeElement !== input) input.value = typeof local.relayUrl === 'string' ? local.relayUrl : '';
}

$('connect').addEventListener('click', () => {
  const value = $<HTMLInputElement>('relay-url').value;
  const relayUrl = normalizeRelayUrl(value);
  if (!relayUrl) {
    $('error').textContent = 'Enter a URL such as http://127.0.0.1:8787';
    return;
  }
  void chrome.storage.local.set({ [LOCAL_KEYS.relayUrl]: relayUrl, [LOCAL_KEYS.enabled]: true });
});
$('disconnect').addEventListener('click', () => void chrome.storage.local.set({ [LOCAL_KEYS.enabled]: false }));
/** `popup.html?tab=N` pins the button to tab N (the popup opened in a tab of its own); else the active tab. */
const pinned = Number(new URLSearchParams(location.search).get('tab')) || undefined;
$('annotate').addEventListener('click', () => {
  const tab = pinned ?? chrome.tabs.query({ active: true, lastFocusedWindow: true }).then(([active]) => active?.id);
  void Promise.resolve(tab).then(async (tabId) => {
    if (tabId === undefined) return;
    await chrome.runtime.sendMessage({ type: 'annotate', tabId }).catch(() => undefined); // no reply is sent
    window.close();
  });
});
chrome.storage.onChanged.addListener(() => void render());
void render();
