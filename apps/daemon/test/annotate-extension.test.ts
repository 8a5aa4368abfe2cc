import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ArgusClient, createArgusClient } from '@argus/client';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDaemon, startDaemon } from '../src/index.js';
import { alive, launchUserBrowser, type UserBrowser, waitUntil } from './extension-harness.js';
import { PickerDriver } from './picker-driver.js';

// Issue 20: `argus annotate` on the user's own tab, through the extension (chrome.debugger): the
// picker, its binding and the person's input events all go through the relay.

describe('argus annotate through the extension', () => {
  const launchToken = randomBytes(24).toString('base64url');
  let server: FixtureServer;
  let user: UserBrowser;
  let daemon: RunningDaemon;
  let client: ArgusClient;
  let closeClient: () => void;
  let workspace: string;

  beforeAll(async () => {
    server = await startFixtureServer();
    workspace = mkdtempSync(join(tmpdir(), 'argus-annotate-ext-'));
    daemon = await startDaemon({
      stateDir: join(workspace, '.argus'),
      workspace,
      env: { ...process.env, ARGUS_RELAY_PORT: '0', ARGUS_RELAY_LAUNCH_TOKEN: launchToken },
    });
    const handle = createArgusClient({ url: `http://127.0.0.1:${daemon.port}`, token: daemon.token });
    client = handle.client;
    closeClient = handle.close;
    user = await launchUserBrowser();
  });

  afterAll(async () => {
    closeClient?.();
    await daemon?.stop('test done');
    const pid = user?.pid;
    await user?.close();
    await server?.close();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
    if (pid) expect(alive(pid)).toBe(false);
  });

  it("picks elements of the user's tab; the locator resolves to the clicked element", async () => {
    const connected = await client.session.connect.mutate({ extension: true });
    await user.configure({ relayUrl: connected.extension.relayUrl ?? '', launchToken });
    await client.session.connect.mutate({ extension: true, timeoutMs: 15_000 });
    const tab = await user.openTab(server.urlFor('/login.html'));
    await waitUntil(
      async () => (await client.tabs.list.query({})).tabs.some((listed) => listed.id === tab),
      10_000,
      'the user tab in `tabs`',
    );
    await client.tabs.select.mutate({ id: tab });
    await client.input.fill.mutate({ tab, target: '#pass', text: 'hunter2' });

    const page = await daemon.services.manager.page(tab);
    const driver = new PickerDriver(page);
    const pending = client.inbox.annotate.mutate({ tab, note: 'Point at the login button', timeout: 120 });
    await driver.ready();
    const button = await driver.centre('#submit');
    await driver.move(button);
    expect((await driver.pickerNodes()).some((node) => node.text.includes('button "Sign in"'))).toBe(true);
    await driver.click(button);
    await driver.type('this one');
    await driver.click(await driver.centre('#pass'));
    await driver.clickPickerButton('send');

    const result = await pending;
    expect(result.status).toBe('sent');
    expect(result.annotation?.elements).toMatchObject([
      { note: 'this one', role: 'button', locator: 'role=button[name="Sign in"]' },
      { note: '', locator: 'label="Password"', value: '[masked]', masked: true },
    ]);
    expect(JSON.stringify(result)).not.toContain('hunter2');
    expect(await page.evaluate(`!!document.querySelector('argus-annotate')`)).toBe(false);

    await client.input.hover.mutate({ tab, target: result.annotation!.elements[0]!.locator! });
    expect(await page.evaluate(`[...document.querySelectorAll(':hover')].at(-1)?.id`)).toBe('submit');
    const listed = await client.inbox.list.query({ unread: true });
    expect(listed.items.map((item) => item.id)).toContain(result.annotation!.id);
  });

  it('the popup\'s "Annotate this page" runs the picker on that tab; what the person sends lands in the inbox', async () => {
    const tab = (await client.tabs.list.query({})).tabs.find((listed) => listed.url.includes('/login.html'))!.id;
    const page = await daemon.services.manager.page(tab);
    const driver = new PickerDriver(page);
    const chromeTabId = await user.evalInWorker(
      `chrome.tabs.query({}).then((tabs) => tabs.find((t) => t.url.includes('/login.html')).id)`,
    );
    // what the popup button's message does in the worker (a popup cannot be opened in headless Chromium)
    await user.evalInWorker(`argusRequestAnnotation(${JSON.stringify(chromeTabId)})`);
    await driver.ready();
    await driver.click(await driver.centre('#user'));
    await driver.type('from the popup');
    await driver.press('Enter');
    let found: Awaited<ReturnType<typeof client.inbox.list.query>>['items'][number] | undefined;
    await waitUntil(
      async () => {
        found = (await client.inbox.list.query({})).items.find((item) => item.source === 'extension');
        return found !== undefined;
      },
      15_000,
      'the extension annotation in the inbox',
    );
    const item = (await client.inbox.show.query({ id: found!.id })).item;
    expect(item).toMatchObject({ source: 'extension', read: false, tab });
    expect(item.elements).toMatchObject([{ note: 'from the popup', locator: 'label="Username"' }]);
  });

  it("Pause from the side panel holds the agent's commands on that tab until Resume; status lists it", async () => {
    const tab = (await client.tabs.list.query({})).tabs.find((listed) => listed.url.includes('/login.html'))!.id;
    const chromeTabId = await user.evalInWorker(
      `chrome.tabs.query({}).then((tabs) => tabs.find((t) => t.url.includes('/login.html')).id)`,
    );
    // what the side panel's Pause button asks of the worker
    await user.evalInWorker(`argusSetPaused(${JSON.stringify(chromeTabId)}, true)`);
    await waitUntil(
      async () => ((await client.daemon.status.query({})).paused ?? []).some((pause) => pause.tab === tab),
      10_000,
      'the paused tab in status',
    );
    let settled = false;
    const held = client.read.text.query({ tab }).then((value) => {
      settled = true;
      return value;
    });
    // other calls go on meanwhile (status answers), the held one has not run
    await client.daemon.status.query({});
    await client.tabs.list.query({});
    expect(settled).toBe(false);
    expect(
      await user.evalInWorker(`chrome.storage.session.get('pausedTabs').then((v) => Object.keys(v.pausedTabs))`),
    ).toEqual([String(chromeTabId)]);
    await user.evalInWorker(`argusSetPaused(${JSON.stringify(chromeTabId)}, false)`);
    expect((await held).text).toContain('Sign in');
    expect((await client.daemon.status.query({})).paused ?? []).toEqual([]);
  });
});
