import type { Browser, Page } from '@argus/cdp';
import { describe, expect, it } from 'vitest';
import { refOf, useHarness } from './harness.js';

const h = useHarness();

/** Whether the tab's top document has Argus's walker installed in Argus's isolated world (no read made). */
async function walkerInstalled(page: Page): Promise<boolean> {
  const contextId = page.frames.knownIsolatedWorld(page.mainFrameId);
  if (contextId === undefined) return false;
  const { result } = await page.session.send('Runtime.evaluate', {
    expression: 'typeof globalThis.__argus === "object" && globalThis.__argus !== null',
    contextId,
    returnByValue: true,
  });
  return result.value === true;
}

/**
 * The first read of a document installed the walker (~50 KB of script Chromium parses and runs, about
 * 10 ms here) and looked up the page's document for the listener query before its own walk. The
 * daemon now does both once the navigating command has answered (the document seen at
 * DOMContentLoaded), while the caller reads the answer, so the first snapshot only walks.
 */
describe('a new document is readied for its first read while it loads', () => {
  it('the walker is installed after the navigating command, before any read, and the first snapshot works from it', async () => {
    const { id } = await h.client.tabs.open.mutate({ url: h.server.urlFor('/slow-image.html') });
    const browser = h.daemon.services.manager.current as Browser;
    const page = browser.attachedPages().find((candidate) => candidate.id === id)!;
    await h.daemon.services.manager.documentReadied(page);
    expect(await walkerInstalled(page)).toBe(true);

    const snap = await h.client.snapshot.take.mutate({ tab: id, interactive: true });
    expect(snap.text).toMatch(/button "Go" e\d+/);
    // a second document of the same tab (a navigation) is readied too
    await h.client.page.goto.mutate({ tab: id, url: h.server.urlFor('/slow-image.html?again') });
    await h.daemon.services.manager.documentReadied(page);
    expect(await walkerInstalled(page)).toBe(true);
    const click = await h.client.input.click.mutate({
      tab: id,
      target: refOf((await h.client.snapshot.take.mutate({ tab: id, interactive: true })).text, /button "Go"/),
    });
    expect(click).toBeTruthy();
  });

  it('element reads, locators and waits go through the installed walker, and install it again in a world that lost it', async () => {
    const { id } = await h.client.tabs.open.mutate({ url: h.server.urlFor('/buttons.html') });
    const browser = h.daemon.services.manager.current as Browser;
    const page = browser.attachedPages().find((candidate) => candidate.id === id)!;
    const removeWalker = async () => {
      const contextId = page.frames.knownIsolatedWorld(page.mainFrameId);
      await page.session.send('Runtime.evaluate', { expression: 'delete globalThis.__argus', contextId });
      expect(await walkerInstalled(page)).toBe(false);
    };
    // each path once with the walker there, once after it was removed (it answers that it has none,
    // and is called again with the source, which installs it)
    for (const round of ['installed', 'removed']) {
      if (round === 'removed') await removeWalker();
      const clicked = await h.client.input.click.mutate({ tab: id, target: '#increment' });
      expect(clicked, round).toBeTruthy();
      if (round === 'removed') await removeWalker();
      expect((await h.client.read.text.query({ tab: id, target: '#count' })).text, round).toMatch(/Count: \d/);
      if (round === 'removed') await removeWalker();
      await h.client.input.click.mutate({ tab: id, target: 'role=button[name="Increment"]' });
      if (round === 'removed') await removeWalker();
      expect((await h.client.page.wait.mutate({ tab: id, selector: '#count', timeoutMs: 5_000 })).matched, round).toBe(
        '#count',
      );
      if (round === 'removed') await removeWalker();
      const locator = 'role=button[name="Increment"]';
      expect((await h.client.page.wait.mutate({ tab: id, selector: locator, timeoutMs: 5_000 })).matched, round).toBe(
        locator,
      );
      expect(await walkerInstalled(page), round).toBe(true);
    }
  });
});
