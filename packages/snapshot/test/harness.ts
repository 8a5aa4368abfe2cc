import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Browser, connectCri, launchChrome, type ChromeProcess, type Page } from '@argus/cdp';

export interface Served {
  /** e.g. http://127.0.0.1:1234 */
  origin: string;
  port: number;
  close(): Promise<void>;
}

/** Serves fixed HTML pages by path on a random loopback port. */
export async function servePages(pages: Record<string, string | (() => string)>, host = '127.0.0.1'): Promise<Served> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const page = pages[path];
    if (page === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(typeof page === 'function' ? page() : page);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface TestBrowser {
  chrome: ChromeProcess;
  browser: Browser;
  close(): Promise<void>;
}

export async function startBrowser(): Promise<TestBrowser> {
  const chrome = await launchChrome({ extraFlags: ['--proxy-server=http://127.0.0.1:9', '--window-size=1000,700'] });
  try {
    const browser = await Browser.connect(await connectCri(chrome.wsEndpoint));
    return {
      chrome,
      browser,
      close: async () => {
        await browser.close().catch(() => undefined);
        await chrome.kill();
      },
    };
  } catch (error) {
    await chrome.kill();
    throw error;
  }
}

export async function openPage(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage();
  await page.navigate(url);
  return page;
}

export function html(body: string, head = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>fixture</title>${head}</head><body>${body}</body></html>`;
}
