import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '@argus/test-kit';
import { Browser, type ChromeProcess, connectCri, launchChrome, TargetGoneError } from '../src/index.js';

/**
 * Chrome never answers a call still pending on a session whose target detached: a click in an
 * out-of-process frame that navigated the top document had its landing read left waiting for the
 * command's whole deadline (60 s). Such calls fail as soon as the session is gone.
 */
describe('an out-of-process frame that goes away', () => {
  let chrome: ChromeProcess;
  let browser: Browser;
  let host: FixtureServer;
  let other: FixtureServer;

  beforeAll(async () => {
    host = await startFixtureServer();
    other = await startFixtureServer({ hostname: 'localhost' });
    chrome = await launchChrome();
    browser = await Browser.connect(await connectCri(chrome.wsEndpoint), {});
  });
  afterAll(async () => {
    await browser?.close();
    await chrome?.kill();
    await host?.close();
    await other?.close();
  });

  it('fails the calls pending in it when the top document navigates away', async () => {
    const page = await browser.newPage();
    const src = encodeURIComponent(other.urlFor('/frame-rerender-child.html'));
    await page.navigate(host.urlFor(`/frame-rerender.html?src=${src}`));
    const frameSession = async () => {
      for (let tries = 0; tries < 100; tries++) {
        const frame = page.frames.all().find((info) => info.session !== page.session);
        if (frame) return frame.session;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error('the out-of-process frame was never attached');
    };
    const session = await frameSession();
    // answered only when the session goes: the frame's page never settles this promise
    const pending = session.send('Runtime.evaluate', { expression: 'new Promise(() => {})', awaitPromise: true }).then(
      () => 'answered',
      (error: unknown) => error,
    );
    const started = performance.now();
    await page.navigate(host.urlFor('/nav-a.html'));
    const outcome = await pending;
    expect(outcome).toBeInstanceOf(TargetGoneError);
    expect((outcome as Error).message).toBe('The frame went away during Runtime.evaluate');
    // failed with the detach, long before any deadline (the session's fallback is 60 s)
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(session.isDetached).toBe(true);
  });
});
