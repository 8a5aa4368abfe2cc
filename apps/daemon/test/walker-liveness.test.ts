import { describe, expect, it } from 'vitest';
import { refOf, useHarness } from './harness.js';

const h = useHarness();

/**
 * What made pages stop answering when the walker first landed: each snapshot asked Chromium for the
 * page's click listeners (DOMDebugger.getEventListeners, pierce) from Argus's isolated world, which
 * wrapped the page's handler functions into that world; a few snapshots later the renderer's main
 * thread locked up and every call on the tab failed with page_unresponsive. Here the same sequence
 * runs many times over (a diffed action is a snapshot before and one after) on pages whose controls
 * have script listeners, and the tab must keep answering: any page_unresponsive fails the test.
 */
describe('snapshots keep the page answering (the walker hang)', () => {
  it('diffed clicks, again and again, on a page with click listeners: every one reports its diff, then text and url answer', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/action-report.html') });
    const snap = await h.client.snapshot.take.mutate({ interactive: true });
    const toggle = refOf(snap.text, /button "Show details"/);
    for (let round = 0; round < 12; round++) {
      const result = await h.client.input.click.mutate({ target: toggle, diff: true });
      // odd rounds close the details again
      expect(result.diff).toMatch(
        round % 2 === 0
          ? /^~ button "Show details" \[expanded\] e\d+$/m
          : /^~ button "Show details" \[expanded=false\] e\d+$/m,
      );
    }
    expect((await h.client.read.text.query({})).text).toContain('Orders');
    expect((await h.client.page.url.query({})).url).toContain('/action-report.html');
  });

  it('diffed actions on widget pages (delegated handlers, listeners on rows, frames, shadow roots) leave each page answering', async () => {
    for (const path of [
      '/todo.html',
      '/datepicker.html',
      '/feed.html',
      '/frames.html',
      '/shadow.html',
      '/modal-form.html',
    ]) {
      await h.client.page.goto.mutate({ url: h.server.urlFor(path) });
      for (let round = 0; round < 5; round++) {
        const result = await h.client.input.press.mutate({ key: 'Shift', diff: true });
        expect(typeof result.diff, path).toBe('string');
      }
      expect((await h.client.page.url.query({})).url).toContain(path);
      expect((await h.client.read.text.query({})).text.length, path).toBeGreaterThan(0);
    }
  });
});
