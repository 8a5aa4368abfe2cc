import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PairedExtension, startPairedExtension } from './extension-setup.js';
import { waitUntil } from './extension-harness.js';
import { failure } from './harness.js';

/** The person presses Disconnect in the extension's popup while an agent works in their tab. */
describe('extension disconnected mid-command', () => {
  let p: PairedExtension;
  beforeAll(async () => {
    p = await startPairedExtension('ext-disconnect');
  });
  afterAll(async () => {
    await p?.close();
  });

  const setEnabled = (enabled: boolean) => p.user.evalInWorker(`chrome.storage.local.set({ enabled: ${enabled} })`);
  const connected = async () => (await p.client.daemon.status.query({})).extension?.connected === true;

  it('the running command and the next ones fail with browser_not_found saying the extension is gone; after Connect the tab works again', async () => {
    const tab = await p.openUserTab('/form.html');
    const running = failure(p.client.page.eval.mutate({ js: 'new Promise((resolve) => setTimeout(resolve, 45_000))' }));
    await waitUntil(
      async () => ((await p.client.daemon.status.query({})).scheduler?.running ?? 0) > 0,
      10_000,
      'the eval to be running',
    );
    await setEnabled(false);
    await waitUntil(async () => !(await connected()), 10_000, 'the extension to disconnect');

    // not "did not answer within 30000 ms" (a timeout, as if the extension were slow)
    const lost = await running;
    expect(lost.code).toBe('browser_not_found');
    expect(lost.message).toMatch(/disconnected while cdp\.send was running/);
    // a read meanwhile says the extension is not connected, not that the page has no document
    const read = await failure(p.client.snapshot.take.mutate({}));
    expect(read.code).toBe('browser_not_found');
    expect(read.message).toMatch(/No Argus extension is connected/);

    await setEnabled(true);
    await waitUntil(connected, 15_000, 'the extension to reconnect');
    await p.client.tabs.select.mutate({ id: tab });
    expect((await p.client.snapshot.take.mutate({})).text).toMatch(/textbox "Name"/);
  });

  it('Disconnect in the popup detaches the debugger from every tab it attached; the next command fails saying so; Connect attaches again', async () => {
    const tab = await p.openUserTab('/form.html');
    expect((await p.client.snapshot.take.mutate({})).text).toMatch(/textbox "Name"/);
    const chromeTab = await p.user.chromeTabId(tab);
    // chrome.debugger's own view, from the extension's worker: whether any debugger holds the tab
    const attached = async () =>
      (await p.user.evalInWorker(
        `chrome.debugger.getTargets().then((targets) => targets.find((t) => t.tabId === ${chromeTab})?.attached)`,
      )) === true;
    expect(await attached()).toBe(true);

    const popup = await p.user.openExtensionPage('popup.html');
    try {
      await popup.click('#disconnect');
      // the popup says Disconnected once the worker has let go of the tabs
      await popup.waitFor(
        `document.getElementById('state').dataset.state === 'disabled'`,
        'the popup to say Disconnected',
      );
      expect(await popup.text('#state')).toBe('Disconnected');
      expect(await attached()).toBe(false); // before the fix: still true, Chrome's debugging bar stays
      expect(
        await p.user.evalInWorker(`chrome.storage.session.get('debuggerSessions').then((s) => s.debuggerSessions)`),
      ).toEqual({
        tabs: {},
        children: {},
      });
      await waitUntil(async () => !(await connected()), 10_000, 'the daemon to see the extension gone');
      const next = await failure(p.client.page.eval.mutate({ js: 'document.title', tab }));
      expect(next.code).toBe('browser_not_found');
      expect(next.message).toMatch(/No Argus extension is connected/);
      expect(await attached()).toBe(false);

      await popup.click('#connect');
      await popup.waitFor(
        `document.getElementById('state').dataset.state === 'authenticated_connected'`,
        'the popup to say Connected',
      );
      await waitUntil(connected, 15_000, 'the daemon to see the extension back');
      // attaches afresh (no stale session, no "already attached") and drives the tab again
      await p.client.tabs.select.mutate({ id: tab });
      expect((await p.client.snapshot.take.mutate({ tab })).text).toMatch(/textbox "Name"/);
      expect(await attached()).toBe(true);
    } finally {
      await popup.close();
    }
  });
});
