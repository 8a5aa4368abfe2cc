import { launchChrome } from '@argus/cdp';
import { listArgusChromeProcesses } from '@argus/test-kit';

export interface LaunchedChromium {
  browserWsUrl: string;
  pid: number;
  userDataDir: string;
  close(): Promise<void>;
}

/**
 * Headless Chromium with the unpacked extension, through the repo's one finder and launcher
 * (@argus/cdp launchChrome: own process group, temp `argus-chrome-*` profile removed on close).
 * The caller must close() it in finally.
 */
export async function launchChromium(extensionDir: string, extraFlags: readonly string[] = []): Promise<LaunchedChromium> {
  const chrome = await launchChrome({ extraFlags: [`--load-extension=${extensionDir}`, `--disable-extensions-except=${extensionDir}`, ...extraFlags] });
  return { browserWsUrl: chrome.wsEndpoint, pid: chrome.pid, userDataDir: chrome.userDataDir, close: () => chrome.kill(3000) };
}

/** Pids of live Chromium processes using this profile dir (renderers and helpers included). */
export function argusChromeProcesses(userDataDir: string): number[] {
  return listArgusChromeProcesses()
    .filter((proc) => proc.userDataDir === userDataDir)
    .map((proc) => proc.pid);
}
