import { RELAY_PORT, SESSION_KEYS, type NodeStatus, type ToOffscreen, type ToWorker } from '../shared/messages.js';
import { AttachmentRelease } from './attachment-release.js';
import { loadConfig, onConfigChange, savePairingToken } from './config-store.js';
import { DebuggerSessions } from './debugger-sessions.js';
import { createExecutor } from './executor.js';
import { ensureOffscreen } from './offscreen-manager.js';
import { PanelState } from './panel-state.js';
import { Tabs } from './tabs.js';

/**
 * Service worker: owns chrome.debugger, tabs and storage. The relay socket itself lives in the
 * offscreen document (MV3 suspends idle workers); the two talk over one runtime port, and the
 * offscreen document's keep-alive messages keep this worker awake while connected.
 */
let port: chrome.runtime.Port | undefined;
let nodeId = '';
const early: ToOffscreen[] = [];

function post(message: ToOffscreen): void {
  if (port) port.postMessage(message);
  else if (message.type !== 'event' || early.length < 200) early.push(message); // e.g. reconcile results before the port is up
}
const emit = (event: string, params: unknown) => post({ type: 'event', event, params });

const sessions = new DebuggerSessions(emit);
const tabs = new Tabs(sessions, emit);
const execute = createExecutor({ tabs, sessions, nodeId: () => nodeId });
const panel = new PanelState();
const release = new AttachmentRelease(sessions, (sessionIds, reason) =>
  post({ type: 'sessions-ended', sessionIds, reason }),
);

/** Bumped by each pushConfig(); a load that a later one overtook must not post its older view. */
let configLoads = 0;

async function pushConfig(): Promise<void> {
  // At start the start-up load and the load a storage change triggers (a daemon writing the relay URL
  // as soon as the worker runs) overlap; storage reads answer in order, so the last one started has
  // the newest settings, and an earlier one finishing after it would put the old (URL-less) view back.
  const load = ++configLoads;
  const config = await loadConfig();
  if (load !== configLoads) return;
  nodeId = config.nodeId;
  port?.postMessage({ type: 'config', config } satisfies ToOffscreen);
  if (config.enabled && config.relayUrl) return ensureOffscreen();
  // the popup says Disconnected only once no tab is left under the debugger
  const status: NodeStatus = config.relayUrl
    ? { state: 'disabled', relayUrl: config.relayUrl, since: Date.now() }
    : { state: 'needs_relay_url', since: Date.now() };
  await release.onState(status.state);
  if (load === configLoads) await setStatus(status);
}

function setStatus(status: NodeStatus): Promise<void> {
  return chrome.storage.session.set({ [SESSION_KEYS.status]: status });
}

/**
 * A daemon forgets every pause when the extension disconnects (nobody could press Resume), so on
 * each (re)connection the pauses the person still has in this browser are told to it again.
 */
let statuses = Promise.resolve();
/** One status at a time, in order: a release awaited for 'disabled' must not land after a later 'connecting'. */
function onStatus(status: NodeStatus): Promise<void> {
  statuses = statuses.then(() => applyStatus(status)).catch(() => undefined);
  return statuses;
}

async function applyStatus(status: NodeStatus): Promise<void> {
  await release.onState(status.state);
  await setStatus(status);
  if (status.state !== 'authenticated_connected') return;
  for (const [tabId, targetId] of Object.entries(await pausedTabs()))
    emit('tab.paused', { tabId: Number(tabId), targetId, paused: true });
}

async function pausedTabs(): Promise<Record<string, string>> {
  const key = SESSION_KEYS.paused;
  return ((await chrome.storage.session.get(key))[key] ?? {}) as Record<string, string>; // written by setPaused only
}

chrome.runtime.onConnect.addListener((connected) => {
  if (connected.name !== RELAY_PORT || connected.sender?.url !== chrome.runtime.getURL('offscreen.html')) return;
  port = connected;
  connected.onDisconnect.addListener(() => {
    if (port === connected) port = undefined;
  });
  connected.onMessage.addListener((message: ToWorker) => {
    if (message.type === 'command') void execute(message.frame).then((frame) => post({ type: 'result', frame }));
    else if (message.type === 'status') void onStatus(message.status);
    else if (message.type === 'relay-event') panel.receive(message.event, message.params);
    else if (message.type === 'paired') void savePairingToken(message.pairingToken);
    else if (message.type === 'unpaired') void savePairingToken(undefined);
  });
  for (const message of early.splice(0)) connected.postMessage(message);
  void pushConfig();
});

onConfigChange(() => void pushConfig());

/**
 * "Annotate this page" (popup): asks the daemon, over the relay, to run the picker on the tab; what
 * the person sends lands in the agent inbox. The daemon runs it: the picker and locators are its code.
 */
async function requestAnnotation(tabId: number): Promise<void> {
  const tab = await tabs.get(tabId);
  emit('page.annotate', { tabId, targetId: tab.targetId });
}
chrome.runtime.onMessage.addListener((message: unknown, sender) => {
  // only our own pages ask (popup, side panel, also when opened in a tab), never a content script
  if (sender.id !== chrome.runtime.id || !sender.url?.startsWith(chrome.runtime.getURL(''))) return;
  const request = message as { type?: unknown; tabId?: unknown };
  if (request.type === 'annotate' && typeof request.tabId === 'number') void requestAnnotation(request.tabId);
  if (request.type === 'inbox.clear') emit('inbox.clear', {});
  const pause = message as { type?: unknown; tabId?: unknown; paused?: unknown };
  if (pause.type === 'pause' && typeof pause.tabId === 'number' && typeof pause.paused === 'boolean')
    void setPaused(pause.tabId, pause.paused);
});

/**
 * Pause / Resume (side panel): the daemon holds the agent's commands on a paused tab until it is
 * resumed. The state is kept in session storage for the panel to show.
 */
async function setPaused(tabId: number, paused: boolean): Promise<void> {
  const tab = await tabs.get(tabId);
  const key = SESSION_KEYS.paused;
  const current = await pausedTabs();
  if (paused) current[String(tabId)] = tab.targetId;
  else delete current[String(tabId)];
  await chrome.storage.session.set({ [key]: current });
  emit('tab.paused', { tabId, targetId: tab.targetId, paused });
}
// a closed tab's pause goes with it (it would otherwise be told to the next daemon)
chrome.tabs.onRemoved.addListener((tabId) => {
  void pausedTabs().then((current) => {
    if (!(String(tabId) in current)) return;
    delete current[String(tabId)];
    return chrome.storage.session.set({ [SESSION_KEYS.paused]: current });
  });
});

// Reconcile first so a replayed command never sees half-restored maps.
const ready = Promise.all([tabs.reconcile(), sessions.reconcile()]).then(pushConfig);
void ready;
chrome.runtime.onStartup.addListener(() => void ready);
chrome.runtime.onInstalled.addListener(() => void ready);
