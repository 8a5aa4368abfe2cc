import { readFileSync } from 'node:fs';
// The extension package's own test helpers launch Chromium with the unpacked extension and talk to
// its service worker; the daemon's extension tests reuse them rather than keep a second copy.
import { type CdpClient, EXTENSION_DIR, connectWithRetry, evaluateInWorker, findServiceWorker, launchChromium, waitUntil } from '@argus/extension/testing';

export { EXTENSION_DIR, waitUntil };

/** Headless Chromium with the unpacked extension: the user's own browser in these tests. */
export interface UserBrowser {
  pid: number;
  userDataDir: string;
  cdp: CdpClient;
  /** Evaluates an expression (awaited) in the extension's service worker. */
  evalInWorker(expression: string): Promise<unknown>;
  /** Points the extension at a relay, the way a daemon that launched Chrome would. */
  configure(settings: { relayUrl: string; launchToken?: string }): Promise<void>;
  /** Opens a tab as the user would; returns its target id (= Argus tab id). */
  openTab(url: string): Promise<string>;
  close(): Promise<void>;
}

export async function launchUserBrowser(): Promise<UserBrowser> {
  // dead proxy: external hosts fail at once on this closed network; loopback is never proxied
  const chromium = await launchChromium(EXTENSION_DIR, ['--proxy-server=http://127.0.0.1:9']);
  let cdp: CdpClient | undefined;
  try {
    const opened = await connectWithRetry(chromium.browserWsUrl);
    cdp = opened;
    const worker = await findServiceWorker(opened);
    const evalInWorker = (expression: string) => evaluateInWorker(opened, worker.targetId, expression);
    return {
      pid: chromium.pid,
      userDataDir: chromium.userDataDir,
      cdp: opened,
      evalInWorker,
      configure: async (settings) => {
        await evalInWorker(`chrome.storage.local.set(${JSON.stringify({ enabled: true, ...settings })})`);
      },
      openTab: async (url) => (await opened.send<{ targetId: string }>('Target.createTarget', { url })).targetId,
      async close() {
        opened.close();
        await chromium.close();
      },
    };
  } catch (error) {
    cdp?.close();
    await chromium.close();
    throw error;
  }
}

/** Whether a process still runs (and is not a zombie). */
export function alive(pid: number): boolean {
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
