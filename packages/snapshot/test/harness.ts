import { Browser, connectCri, launchChrome, type ChromeProcess, type Page } from '@argus/cdp';

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
