import { type ChromeProcess, type Transport, Session, connectCri, launchChrome } from '@argus/cdp';
import { extensionFlags, listArgusChromeProcesses } from '@argus/test-kit';

/** A user's Chromium with the unpacked extension, and the test's own CDP connection to it. */
export interface UserChromium {
  chrome: ChromeProcess;
  transport: Transport;
  /** The browser (root) session on `transport`: typed CDP commands. */
  browser: Session;
  close(): Promise<void>;
}

/**
 * Headless Chromium with the built extension, through the repo's one launcher and CDP client
 * (@argus/cdp `launchChrome`, own process group, temp `argus-chrome-*` profile removed on close;
 * `connectCri`, chrome-remote-interface). The caller must close() it in finally.
 */
export async function launchUserChromium(extraFlags: readonly string[] = []): Promise<UserChromium> {
  const chrome = await launchChrome({ extraFlags: [...extensionFlags(), ...extraFlags] });
  try {
    const transport = await connectCri(chrome.wsEndpoint);
    return {
      chrome,
      transport,
      browser: new Session(transport, undefined),
      async close() {
        await transport.close();
        await chrome.kill(3000);
      },
    };
  } catch (error) {
    await chrome.kill(3000);
    throw error;
  }
}

/** Pids of live Chromium processes using this profile dir (renderers and helpers included). */
export function argusChromeProcesses(userDataDir: string): number[] {
  return listArgusChromeProcesses()
    .filter((proc) => proc.userDataDir === userDataDir)
    .map((proc) => proc.pid);
}
