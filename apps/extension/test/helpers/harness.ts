import { randomBytes } from 'node:crypto';
import type { Session } from '@argus/cdp';
import { startRelay, type RelayOptions, type RelayServer } from '@argus/relay';
import { evaluateInWorker, findServiceWorker, waitUntil } from '@argus/test-kit';
import { launchUserChromium, type UserChromium } from './chromium.js';
import { OpsClient } from './ops-client.js';

export { waitUntil };

export interface Harness {
  chromium: UserChromium['chrome'];
  /** The test's own browser-level CDP session (what a user's DevTools would use). */
  browser: Session;
  readonly relay: RelayServer;
  daemonToken: string;
  launchToken: string;
  extensionId: string;
  /** Evaluates an expression (awaited) in the extension's service worker and returns its value. */
  evalInWorker(expression: string): Promise<unknown>;
  /**
   * Closes the relay, stays down `downMs` (or until `whileDown` resolves), and starts a new one on the
   * same port (a daemon restart).
   */
  restartRelay(options?: {
    downMs?: number;
    whileDown?: () => Promise<void>;
    launchToken?: string | undefined;
  }): Promise<RelayServer>;
  close(): Promise<void>;
}

/**
 * Opens a tab of the person's (`url`, as a user would, through the test's own CDP session) and finds
 * it in the extension's tab list: its CDP target id and its chrome.tabs id.
 */
export async function openUserTab(harness: Harness, url: string): Promise<{ targetId: string; tabId: number }> {
  const { targetId } = await harness.browser.send('Target.createTarget', { url });
  const ops = await OpsClient.connect(harness.relay.url, harness.daemonToken);
  const listed = await ops.call('list-1', 'tabs.list', {});
  ops.close();
  const tab = (listed.result as { tabs: Array<{ tabId: number; targetId: string }> }).tabs.find(
    (t) => t.targetId === targetId,
  );
  if (!tab) throw new Error('user tab not listed');
  return { targetId, tabId: tab.tabId };
}

const log: RelayOptions['log'] = process.env.ARGUS_TEST_DEBUG
  ? (level, message, fields) => console.log(`[relay ${level}] ${message}`, fields ?? '')
  : undefined;

/**
 * Relay + Chromium with the built extension, configured the way a daemon does it: the relay URL and
 * the per-launch token are written into chrome.storage.local by evaluating in the service worker.
 */
export async function startHarness(): Promise<Harness> {
  const daemonToken = randomBytes(24).toString('base64url');
  const launchToken = randomBytes(24).toString('base64url');
  const relayOptions = (port: number, token: string | undefined): RelayOptions => ({
    port,
    daemonToken,
    ...(token ? { launchToken: token } : {}),
    ...(log ? { log } : {}),
  });
  let relay = await startRelay(relayOptions(0, launchToken));
  let user: UserChromium | undefined;
  try {
    const opened = await launchUserChromium();
    user = opened;
    const worker = await findServiceWorker(opened.transport);
    const evalInWorker = (expression: string) => evaluateInWorker(opened.transport, worker.targetId, expression);
    await evalInWorker(`chrome.storage.local.set(${JSON.stringify({ relayUrl: relay.url, launchToken })})`);
    try {
      await waitUntil(() => relay.status().extensionConnected, 15_000, 'the extension to connect');
    } catch (error) {
      const state = await evalInWorker(
        'Promise.all([chrome.storage.session.get(null), chrome.storage.local.get(null)])',
      );
      throw new Error(`${(error as Error).message}; extension state: ${JSON.stringify(state)}`);
    }
    return {
      chromium: opened.chrome,
      browser: opened.browser,
      get relay() {
        return relay;
      },
      daemonToken,
      launchToken,
      extensionId: worker.extensionId,
      evalInWorker,
      async restartRelay(options = {}) {
        const port = relay.port;
        await relay.close();
        if (options.downMs) await new Promise((resolve) => setTimeout(resolve, options.downMs));
        await options.whileDown?.();
        relay = await startRelay(relayOptions(port, 'launchToken' in options ? options.launchToken : launchToken));
        return relay;
      },
      async close() {
        await relay.close();
        await opened.close();
      },
    };
  } catch (error) {
    await relay.close();
    await user?.close();
    throw error;
  }
}
