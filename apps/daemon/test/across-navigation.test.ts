import { Browser, type ChromeProcess, type Page, connectCri, launchChrome } from '@argus/cdp';
import { ArgusError } from '@argus/protocol';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acrossNavigation } from '../src/across-navigation.js';
import { TEST_CHROME_FLAGS } from './harness.js';

/**
 * acrossNavigation (snapshot, text and wait reads) against a real tab: the fixture
 * `self-navigate.html` moves itself on to `self-navigate-done.html` after `?after=` ms.
 */
let chrome: ChromeProcess;
let browser: Browser;
let server: FixtureServer;

beforeAll(async () => {
  [chrome, server] = await Promise.all([launchChrome({ extraFlags: [TEST_CHROME_FLAGS] }), startFixtureServer()]);
  browser = await Browser.connect(await connectCri(chrome.wsEndpoint));
});
afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await chrome?.kill();
  await server?.close();
});

const timedOut = () => new ArgusError('timeout', 'the next document did not load');

async function openTab(path: string): Promise<Page> {
  const page = await browser.newPage();
  await page.navigate(server.urlFor(path));
  return page;
}

describe('reads across a navigation the page makes by itself', () => {
  it("listens to a tab's navigation events once, not once per read", async () => {
    const page = await openTab('/self-navigate-done.html');
    try {
      const session = page.session;
      const original = session.on;
      const on = session.on.bind(session) as (event: string, listener: (params: unknown) => void) => () => void;
      const subscribed: string[] = [];
      session.on = ((event: string, listener: (params: unknown) => void) => {
        subscribed.push(event);
        return on(event, listener);
      }) as typeof session.on;
      try {
        for (let index = 0; index < 10; index++)
          expect(await acrossNavigation(page, 5_000, () => page.evaluate<number>('1 + 1'), timedOut)).toBe(2);
      } finally {
        session.on = original;
      }
      // one set of subscriptions for the tab (made by its first read), where each read made eight
      expect(subscribed.length).toBeGreaterThan(0);
      expect(subscribed.length).toBeLessThanOrEqual(8);
      expect(new Set(subscribed).size).toBe(subscribed.length);
    } finally {
      await browser.closePage(page.targetId);
    }
  });

  it('a read the navigation cut short runs again in the next document, once it is parsed', async () => {
    const page = await openTab('/self-navigate.html?after=400');
    try {
      let tries = 0;
      const path = await acrossNavigation(
        page,
        10_000,
        async () => {
          // the first try waits in the old document until the page leaves it
          if (tries++ === 0) await page.evaluate('new Promise(() => {})');
          return page.evaluate<string>('location.pathname + " " + document.readyState');
        },
        timedOut,
      );
      expect(tries).toBe(2);
      expect(path).toMatch(/^\/self-navigate-done\.html (interactive|complete)$/);
      // and the tab's next reads still see its navigations
      await page.evaluate('setTimeout(() => { location.href = "self-navigate.html?after=60000"; }, 300)');
      tries = 0;
      const again = await acrossNavigation(
        page,
        10_000,
        async () => {
          if (tries++ === 0) await page.evaluate('new Promise(() => {})');
          return page.evaluate<string>('location.pathname');
        },
        timedOut,
      );
      expect(again).toBe('/self-navigate.html');
    } finally {
      await browser.closePage(page.targetId);
    }
  });

  it("an error with no navigation behind it is the read's own, thrown at once", async () => {
    const page = await openTab('/self-navigate-done.html');
    try {
      const started = performance.now();
      await expect(
        acrossNavigation(page, 10_000, () => page.evaluate('throw new Error("own error")'), timedOut),
      ).rejects.toThrow(/own error/);
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      await browser.closePage(page.targetId);
    }
  });
});
