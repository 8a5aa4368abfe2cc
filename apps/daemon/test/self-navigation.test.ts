import { join } from 'node:path';
import { CdpTimeoutError } from '@argus/cdp';
import { afterEach, describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

/**
 * A page that navigates by itself (a script's `location.href = …` on a timer) while a command runs.
 * The fixture `self-navigate.html` moves on after `?after=` ms, `?times=` times, then lands on
 * `self-navigate-done.html` ("Thanks").
 */
const h = useHarness();

afterEach(async () => {
  // a page still moving itself on must not run into the next test
  await h.client.page.goto.mutate({ url: 'about:blank' });
});

describe('a page that navigates by itself during a command', () => {
  it('a screenshot taken as the page commits its next document is answered (on one of the two)', async () => {
    // Chrome never answered a capture still waiting for its frame when the document was replaced
    // (the call hung until the command's deadline): captures across the moment the page moves on
    for (const offset of [200, 230, 260, 280, 300, 320, 340]) {
      await h.client.page.goto.mutate({ url: h.server.urlFor('/self-navigate.html?after=300') });
      await h.client.page.wait.mutate({ ms: offset });
      const shot = await h.client.page.screenshot.mutate({ base64: true });
      expect(shot.width).toBeGreaterThan(0);
      expect(shot.base64?.length).toBeGreaterThan(0);
    }
    // and on a page that keeps moving on
    await h.client.page.goto.mutate({ url: h.server.urlFor('/self-navigate.html?after=250&times=1000') });
    for (let index = 0; index < 12; index++) {
      const shot = await h.client.page.screenshot.mutate({ base64: true });
      expect(shot.width).toBeGreaterThan(0);
    }
  }, 120_000);
});

describe('a CDP call past its deadline', () => {
  it('names the daemon log where it really is (the state dir), not a fixed .argus path', () => {
    const error = h.daemon.services.manager.translate(new CdpTimeoutError('Page.captureScreenshot', 59_999));
    expect(error.code).toBe('timeout');
    expect(error.message).toContain(join(h.workspace, '.argus', 'daemon.log'));
  });
});
