import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ArgusClient, createArgusClient } from '@argus/client';
import { type ChromeProcess, launchChrome } from '@argus/cdp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, TEST_CHROME_FLAGS, codeOf, failure, startHarness } from './harness.js';

/**
 * Pool mode against real browsers: three plain Chromium processes on loopback (each with its own
 * temporary profile and --remote-debugging-port=0) are the grid; one is killed mid-command.
 */
describe('remote browser pool', () => {
  const chromes: ChromeProcess[] = [];
  const handles: Array<{ close(): void }> = [];
  let h: Harness;

  /** A client whose every call runs in the named session. */
  const session = (name: string): ArgusClient => {
    const handle = createArgusClient({
      url: `http://127.0.0.1:${h.daemon.port}`,
      token: h.daemon.token,
      session: name,
    });
    handles.push(handle);
    return handle.client;
  };
  const pool = async () => (await h.client.daemon.status.query({})).pool!;
  const endpointOf = async (name: string) => (await pool()).endpoints.findIndex((e) => e.sessions.includes(name));

  beforeAll(async () => {
    for (let i = 0; i < 3; i++) chromes.push(await launchChrome({ extraFlags: [TEST_CHROME_FLAGS] }));
    h = await startHarness();
  });
  afterAll(async () => {
    for (const handle of handles) handle.close();
    await h?.close();
    // every endpoint is ours: none may outlive the test
    await Promise.all(chromes.map((chrome) => chrome.kill()));
  });

  it('refuses a pool it cannot use, before touching any browser', async () => {
    const ws = chromes[0]!.wsEndpoint;
    expect(await codeOf(h.client.session.connect.mutate({ pool: [ws], cdp: ws }))).toBe('invalid_input');
    expect(await codeOf(h.client.session.connect.mutate({ pool: [`${ws},${ws}`] }))).toBe('invalid_input');
    expect(await codeOf(h.client.session.connect.mutate({ pool: ['http://10.1.2.3:9222'] }))).toBe('remote_forbidden');
    expect(await codeOf(h.client.session.connect.mutate({ pool: ['ftp://127.0.0.1:1'] }))).toBe('invalid_input');
    expect(await codeOf(h.client.session.connect.mutate({ managed: true, maxSessions: 2 }))).toBe('invalid_input');
    expect((await h.client.daemon.status.query({})).mode).toBe('managed');
  });

  it('places sessions on endpoints with free slots, fails one over when its endpoint dies, restoring its saved state', async () => {
    const connected = await h.client.session.connect.mutate({
      pool: chromes.map((chrome) => chrome.wsEndpoint),
      maxSessions: 2,
      restoreState: true,
    });
    expect(connected).toMatchObject({ mode: 'pool', switched: true });
    // every endpoint answered Browser.getVersion before the answer came back
    expect(connected.pool!.endpoints.map((e) => e.health)).toEqual(['healthy', 'healthy', 'healthy']);
    expect(connected.pool!.endpoints[0]!.version).toMatch(/Chrome\//);

    const names = ['a', 'b', 'c', 'd'];
    const clients = Object.fromEntries(names.map((name) => [name, session(name)]));
    for (const name of names) await clients[name]!.page.goto.mutate({ url: h.server.urlFor('/buttons.html') });
    // least loaded first: the four sessions spread 2/1/1 over three endpoints, none past its cap
    const loads = (await pool()).endpoints.map((e) => e.sessions.length);
    expect(loads.sort()).toEqual([1, 1, 2]);
    // a call in session b sees its own session by name and only counts the others
    const seenByB = (await clients['b']!.daemon.status.query({})).pool!;
    expect(seenByB.endpoints.flatMap((e) => e.sessions)).toEqual(['b']);
    expect(seenByB.endpoints.reduce((sum, e) => sum + e.others, 0)).toBe(3);
    for (const other of ['a', 'c', 'd']) expect(JSON.stringify(seenByB)).not.toContain(`"${other}"`);
    // the operator's default session sees all of the operator's sessions
    expect((await pool()).endpoints.reduce((sum, e) => sum + e.others, 0)).toBe(0);

    // session a logs in (a cookie) and saves its state
    const a = clients['a']!;
    await a.page.goto.mutate({ url: h.server.urlFor('/set-cookie?name=kept&value=yes&max-age=600') });
    await a.page.goto.mutate({ url: h.server.urlFor('/form.html') });
    await a.state.save.mutate({ name: 'a-login' });
    const dying = await endpointOf('a');
    const neighbours = (await pool()).endpoints[dying]!.sessions.filter((name) => name !== 'a');
    const elsewhere = names.filter((name) => name !== 'a' && !neighbours.includes(name));

    // a command of a is running when its endpoint's browser is killed
    const running = failure(a.page.eval.mutate({ js: 'new Promise((resolve) => setTimeout(resolve, 60_000))' }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await chromes[dying]!.kill();
    const lost = await running;
    expect(lost.code).toBe('browser_lost');
    expect(lost.message).toContain('a-login');

    // the status shows the endpoint down; its other sessions are lost until their next command
    const after = await pool();
    expect(after.endpoints[dying]!.health).toBe('down');
    expect(after.endpoints[dying]!.sessions).toEqual([]);
    expect(after.lost).toEqual(neighbours);
    const lostSeenByA = (await a.daemon.status.query({})).pool!;
    expect(lostSeenByA.lost).toEqual([]);
    expect(lostSeenByA.othersLost).toBe(neighbours.length);
    for (const name of neighbours) expect(await codeOf(clients[name]!.tabs.list.query({}))).toBe('browser_lost');

    // the next command recreates a on a live endpoint, with its cookie and its tab back
    const title = await a.page.eval.mutate({ js: 'document.title + " " + document.cookie' });
    expect(title.value).toBe('Sign up kept=yes');
    const moved = await endpointOf('a');
    expect(moved).not.toBe(dying);
    expect(moved).toBeGreaterThanOrEqual(0);
    // sessions on the other endpoints never noticed
    for (const name of elsewhere) {
      expect((await clients[name]!.page.eval.mutate({ js: 'location.pathname' })).value).toBe('/buttons.html');
    }
    // a neighbour comes back too, empty (it saved nothing)
    for (const name of neighbours) {
      expect((await clients[name]!.page.eval.mutate({ js: 'location.href' })).value).toBe('about:blank');
    }

    // two live endpoints x 2 slots hold the four sessions: a fifth finds no room until one closes
    const e = session('e');
    const full = await failure(e.page.goto.mutate({ url: h.server.urlFor('/buttons.html') }));
    expect(full.code).toBe('pool_exhausted');
    expect(full.message).toMatch(/1 down/);
    expect((await h.client.sessions.close.mutate({ name: 'd' })).existed).toBe(true);
    await e.page.goto.mutate({ url: h.server.urlFor('/buttons.html') });
    const final = await pool();
    expect(final.endpoints.flatMap((ep) => ep.sessions).sort()).toEqual(['a', 'b', 'c', 'e']);
    for (const ep of final.endpoints) expect(ep.sessions.length).toBeLessThanOrEqual(2);

    // stop says what really happens: the sessions are released, the remote browsers run on
    const alive = chromes.filter((_chrome, index) => index !== dying);
    const stopped = await h.client.daemon.stop.mutate({});
    expect(stopped).toMatchObject({ stopping: true, browser: 'left_running', poolSessions: 4 });
    await h.daemon.stopped;
    for (const chrome of alive) {
      const version = await fetch(`http://127.0.0.1:${new URL(chrome.wsEndpoint).port}/json/version`);
      expect(version.ok).toBe(true);
    }
  });
});

describe('pool health checks', () => {
  let chrome: ChromeProcess | undefined;
  let spare: ChromeProcess | undefined;
  let h: Harness | undefined;
  afterAll(async () => {
    if (chrome) process.kill(chrome.pid, 'SIGCONT');
    await h?.close();
    await chrome?.kill();
    await spare?.kill();
  });

  it('finds a wedged endpoint by Browser.getVersion (its socket stays open) and fails its session over', async () => {
    chrome = await launchChrome({ extraFlags: [TEST_CHROME_FLAGS] });
    spare = await launchChrome({ extraFlags: [TEST_CHROME_FLAGS] });
    // the pool comes from the project config, checked every second
    const workspace = mkdtempSync(join(tmpdir(), 'argus-ws-'));
    mkdirSync(join(workspace, '.argus'), { recursive: true });
    writeFileSync(
      join(workspace, '.argus', 'config.json'),
      JSON.stringify({
        pool: { endpoints: [chrome.wsEndpoint, spare.wsEndpoint], maxSessionsPerEndpoint: 1, healthIntervalMs: 1_000 },
      }),
    );
    h = await startHarness({}, { workspace });
    expect((await h.client.daemon.status.query({})).mode).toBe('pool');
    // the operator's own session (no --session) is placed like any other: on the first endpoint
    await h.client.page.goto.mutate({ url: h.server.urlFor('/buttons.html') });
    expect((await h.client.daemon.status.query({})).pool!.endpoints[0]!.sessions).toEqual(['default']);

    // a stopped browser keeps its socket open: only the health check can tell
    process.kill(chrome.pid, 'SIGSTOP');
    const first = async () => (await h!.client.daemon.status.query({})).pool!.endpoints[0]!;
    await expect.poll(async () => (await first()).health, { timeout: 60_000, interval: 250 }).toBe('down');
    expect((await first()).lastError).toMatch(/Browser.getVersion did not answer/);
    expect((await h.client.daemon.status.query({})).pool!.lost).toEqual(['default']);
    expect(await codeOf(h.client.page.eval.mutate({ js: 'document.title' }))).toBe('browser_lost');
    expect((await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') })).title).toBe('Sign up');
    expect((await h.client.daemon.status.query({})).pool!.endpoints[1]!.sessions).toEqual(['default']);
  });
});

describe('pool isolation on a shared remote browser', () => {
  let chrome: ChromeProcess | undefined;
  let h: Harness | undefined;
  afterAll(async () => {
    await h?.close();
    await chrome?.kill();
  });

  it("drives only its own contexts' tabs: the endpoint's other tabs are neither listed nor navigated, and the default session's tabs end with the daemon", async () => {
    chrome = await launchChrome({ extraFlags: [TEST_CHROME_FLAGS] });
    h = await startHarness();
    const devtools = `http://127.0.0.1:${new URL(chrome.wsEndpoint).port}`;
    const pages = async () =>
      ((await (await fetch(`${devtools}/json/list`)).json()) as Array<{ id: string; type: string; url: string }>)
        .filter((target) => target.type === 'page')
        .map(({ id, url }) => ({ id, url }));
    // a tab somebody else has open on the grid browser (its own first tab, another daemon's session)
    const foreignUrl = h.server.urlFor('/form.html?owner=someone-else');
    const foreign = (await (await fetch(`${devtools}/json/new?${foreignUrl}`, { method: 'PUT' })).json()) as {
      id: string;
    };
    await expect.poll(async () => (await pages()).find((page) => page.id === foreign.id)?.url).toBe(foreignUrl);
    const before = (await pages()).sort((x, y) => x.id.localeCompare(y.id));

    await h.client.session.connect.mutate({ pool: [chrome.wsEndpoint] });
    expect((await h.client.tabs.list.query({})).tabs).toEqual([]);
    expect(await codeOf(h.client.tabs.select.mutate({ id: foreign.id }))).toBe('tab_not_found');
    // the default session's first goto opens a tab of its own instead of taking over someone's
    await h.client.page.goto.mutate({ url: h.server.urlFor('/buttons.html') });
    expect((await h.client.tabs.list.query({})).tabs.map((tab) => tab.url)).toEqual([h.server.urlFor('/buttons.html')]);
    expect((await pages()).find((page) => page.id === foreign.id)?.url).toBe(foreignUrl);

    // stop releases the default session too: the remote browser is left as it was found
    expect(await h.client.daemon.stop.mutate({})).toMatchObject({ browser: 'left_running', poolSessions: 1 });
    await h.daemon.stopped;
    await expect
      .poll(async () => (await pages()).sort((x, y) => x.id.localeCompare(y.id)), { timeout: 10_000, interval: 100 })
      .toEqual(before);
  });
});

describe('pool endpoint credentials', () => {
  let grid: Server | undefined;
  let h: Harness | undefined;
  afterAll(async () => {
    await h?.close();
    await new Promise((resolve) => grid?.close(resolve));
  });

  it('never shows the token of an endpoint that refuses it (status, the command that finds no room)', async () => {
    // a grid that refuses the credentials, as browserless does with a wrong ?token=
    grid = createServer((_req, res) => res.writeHead(401).end('Bad or missing authentication token'));
    grid.on('upgrade', (_req, socket) =>
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 12\r\n\r\nUnauthorized'),
    );
    await new Promise<void>((resolve) => grid!.listen(0, '127.0.0.1', resolve));
    const secret = 'gridsecret-7Q2xv9LmP4';
    const url = `ws://127.0.0.1:${(grid.address() as AddressInfo).port}/chromium?token=${secret}`;
    h = await startHarness();

    const connected = await h.client.session.connect.mutate({ pool: [url] });
    expect(connected.pool!.endpoints[0]!.health).toBe('down');
    expect(connected.pool!.endpoints[0]!.lastError).toMatch(/401/);
    expect(JSON.stringify(connected)).not.toContain(secret);
    const full = await failure(h.client.page.goto.mutate({ url: h.server.urlFor('/buttons.html') }));
    expect(full.code).toBe('pool_exhausted');
    expect(JSON.stringify(full)).not.toContain(secret);
    const status = await h.client.daemon.status.query({});
    expect(status.pool!.endpoints[0]!.lastError).toMatch(/401/);
    expect(JSON.stringify(status)).not.toContain(secret);
  });
});
