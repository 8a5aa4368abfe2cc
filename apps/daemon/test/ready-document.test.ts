import type { Browser, Page } from '@argus/cdp';
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const h = useHarness();

/** Whether the tab's top document has Argus's walker installed in Argus's isolated world. */
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
 * Reads that need the walker (~50 KB of script) call the one Argus's isolated world already holds, and
 * send the source only to a world that answers it has none.
 */
describe('the walker a world holds', () => {
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
