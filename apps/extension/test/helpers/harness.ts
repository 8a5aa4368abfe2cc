import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startRelay, type RelayOptions, type RelayServer } from '@argus/relay';
import { CdpClient } from './cdp-client.js';
import { launchChromium, type LaunchedChromium } from './chromium.js';

export const EXTENSION_DIR = fileURLToPath(new URL('../../dist', import.meta.url));

export interface Harness {
  chromium: LaunchedChromium;
  browser: CdpClient;
  readonly relay: RelayServer;
  daemonToken: string;
  launchToken: string;
  extensionId: string;
  /** Evaluates an expression (awaited) in the extension's service worker and returns its value. */
  evalInWorker(expression: string): Promise<unknown>;
  /** Closes the relay, stays down `downMs`, and starts a new one on the same port (a daemon restart). */
  restartRelay(options?: { downMs?: number; launchToken?: string | undefined }): Promise<RelayServer>;
  close(): Promise<void>;
}

export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 15_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const log: RelayOptions['log'] = process.env.ARGUS_TEST_DEBUG
  ? (level, message, fields) => console.log(`[relay ${level}] ${message}`, fields ?? '')
  : undefined;

/**
 * Relay + Chromium with the built extension, configured the way a daemon does it: the relay URL and
 * the per-launch token are written into chrome.storage.local by evaluating in the service worker.
 */
export async function startHarness(): Promise<Harness> {
  if (!existsSync(`${EXTENSION_DIR}/manifest.json`)) throw new Error('Build the extension first: pnpm --filter @argus/extension build');
  const daemonToken = randomBytes(24).toString('base64url');
  const launchToken = randomBytes(24).toString('base64url');
  const relayOptions = (port: number, token: string | undefined): RelayOptions => ({ port, daemonToken, ...(token ? { launchToken: token } : {}), ...(log ? { log } : {}) });
  let relay = await startRelay(relayOptions(0, launchToken));
  const chromium = await launchChromium(EXTENSION_DIR);
  let browser: CdpClient | undefined;
  try {
    const opened = await connectWithRetry(chromium.browserWsUrl);
    browser = opened;
    const worker = await findServiceWorker(opened);
    const evalInWorker = (expression: string) => evaluateInWorker(opened, worker.targetId, expression);
    await evalInWorker(`chrome.storage.local.set(${JSON.stringify({ relayUrl: relay.url, launchToken })})`);
    try {
      await waitUntil(() => relay.status().extensionConnected, 15_000, 'the extension to connect');
    } catch (error) {
      const state = await evalInWorker('Promise.all([chrome.storage.session.get(null), chrome.storage.local.get(null)])');
      throw new Error(`${(error as Error).message}; extension state: ${JSON.stringify(state)}`);
    }
    return {
      chromium,
      browser: opened,
      get relay() {
        return relay;
      },
      daemonToken,
      launchToken,
      extensionId: new URL(worker.url).host,
      evalInWorker,
      async restartRelay(options = {}) {
        const port = relay.port;
        await relay.close();
        if (options.downMs) await new Promise((resolve) => setTimeout(resolve, options.downMs));
        relay = await startRelay(relayOptions(port, 'launchToken' in options ? options.launchToken : launchToken));
        return relay;
      },
      async close() {
        opened.close();
        await relay.close();
        await chromium.close();
      },
    };
  } catch (error) {
    browser?.close();
    await relay.close();
    await chromium.close();
    throw error;
  }
}

export async function evaluateInWorker(browser: CdpClient, targetId: string, expression: string): Promise<unknown> {
  const { sessionId } = await browser.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
  try {
    // the worker's extension context (with chrome.*) shows up a moment after attach
    await waitUntil(async () => {
      const probe = await browser.send<{ result: { value?: unknown } }>('Runtime.evaluate', { expression: 'typeof chrome?.storage?.local' }, sessionId);
      return probe.result.value === 'object';
    }, 10_000, 'chrome.storage in the service worker');
    const response = await browser.send<{ result: { value?: unknown }; exceptionDetails?: unknown }>(
      'Runtime.evaluate',
      { expression: `Promise.resolve(${expression}).then((value) => JSON.stringify(value ?? null))`, awaitPromise: true, returnByValue: true },
      sessionId,
    );
    if (response.exceptionDetails) throw new Error(`worker evaluation failed: ${JSON.stringify(response.exceptionDetails)}`);
    return JSON.parse(String(response.result.value)) as unknown;
  } finally {
    await browser.send('Target.detachFromTarget', { sessionId });
  }
}

export async function connectWithRetry(url: string): Promise<CdpClient> {
  // DevToolsActivePort appears slightly before the endpoint accepts connections
  for (let attempt = 0; ; attempt++) {
    try {
      return await CdpClient.connect(url);
    } catch (error) {
      if (attempt > 40) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

export async function findServiceWorker(browser: CdpClient): Promise<{ targetId: string; url: string }> {
  let found: { targetId: string; url: string } | undefined;
  await waitUntil(async () => {
    const { targetInfos } = await browser.send<{ targetInfos: Array<{ targetId: string; type: string; url: string }> }>('Target.getTargets');
    found = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith('chrome-extension://'));
    return found !== undefined;
  }, 10_000, 'the extension service worker');
  if (!found) throw new Error('unreachable');
  return found;
}
