import { Browser, type ChromeProcess, connectCri, launchChrome, type Page } from '@argus/cdp';
import { WebSocket } from 'ws';
import { TEST_CHROME_FLAGS } from './harness.js';

/** What the watch page's script exposes for tests (window.__argusWatch). */
export interface ViewerStats {
  frames: number;
  lastFrameAt: number;
  control: boolean;
  closed: string;
}

/** A second Chromium, apart from the daemon's, that opens watch pages as a person would. */
export interface ViewerBrowser {
  chrome: ChromeProcess;
  browser: Browser;
  open(url: string): Promise<Page>;
  close(): Promise<void>;
}

export async function startViewerBrowser(): Promise<ViewerBrowser> {
  const chrome = await launchChrome({ extraFlags: [TEST_CHROME_FLAGS, '--window-size=1400,900'] });
  try {
    const browser = await Browser.connect(await connectCri(chrome.wsEndpoint));
    return {
      chrome,
      browser,
      async open(url) {
        const page = await browser.newPage();
        await page.navigate(url);
        return page;
      },
      async close() {
        await browser.close().catch(() => undefined);
        await chrome.kill();
      },
    };
  } catch (error) {
    await chrome.kill();
    throw error;
  }
}

export function viewerStats(page: Page): Promise<ViewerStats> {
  return page.evaluate<ViewerStats>('({ ...window.__argusWatch })');
}

export async function screenshotOf(page: Page): Promise<Buffer> {
  const shot = (await page.session.send('Page.captureScreenshot', { format: 'png' })) as { data: string };
  return Buffer.from(shot.data, 'base64');
}

/** The listener's origin and the tab and token of a watch URL. */
export function parseWatchUrl(url: string): { origin: string; port: number; tab: string; token: string } {
  const parsed = new URL(url);
  const fragment = new URLSearchParams(parsed.hash.slice(1));
  return {
    origin: parsed.origin,
    port: Number(parsed.port),
    tab: fragment.get('tab') ?? '',
    token: fragment.get('token') ?? '',
  };
}

/** A raw viewer socket (what the page's script does), for the attacks and the benchmark. */
export function viewerSocket(
  origin: string,
  options: { path?: string; origin?: string; host?: string } = {},
): { socket: WebSocket; closed: Promise<{ code: number; reason: string }>; texts: unknown[]; frames: Buffer[] } {
  const url = `${origin.replace(/^http/, 'ws')}${options.path ?? '/watch/ws'}`;
  const socket = new WebSocket(url, {
    origin: options.origin ?? origin,
    ...(options.host ? { headers: { host: options.host } } : {}),
  });
  const texts: unknown[] = [];
  const frames: Buffer[] = [];
  socket.on('message', (data, isBinary) => {
    if (isBinary) frames.push(data as Buffer);
    else texts.push(JSON.parse(String(data)));
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on('close', (code, reason) => resolve({ code, reason: String(reason) }));
    socket.on('unexpected-response', (_req, res) => {
      resolve({ code: res.statusCode ?? 0, reason: 'http' });
      socket.terminate();
    });
    socket.on('error', () => undefined);
  });
  return { socket, closed, texts, frames };
}
