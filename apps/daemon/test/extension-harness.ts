import { Session, connectCri, launchChrome } from '@argus/cdp';
// The extension's build, flags and service-worker access come from the test kit; launching and CDP
// from @argus/cdp: the same pieces the extension's own tests use, with no path into another app.
import { evaluateInWorker, extensionFlags, findServiceWorker, pairExtension, waitUntil } from '@argus/test-kit';
import { ExtensionPage } from './extension-page.js';

export { waitUntil };
export type { ExtensionPage };

/** Headless Chromium with the unpacked extension: the user's own browser in these tests. */
export interface UserBrowser {
  pid: number;
  userDataDir: string;
  /** The test's own browser-level CDP session (what the user's DevTools would use). */
  cdp: Session;
  /** Evaluates an expression (awaited) in the extension's service worker. */
  evalInWorker(expression: string): Promise<unknown>;
  /** Points the extension at a relay, the way a daemon that launched Chrome would. */
  configure(settings: { relayUrl: string; launchToken?: string }): Promise<void>;
  /** The extension's id (its pages are chrome-extension://<id>/...). */
  extensionId: string;
  /** Opens a tab as the user would; returns its target id (= Argus tab id). */
  openTab(url: string): Promise<string>;
  /** Chrome's tab id of a tab (what the extension's pages and worker use), by its target id. */
  chromeTabId(targetId: string): Promise<number>;
  /** Opens one of the extension's pages (`sidepanel.html?tab=3`) in a tab, attached for input. */
  openExtensionPage(path: string): Promise<ExtensionPage>;
  close(): Promise<void>;
}

export async function launchUserBrowser(): Promise<UserBrowser> {
  // dead proxy: external hosts fail at once on this closed network; loopback is never proxied
  const chrome = await launchChrome({ extraFlags: [...extensionFlags(), '--proxy-server=http://127.0.0.1:9'] });
  try {
    const transport = await connectCri(chrome.wsEndpoint);
    try {
      const cdp = new Session(transport, undefined);
      const worker = await findServiceWorker(transport);
      const evalInWorker = (expression: string) => evaluateInWorker(transport, worker.targetId, expression);
      return {
        pid: chrome.pid,
        userDataDir: chrome.userDataDir,
        cdp,
        evalInWorker,
        configure: async (settings) => {
          await evalInWorker(`chrome.storage.local.set(${JSON.stringify({ enabled: true, ...settings })})`);
        },
        extensionId: worker.extensionId,
        openTab: async (url) => (await cdp.send('Target.createTarget', { url })).targetId,
        chromeTabId: async (targetId) =>
          Number(
            await evalInWorker(
              `chrome.debugger.getTargets().then((targets) => targets.find((t) => t.id === ${JSON.stringify(targetId)})?.tabId)`,
            ),
          ),
        openExtensionPage: (path) => ExtensionPage.open(cdp, `chrome-extension://${worker.extensionId}/${path}`),
        async close() {
          await transport.close();
          await chrome.kill(3000);
        },
      };
    } catch (error) {
      await transport.close();
      throw error;
    }
  } catch (error) {
    await chrome.kill(3000);
    throw error;
  }
}

/**
 * Pairs the user's browser with a daemon started with ARGUS_RELAY_PORT=0 and
 * ARGUS_RELAY_LAUNCH_TOKEN=launchToken (the test kit's pairExtension, which the bench shares).
 */
export function pairUserBrowser(
  client: Parameters<typeof pairExtension>[0],
  user: UserBrowser,
  launchToken: string,
): Promise<string> {
  return pairExtension(client, user.evalInWorker, launchToken);
}
