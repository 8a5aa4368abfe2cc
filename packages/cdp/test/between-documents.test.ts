import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArgusError } from '@argus/protocol';
import { startFixtureServer, type FixtureServer } from '@argus/test-kit';
import { Browser, type ChromeProcess, connectCri, launchChrome } from '../src/index.js';

/**
 * Chrome answers a cross-process navigation before the new document commits, and until the commit
 * it refuses Page commands (history, reload, screenshot, stopLoading) with "Not attached to an
 * active page". A session sends such a command again once the document is in.
 */
describe('a tab between two documents', () => {
  let chrome: ChromeProcess;
  let browser: Browser;
  let fixtures: FixtureServer;

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    chrome = await launchChrome({ extraFlags: ['--proxy-server=http://127.0.0.1:9'] });
    browser = await Browser.connect(await connectCri(chrome.wsEndpoint), {});
  });
  afterAll(async () => {
    await browser?.close();
    await chrome?.kill();
    await fixtures?.close();
  });

  it('Page commands sent right after a cross-process navigation was answered wait for its commit', async () => {
    const page = await browser.newPage();
    /** Navigates away and returns with Chrome's answer, as a page's own script or a 'none' goto can. */
    const leave = () => page.session.send('Page.navigate', { url: fixtures.urlFor('/nav-b.html') });
    for (let round = 0; round < 3; round++) {
      await page.navigate('data:text/html,<title>Before</title>');
      // answered before the commit (the new document is in another renderer)
      await leave();
      const history = await page.session.send('Page.getNavigationHistory');
      expect(history.entries[history.currentIndex]?.url).toMatch(/nav-b\.html$/);

      await page.navigate('data:text/html,<title>Before</title>');
      await leave();
      const shot = await page.session.send('Page.captureScreenshot', { format: 'jpeg' });
      expect(shot.data.length).toBeGreaterThan(100);

      await page.navigate('data:text/html,<title>Before</title>');
      await leave();
      const back = await page.history(-1, 5_000);
      expect(back.url).toMatch(/^data:text\/html/);
    }
  });

  it('a failed navigation is reported once its error page has committed', async () => {
    const page = await browser.newPage();
    await page.navigate(fixtures.urlFor('/nav-a.html'));
    const failed = await page.navigate('http://127.0.0.1:1/').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ArgusError);
    expect((failed as ArgusError).code).toBe('navigation_failed');
    // sent raw: no retry could hide a tab still between documents
    const history = await page.session.transport.send('Page.getNavigationHistory', undefined, page.session.id);
    const { currentIndex, entries } = history as { currentIndex: number; entries: Array<{ url: string }> };
    expect(entries[currentIndex]?.url).toBe('http://127.0.0.1:1/');
    expect((await page.history(-1, 5_000)).url).toMatch(/nav-a\.html$/);
  });
});
