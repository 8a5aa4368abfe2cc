import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@argus/cdp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANNER_TAG } from '../src/handoff/banner.js';
import { waitUntil } from './extension-harness.js';
import { type PairedExtension, startPairedExtension } from './extension-setup.js';
import { pressDone } from './handoff-helpers.js';

// Issue 20, human handoff in extension mode: the user's own tab (a second Chromium with the Argus
// extension) gets the banner where it is, no relaunch; Done, pressed with real input events through
// chrome.debugger, ends it and reports the new cookie by name; the tab stays open, banner gone.

describe('argus handoff in extension mode', () => {
  let setup: PairedExtension;

  beforeAll(async () => {
    setup = await startPairedExtension('handoff-ext');
  });

  afterAll(async () => {
    await setup?.close();
  });

  const evalIn = async (tab: string, js: string) => (await setup.client.page.eval.mutate({ tab, js })).value;
  const pageOf = (tab: string): Page => {
    const page = setup.daemon.services.manager.current?.page(tab);
    if (!page) throw new Error(`no page ${tab}`);
    return page;
  };

  it("puts the banner in the user's own tab, Done ends it with the new cookie's name, and the tab stays", async () => {
    const tab = await setup.openUserTab('/form.html');
    const handed = await setup.client.handoff.start.mutate({ tab, reason: 'Accept the cookies, then press Done' });
    expect(handed).toMatchObject({ state: 'waiting', mode: 'extension', tab });
    expect(setup.daemon.services.manager.launches).toBe(1);
    await waitUntil(
      async () => (await evalIn(tab, `!!document.querySelector('${BANNER_TAG}')`)) === true,
      10_000,
      'the banner',
    );
    expect((await setup.client.daemon.status.query({})).handoffs).toHaveLength(1);

    // the person's site sets a cookie on the next page; the banner follows the navigation
    await setup.client.page.goto.mutate({ tab, url: setup.server.urlFor('/set-cookie?name=consent&value=yes-all') });
    await waitUntil(
      async () => (await evalIn(tab, `!!document.querySelector('${BANNER_TAG}')`)) === true,
      10_000,
      'the banner again',
    );
    const waiting = setup.client.handoff.start.mutate({ wait: true });
    await pressDone(pageOf(tab));
    const ended = await waiting;
    expect(ended).toMatchObject({ state: 'done', mode: 'extension', tab });
    expect(ended.changes?.cookiesAdded).toContain('consent@127.0.0.1');
    // the value is in the page's own URL (the fixture takes it from the query), nowhere else
    const { url: _url, ...rest } = ended.changes ?? { url: '' };
    expect(JSON.stringify({ ...ended, changes: rest })).not.toContain('yes-all');
    // the user's tab is still there, without the banner
    expect((await setup.client.tabs.list.query({})).tabs.some((listed) => listed.id === tab)).toBe(true);
    expect(await evalIn(tab, `!!document.querySelector('${BANNER_TAG}')`)).toBe(false);
    expect((await setup.client.daemon.status.query({})).handoffs).toEqual([]);
  }, 90_000);

  it('ends by itself at --timeout: state timeout, the banner gone', async () => {
    const tab =
      (await setup.client.tabs.list.query({})).tabs.find((listed) => listed.url.includes('/set-cookie'))?.id ?? '';
    const ended = await setup.client.handoff.start.mutate({
      tab,
      reason: 'Nobody will come',
      wait: true,
      timeout: '10s',
    });
    expect(ended).toMatchObject({ state: 'timeout', tab, changes: { urlChanged: false, cookiesAdded: [] } });
    expect(await evalIn(tab, `!!document.querySelector('${BANNER_TAG}')`)).toBe(false);
    expect((await setup.client.daemon.status.query({})).handoffs).toEqual([]);
  }, 60_000);
});

// An agent that leaves while a person is at a hand-off: its server asks `daemon.stop {ifAlone}`.
// The person keeps the daemon (declined, the daemon left to agents) until the hand-off ends; then
// nobody is left and it stops by itself, instead of running on to the idle stop.
describe('an agent leaving during a hand-off', () => {
  let setup: PairedExtension;

  beforeAll(async () => {
    // every call under the agent's name, as its MCP server makes them
    setup = await startPairedExtension('handoff-leave', { clientName: 'mcp-agent' });
  });

  afterAll(async () => {
    await setup?.close();
  });

  it('keeps the daemon while the person is at the browser, and stops it when the hand-off ends', async () => {
    const tab = await setup.openUserTab('/form.html');
    await setup.client.handoff.start.mutate({ tab, reason: 'Sign in, then press Done' });
    const page = setup.daemon.services.manager.current?.page(tab);
    if (!page) throw new Error(`no page ${tab}`);
    await waitUntil(
      async () =>
        (await setup.client.page.eval.mutate({ tab, js: `!!document.querySelector('${BANNER_TAG}')` })).value === true,
      10_000,
      'the banner',
    );
    expect(await setup.client.daemon.stop.mutate({ ifAlone: true })).toEqual({ stopping: false, others: ['handoff'] });
    const stateFile = join(setup.daemon.services.stateDir, 'daemon.json');
    expect(JSON.parse(readFileSync(stateFile, 'utf8'))).toMatchObject({ agentsOwn: true });
    expect(setup.daemon.stopping()).toBe(false);

    await pressDone(page);
    await Promise.race([
      setup.daemon.stopped,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('the daemon did not stop after the hand-off')), 15_000),
      ),
    ]);
    expect(existsSync(stateFile)).toBe(false);
  }, 60_000);
});
