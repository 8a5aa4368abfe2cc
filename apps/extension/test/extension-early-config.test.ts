import { randomBytes } from 'node:crypto';
import { startRelay, type RelayServer } from '@argus/relay';
import type { Transport } from '@argus/cdp';
import { evaluateInWorker, findServiceWorker } from '@argus/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { launchUserChromium } from './helpers/chromium.js';

/** Resolves on the relay's own status event once an extension is connected (bounded, no polling). */
function connected(relay: RelayServer, timeoutMs: number): Promise<boolean> {
  if (relay.status().extensionConnected) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish(false), timeoutMs);
    const off = relay.onStatus((status) => status.extensionConnected && finish(true));
    function finish(value: boolean) {
      clearTimeout(timer);
      off();
      resolve(value);
    }
  });
}

/**
 * Writes settings into the extension's chrome.storage.local over CDP (Extensions.setStorageItems on
 * the worker's session). Unlike evaluating chrome.storage.local.set in the worker, this works before
 * the worker's script has run (for the first seconds `chrome` is not even defined there), which is
 * the earliest a script can hand the extension its relay URL.
 */
async function writeStorage(
  cdp: Transport,
  sessionId: string,
  extensionId: string,
  values: Record<string, unknown>,
): Promise<void> {
  // the worker target can be listed a moment before Chrome has the extension registered for CDP
  for (let attempt = 0; ; attempt++) {
    try {
      await cdp.send('Extensions.setStorageItems', { id: extensionId, storageArea: 'local', values }, sessionId);
      return;
    } catch (error) {
      if (attempt >= 50 || !/Extension not found/.test((error as Error).message)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

describe('a relay URL written as soon as the service worker starts is applied (issue 13)', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('written before the worker script runs: the extension pairs with the launch token and connects, one node id throughout', async () => {
    const launchToken = randomBytes(24).toString('base64url');
    const relay = await startRelay({ port: 0, daemonToken: randomBytes(24).toString('base64url'), launchToken });
    cleanups.push(() => relay.close());
    const user = await launchUserChromium();
    cleanups.push(() => user.close());
    const cdp = user.transport;

    const worker = await findServiceWorker(cdp);
    // the CDP client's own types stop at unknown: these are the shapes CDP documents for these methods
    const { sessionId } = (await cdp.send(
      'Target.attachToTarget',
      { targetId: worker.targetId, flatten: true },
      undefined,
    )) as { sessionId: string };
    const ready = (await cdp.send(
      'Runtime.evaluate',
      { expression: 'typeof chrome?.storage?.local', returnByValue: true },
      sessionId,
    )) as { result: { value?: unknown } };
    await writeStorage(cdp, sessionId, worker.extensionId, { relayUrl: relay.url, launchToken });
    // no sleep before or after the write: the extension must take it from here on its own
    const ok = await connected(relay, 30_000);
    // The relay counts the extension connected when it sends its welcome; the extension records
    // `authenticated_connected` once it has read that welcome (offscreen document -> worker ->
    // storage), a moment later. Wait for that record on its own change event (bounded), then read.
    const state = (await evaluateInWorker(
      cdp,
      worker.targetId,
      `new Promise((resolve) => {
      const done = () => Promise.all([chrome.storage.session.get('status'), chrome.storage.local.get(null)]).then(resolve);
      const connectedState = (status) => status && status.state === 'authenticated_connected';
      chrome.storage.onChanged.addListener((changes, area) => { if (area === 'session' && changes.status && connectedState(changes.status.newValue)) done(); });
      chrome.storage.session.get('status').then(({ status }) => { if (connectedState(status)) done(); });
      setTimeout(done, 10000);
    })`,
    )) as [{ status?: { state?: string } }, { nodeId?: string; relayUrl?: string }];
    expect(
      ok,
      `extension state: ${JSON.stringify(state)} (chrome.storage at write time: ${String(ready.result.value)})`,
    ).toBe(true);
    expect(state[0].status?.state).toBe('authenticated_connected');
    expect(state[1].relayUrl).toBe(relay.url);
    // the id the relay paired and the id the extension keeps are one (two ids minted at start once broke this)
    expect(relay.status().nodeId).toBe(state[1].nodeId);
  });
});
