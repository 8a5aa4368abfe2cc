import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ArgusClient, createArgusClient } from '@argus/client';
import type { Page } from '@argus/cdp';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANNER_TAG } from '../src/handoff/banner.js';
import { type RunningDaemon, startDaemon } from '../src/index.js';
import { alive, launchUserBrowser, type UserBrowser, waitUntil } from './extension-harness.js';
import { pressDone } from './handoff-helpers.js';

// Issue 20, human handoff in extension mode: the user's own tab (a second Chromium with the Argus
// extension) gets the banner where it is, no relaunch; Done, pressed with real input events through
// chrome.debugger, ends it and reports the new cookie by name; the tab stays open, banner gone.

describe('argus handoff in extension mode', () => {
  const launchToken = randomBytes(24).toString('base64url');
  let server: FixtureServer;
  let user: UserBrowser;
  let daemon: RunningDaemon;
  let client: ArgusClient;
  let close: () => void;
  let workspace: string;

  beforeAll(async () => {
    server = await startFixtureServer();
    workspace = mkdtempSync(join(tmpdir(), 'argus-handoff-ext-'));
    daemon = await startDaemon({
      stateDir: join(workspace, '.argus'),
      workspace,
      env: {
        ...process.env,
        ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9',
        ARGUS_RELAY_PORT: '0',
        ARGUS_RELAY_LAUNCH_TOKEN: launchToken,
      },
    });
    ({ client, close } = createArgusClient({ url: `http://127.0.0.1:${daemon.port}`, token: daemon.token }));
    user = await launchUserBrowser();
    const connected = await client.session.connect.mutate({ extension: true });
    await user.configure({ relayUrl: connected.extension.relayUrl ?? '', launchToken });
    await client.session.connect.mutate({ extension: true, timeoutMs: 15_000 });
  });

  afterAll(async () => {
    close?.();
    await daemon?.stop('test done');
    const pid = user?.pid;
    await user?.close();
    await server?.close();
    rmSync(workspace, { recursive: true, force: true });
    if (pid) expect(alive(pid)).toBe(false);
  });

  const evalIn = async (tab: string, js: string) => (await client.page.eval.mutate({ tab, js })).value;
  const pageOf = (tab: string): Page => {
    const page = daemon.services.manager.current?.page(tab);
    if (!page) throw new Error(`no page ${tab}`);
    return page;
  };

  it("puts the banner in the user's own tab, Done ends it with the new cookie's name, and the tab stays", async () => {
    const tab = await user.openTab(server.urlFor('/form.html'));
    await waitUntil(
      async () => (await client.tabs.list.query({})).tabs.some((listed) => listed.id === tab),
      10_000,
      'the user tab in `tabs`',
    );
    await client.tabs.select.mutate({ id: tab });
    const handed = await client.handoff.start.mutate({ tab, reason: 'Accept the cookies, then press Done' });
    expect(handed).toMatchObject({ state: 'waiting', mode: 'extension', tab });
    expect(daemon.services.manager.launches).toBe(1);
    await waitUntil(
      async () => (await evalIn(tab, `!!document.querySelector('${BANNER_TAG}')`)) === true,
      10_000,
      'the banner',
    );
    expect((await client.daemon.status.query({})).handoffs).toHaveLength(1);

    // the person's site sets a cookie on the next page; the banner follows the navigation
    await client.page.goto.mutate({ tab, url: server.urlFor('/set-cookie?name=consent&value=yes-all') });
    await waitUntil(
      async () => (await evalIn(tab, `!!document.querySelector('${BANNER_TAG}')`)) === true,
      10_000,
      'the banner again',
    );
    const waiting = client.handoff.start.mutate({ wait: true });
    await pressDone(pageOf(tab));
    const ended = await waiting;
    expect(ended).toMatchObject({ state: 'done', mode: 'extension', tab });
    expect(ended.changes?.cookiesAdded).toContain('consent@127.0.0.1');
    // the value is in the page's own URL (the fixture takes it from the query), nowhere else
    const { url: _url, ...rest } = ended.changes ?? { url: '' };
    expect(JSON.stringify({ ...ended, changes: rest })).not.toContain('yes-all');
    // the user's tab is still there, without the banner
    expect((await client.tabs.list.query({})).tabs.some((listed) => listed.id === tab)).toBe(true);
    expect(await evalIn(tab, `!!document.querySelector('${BANNER_TAG}')`)).toBe(false);
    expect((await client.daemon.status.query({})).handoffs).toEqual([]);
  }, 90_000);

  it('ends by itself at --timeout: state timeout, the banner gone', async () => {
    const tab = (await client.tabs.list.query({})).tabs.find((listed) => listed.url.includes('/set-cookie'))?.id ?? '';
    const ended = await client.handoff.start.mutate({ tab, reason: 'Nobody will come', wait: true, timeout: '10s' });
    expect(ended).toMatchObject({ state: 'timeout', tab, changes: { urlChanged: false, cookiesAdded: [] } });
    expect(await evalIn(tab, `!!document.querySelector('${BANNER_TAG}')`)).toBe(false);
    expect((await client.daemon.status.query({})).handoffs).toEqual([]);
  }, 60_000);
});
