import { ArgusError } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExtensionPage, waitUntil } from './extension-harness.js';
import { type PairedExtension, startPairedExtension } from './extension-setup.js';
import { PickerDriver } from '@argus/test-kit';

// Issue 20, the extension's own pages used as a person uses them: the side panel (opened in a tab,
// pinned to the user's tab with ?tab=) and the popup, their buttons pressed with real CDP mouse
// input; what is asserted is what the daemon did (held commands, the picker, the inbox) and what
// the panel shows (the agent's commands pushed over the relay, the inbox).

describe('extension side panel and popup, clicked', () => {
  let setup: PairedExtension;
  let tab: string;
  let chromeTab: number;
  let panel: ExtensionPage;

  beforeAll(async () => {
    setup = await startPairedExtension('panel-ext');
    tab = await setup.openUserTab('/login.html');
    chromeTab = await setup.user.chromeTabId(tab);
    panel = await setup.user.openExtensionPage(`sidepanel.html?tab=${chromeTab}`);
  });

  afterAll(async () => {
    await setup?.close();
  });

  const feedHas = (verb: string, result: string) =>
    `!!document.querySelector('#feed li[data-verb=${JSON.stringify(verb)}][data-result=${JSON.stringify(result)}]')`;
  const pausedTabs = async () => ((await setup.client.daemon.status.query({})).paused ?? []).map((pause) => pause.tab);

  it("shows the agent's commands on the tab as they run: verb, target, result; secrets never", async () => {
    await setup.client.read.text.query({ tab });
    await setup.client.input.fill.mutate({ tab, target: '#pass', text: 'hunter2' });
    const missing = await setup.client.input.click
      .mutate({ tab, target: '#nope', timeoutMs: 1000 })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ArgusError);
    const code = (missing as ArgusError).code;

    await panel.waitFor(feedHas('click', code), `the failed click (${code}) in the feed`);
    await panel.waitFor(feedHas('fill', 'ok'), 'the fill in the feed');
    await panel.waitFor(feedHas('text', 'ok'), 'the text read in the feed');
    // newest first, each with its target
    const rows = await panel.evaluate<Array<{ verb: string; target: string; result: string }>>(
      `[...document.querySelectorAll('#feed li')].map((li) => ({ verb: li.dataset.verb, target: li.querySelector('.target').textContent, result: li.dataset.result }))`,
    );
    expect(rows.slice(0, 3)).toEqual([
      { verb: 'click', target: '#nope', result: code },
      { verb: 'fill', target: '#pass', result: 'ok' },
      { verb: 'text', target: '', result: 'ok' },
    ]);
    expect(await panel.text('body')).not.toContain('hunter2');

    // another tab's commands: hidden while the panel shows this tab, listed with "all tabs"
    const other = await setup.openUserTab('/form.html');
    await setup.client.page.goto.mutate({ tab: other, url: setup.server.urlFor('/form.html?again=1') });
    await panel.click('#all-tabs');
    await panel.waitFor(feedHas('goto', 'ok'), 'the other tab\'s goto with "all tabs"');
    expect(await panel.text('#feed')).toContain('/form.html?again=1');
    await panel.click('#all-tabs');
    await panel.waitFor(`!${feedHas('goto', 'ok')}`, 'the goto hidden again for this tab only');
  });

  it('Pause (clicked) holds the agent on the tab until Resume (clicked)', async () => {
    await panel.click('#pause');
    await waitUntil(async () => (await pausedTabs()).includes(tab), 10_000, 'the paused tab in status');
    await panel.waitFor(`document.querySelector('#pause').textContent === 'Resume'`, 'the Resume button');
    let settled = false;
    const held = setup.client.read.text.query({ tab }).then((value) => {
      settled = true;
      return value;
    });
    await setup.client.daemon.status.query({});
    await setup.client.tabs.list.query({});
    expect(settled).toBe(false);
    await panel.click('#pause');
    expect((await held).text).toContain('Sign in');
    expect(await pausedTabs()).toEqual([]);
    await panel.waitFor(feedHas('text', 'ok'), 'the released read in the feed');
  });

  it('a pause ends when the extension disconnects (the held command fails saying so) and is told again on reconnect', async () => {
    await panel.click('#pause');
    await waitUntil(async () => (await pausedTabs()).includes(tab), 10_000, 'the paused tab in status');
    const held = setup.client.read.text.query({ tab }).catch((e: unknown) => e);
    // what the popup's Disconnect does
    await setup.user.evalInWorker(`chrome.storage.local.set({ enabled: false })`);
    const error = await held;
    expect(error).toBeInstanceOf(ArgusError);
    expect(error).toMatchObject({
      code: 'browser_not_found',
      message: expect.stringMatching(/extension disconnected/),
    });
    expect(await pausedTabs()).toEqual([]);

    await setup.user.evalInWorker(`chrome.storage.local.set({ enabled: true })`);
    await setup.client.session.connect.mutate({ extension: true, timeoutMs: 15_000 });
    // the person's pause is still theirs: the extension tells the daemon again
    await waitUntil(async () => (await pausedTabs()).includes(tab), 10_000, 'the pause told again');
    await panel.click('#pause');
    await waitUntil(async () => (await pausedTabs()).length === 0, 10_000, 'the pause resumed');
  });

  it('"Annotate this page" (popup, clicked) opens the picker; the panel lists the annotation and Clear empties the inbox', async () => {
    const popup = await setup.user.openExtensionPage(`popup.html?tab=${chromeTab}`);
    const driver = new PickerDriver(await setup.daemon.services.manager.page(tab));
    await popup.click('#annotate');
    await driver.ready();
    await driver.click(await driver.centre('#user'));
    await driver.type('use this field');
    await driver.press('Enter');
    await waitUntil(
      async () => (await setup.client.inbox.list.query({ unread: true })).unread === 1,
      15_000,
      'the item',
    );
    const [item] = (await setup.client.inbox.list.query({ unread: true })).items;
    expect((await setup.client.inbox.show.query({ id: item!.id })).item).toMatchObject({
      source: 'extension',
      read: false,
      tab,
      elements: [{ note: 'use this field', locator: 'label="Username"' }],
    });

    await panel.waitFor(`!!document.querySelector('#inbox li[data-id=${JSON.stringify(item!.id)}]')`, 'the item');
    const shown = await panel.evaluate<{ title: string; url: string; note: string; locator: string }>(
      `(() => { const li = document.querySelector('#inbox > li'); return { title: li.querySelector('.title').textContent, url: li.querySelector('.url').textContent, note: li.querySelector('.note').textContent, locator: li.querySelector('.locator').textContent }; })()`,
    );
    expect(shown).toEqual({
      title: 'Sign in',
      url: setup.server.urlFor('/login.html'),
      note: 'use this field',
      locator: 'label="Username"',
    });
    expect(await panel.text('.untrusted')).toMatch(/untrusted/);
    expect(await panel.text('#unread')).toBe('(1 unread)');

    await panel.click('#inbox-clear');
    await waitUntil(
      async () => (await setup.client.inbox.list.query({})).items.length === 0,
      10_000,
      'the inbox cleared',
    );
    await panel.waitFor(`document.querySelector('#inbox-empty').textContent === 'Nothing unread.'`, 'the empty inbox');
    await popup.close();
  });
});
