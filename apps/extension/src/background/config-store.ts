import { LOCAL_KEYS, type RelayConfig } from '../shared/messages.js';

/**
 * Configuration lives in chrome.storage.local so it survives browser restarts: the relay URL, the
 * optional per-launch token (set by a daemon or test), the persistent node id and the pairing token.
 */
let minting: Promise<string> | undefined;

/**
 * The persistent node id, minted once. On a fresh profile the start-up load and the load a storage
 * change triggers (a daemon writing the relay URL right after the worker starts) run together; each
 * minting its own id left the pairing made under one id and the hello sent under the other, so the
 * relay refused it and a relay URL set in the worker's first seconds did not take.
 */
function nodeIdFrom(stored: Record<string, unknown>): Promise<string> {
  if (typeof stored.nodeId === 'string' && stored.nodeId) return Promise.resolve(stored.nodeId);
  minting ??= (async () => {
    const again = (await chrome.storage.local.get(LOCAL_KEYS.nodeId))[LOCAL_KEYS.nodeId];
    if (typeof again === 'string' && again) return again;
    const nodeId = `node-${crypto.randomUUID()}`;
    await chrome.storage.local.set({ [LOCAL_KEYS.nodeId]: nodeId });
    return nodeId;
  })();
  return minting;
}

export async function loadConfig(): Promise<RelayConfig> {
  const stored = await chrome.storage.local.get(Object.values(LOCAL_KEYS));
  const nodeId = await nodeIdFrom(stored);
  return {
    // a missing `enabled` means "connect when a URL is set"; Disconnect stores false explicitly
    enabled: stored.enabled !== false,
    relayUrl: normalizeRelayUrl(stored.relayUrl),
    nodeId,
    pairingToken: typeof stored.pairingToken === 'string' ? stored.pairingToken : undefined,
    launchToken: typeof stored.launchToken === 'string' && stored.launchToken ? stored.launchToken : undefined,
    extensionVersion: chrome.runtime.getManifest().version,
  };
}

/** Accepts http(s):// or ws(s):// and returns the http(s) base; anything else is treated as unset. */
export function normalizeRelayUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.trim()) return undefined;
  try {
    const url = new URL(value.trim());
    if (url.protocol === 'ws:') url.protocol = 'http:';
    if (url.protocol === 'wss:') url.protocol = 'https:';
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

export function savePairingToken(token: string | undefined): Promise<void> {
  return token === undefined
    ? chrome.storage.local.remove(LOCAL_KEYS.pairingToken)
    : chrome.storage.local.set({ [LOCAL_KEYS.pairingToken]: token });
}

/** Runs `listener` when any configuration key changes (popup edits, a test setting the URL, ...). */
export function onConfigChange(listener: () => void): void {
  const watched = new Set<string>([
    LOCAL_KEYS.relayUrl,
    LOCAL_KEYS.launchToken,
    LOCAL_KEYS.enabled,
    LOCAL_KEYS.pairingToken,
  ]);
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && Object.keys(changes).some((key) => watched.has(key))) listener();
  });
}
