import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ArgusClient, createArgusClient, findRef, isProcessAlive } from '@argus/client';
import { ArgusError } from '@argus/protocol';
import { type FixtureServer, runProcess, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDaemon, startDaemon } from '../src/index.js';
import { launchUserBrowser, type UserBrowser, waitUntil } from './extension-harness.js';
import { codeOf } from './harness.js';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'cli', 'dist', 'argus.js');

interface DaemonUnderTest {
  daemon: RunningDaemon;
  client: ArgusClient;
  workspace: string;
  close(): Promise<void>;
}

async function startTestDaemon(env: NodeJS.ProcessEnv): Promise<DaemonUnderTest> {
  const workspace = mkdtempSync(join(tmpdir(), 'argus-ext-ws-'));
  const daemon = await startDaemon({
    stateDir: join(workspace, '.argus'),
    workspace,
    env: { ...process.env, ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9', ...env },
  });
  const handle = createArgusClient({ url: `http://127.0.0.1:${daemon.port}`, token: daemon.token });
  return {
    daemon,
    client: handle.client,
    workspace,
    async close() {
      handle.close();
      await daemon.stop('test done');
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}

/** The CLI as its own process, talking to the in-process daemon through its state dir. */
function argus(stateDir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runProcess(process.execPath, [CLI, ...args], {
    env: { ...process.env, ARGUS_STATE_DIR: stateDir },
    timeoutMs: 30_000,
  });
}

/** The ref of the element with this accessible name (snapshot lines may group siblings: `textbox "A" e1 "B" e2`). */
function refFor(snapshot: string, name: string): string {
  const ref = findRef(snapshot, name);
  if (!ref) throw new Error(`No ref for "${name}" in:\n${snapshot}`);
  return ref;
}

async function snapshotUntil(client: ArgusClient, pattern: RegExp, tab?: string): Promise<string> {
  let text = '';
  await waitUntil(
    async () => {
      text = (await client.snapshot.take.mutate({ ...(tab ? { tab } : {}) })).text;
      return pattern.test(text);
    },
    10_000,
    `a snapshot matching ${pattern}`,
  );
  return text;
}

describe('extension mode through the daemon, the typed client and the CLI', () => {
  const launchToken = randomBytes(24).toString('base64url');
  let server: FixtureServer;
  let other: FixtureServer;
  let user: UserBrowser;
  let d: DaemonUnderTest;
  let relayPort = 0;
  let userTab = '';

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('Build the CLI first: pnpm --filter @argus/cli build');
    server = await startFixtureServer();
    other = await startFixtureServer();
    d = await startTestDaemon({ ARGUS_RELAY_PORT: '0', ARGUS_RELAY_LAUNCH_TOKEN: launchToken });
    user = await launchUserBrowser();
  });

  afterAll(async () => {
    await d?.close();
    const pid = user?.pid;
    await user?.close();
    await other?.close();
    await server?.close();
    if (pid) expect(isProcessAlive(pid)).toBe(false);
  });

  it('status before: managed mode, relay not started', async () => {
    const status = await d.client.daemon.status.query({});
    expect(status.mode).toBe('managed');
    expect(status.extension).toMatchObject({ state: 'relay_stopped', relayUrl: null, connected: false });
  });

  it('connect --extension starts the relay; a command before the extension connects says what to do', async () => {
    const connected = await d.client.session.connect.mutate({ extension: true });
    expect(connected).toMatchObject({
      mode: 'extension',
      previousMode: 'managed',
      switched: true,
      extension: { state: 'waiting_for_extension', connected: false },
    });
    expect(connected.extension.relayUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    relayPort = Number(new URL(connected.extension.relayUrl ?? '').port);
    const error = await d.client.tabs.list.query({}).catch((e: unknown) => e as ArgusError);
    expect(error).toBeInstanceOf(ArgusError);
    expect((error as ArgusError).code).toBe('browser_not_found');
    expect((error as ArgusError).message).toMatch(/No Argus extension is connected.*argus pair/);
  });

  it('the extension pairs with the launch token and connects; status shows it (typed client and CLI)', async () => {
    const { extension } = await d.client.daemon.status.query({});
    await user.configure({ relayUrl: extension?.relayUrl ?? '', launchToken });
    const waited = await d.client.session.connect.mutate({ extension: true, timeoutMs: 15_000 });
    expect(waited).toMatchObject({
      mode: 'extension',
      switched: false,
      extension: { state: 'connected', connected: true, paired: true },
    });
    const status = await d.client.daemon.status.query({});
    expect(status).toMatchObject({ mode: 'extension', extension: { state: 'connected', connected: true } });
    const cli = await argus(d.daemon.stateDir, 'status');
    expect(cli.stderr).toBe('');
    expect(cli.stdout).toMatch(/mode\s+extension/);
    expect(cli.stdout).toMatch(/extension connected \(node [\w-]+, \d+ tabs\) via relay http:\/\/127\.0\.0\.1:\d+/);
  });

  it('asking for another relay port while the extension is connected is refused with what to do; the extension stays connected', async () => {
    const error = await d.client.session.connect
      .mutate({ extension: true, relayPort: relayPort + 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArgusError);
    expect((error as ArgusError).code).toBe('invalid_input');
    expect((error as ArgusError).message).toMatch(
      new RegExp(`port ${relayPort} and an extension is connected.*argus stop.*--relay-port ${relayPort + 1}`),
    );
    const { extension } = await d.client.daemon.status.query({});
    expect(extension).toMatchObject({ relayUrl: `http://127.0.0.1:${relayPort}`, connected: true });
  });

  it('lists the user tab and attaches to it on demand (tabs.select), without closing anything', async () => {
    userTab = await user.openTab(server.urlFor('/nav-a.html'));
    await waitUntil(
      async () => (await d.client.tabs.list.query({})).tabs.some((tab) => tab.id === userTab),
      10_000,
      'the user tab in `tabs`',
    );
    const cli = await argus(d.daemon.stateDir, 'tabs');
    expect(cli.code).toBe(0);
    // the CLI lists a short id (the full one is in --json and the typed client's list)
    const listed = (await d.client.tabs.list.query({})).tabs.find((tab) => tab.id === userTab)!;
    expect(cli.stdout).toMatch(new RegExp(`^\\s+${listed.index}  ${listed.shortId}  `, 'm'));
    const selected = await d.client.tabs.select.mutate({ id: userTab });
    expect(selected).toMatchObject({ id: userTab, active: true });
    expect(selected.url).toContain('/nav-a.html');
  });

  it('goto, snapshot, fill and click refs, read text', async () => {
    const nav = await d.client.page.goto.mutate({ url: server.urlFor('/form.html') });
    expect(nav).toMatchObject({ title: 'Sign up', status: 200 });
    const snap = await d.client.snapshot.take.mutate({ interactive: true });
    expect(snap.refs).toBeGreaterThan(3);
    await d.client.input.fill.mutate({ target: refFor(snap.text, 'Name'), text: 'Ada' });
    await d.client.input.fill.mutate({ target: refFor(snap.text, 'Email'), text: 'ada@example.com' });
    const clicked = await d.client.input.click.mutate({ target: refFor(snap.text, 'Sign up') });
    expect(clicked.navigated).toBe(false);
    const text = await d.client.read.text.query({ target: '#result' });
    if (!/^Submitted: Ada/.test(text.text)) {
      // seen once under load (issue 13) and never reproduced since (80 stressed runs): when it comes
      // back, the failure carries the state needed to find the cause
      const state = await d.client.page.eval.mutate({
        js: `JSON.stringify({ scrollY, innerHeight, visibility: document.visibilityState, focus: document.hasFocus(), name: document.getElementById('name').value, email: document.getElementById('email').value, button: document.getElementById('submit').getBoundingClientRect(), active: document.activeElement && document.activeElement.id, url: location.href })`,
      });
      throw new Error(
        `The click on "Sign up" did not submit: ${JSON.stringify(clicked)}; page state ${String(state.value)}`,
      );
    }
    expect(text.text).toMatch(/^Submitted: Ada, ada@example.com/);
    // the same tab, seen from the user's side: the page really changed in their browser
    const cli = await argus(d.daemon.stateDir, 'text', '#result');
    expect(cli.stdout).toMatch(/Submitted: Ada/);
  });

  it('screenshot', async () => {
    const shot = await d.client.page.screenshot.mutate({});
    expect(shot.width).toBeGreaterThan(100);
    expect(shot.bytes).toBeGreaterThan(1000);
    if (shot.path) expect(statSync(shot.path).size).toBe(shot.bytes);
  });

  it('console capture: errors a click causes, and the console buffer', async () => {
    await d.client.page.goto.mutate({ url: server.urlFor('/console.html') });
    const snap = await d.client.snapshot.take.mutate({ interactive: true });
    const clicked = await d.client.input.click.mutate({ target: refFor(snap.text, 'Throw error') });
    expect(clicked.consoleErrors.join('\n')).toMatch(/uncaught error from click/);
    // `capture.console` when this build has it: the buffer also holds the load-time logs
    const capture = (
      d.client as unknown as {
        capture: { console: { query(input: object): Promise<{ messages: Array<{ text: string }> }> } };
      }
    ).capture;
    const listed = await capture.console.query({}).catch((error: unknown) => {
      if (error instanceof ArgusError && /Unknown command/.test(error.message)) return undefined;
      throw error;
    });
    if (listed) {
      const texts = listed.messages.map((m) => m.text).join('\n');
      expect(texts).toMatch(/console\.html: log message/);
      expect(texts).toMatch(/console\.html: error message/);
      expect(texts).toMatch(/uncaught error from click/);
    }
  });

  it('clicks an element inside a cross-origin (out-of-process) iframe by ref', async () => {
    const child = `http://localhost:${other.port}/frame-child.html`;
    await d.client.page.goto.mutate({ url: server.urlFor(`/frames.html?xorigin=${encodeURIComponent(child)}`) });
    // two "Child button"s: the same-origin frame's and the cross-origin one's (the second)
    const text = await snapshotUntil(d.client, /"Child button"[\s\S]*"Child button"/);
    const refs = [...text.matchAll(/"Child button" ((?:f\d+)?e\d+)/g)].map((m) => m[1] as string);
    expect(refs).toHaveLength(2);
    const crossRef = refs[1] as string;
    expect(crossRef).toMatch(/^f\d+e\d+$/);
    await d.client.input.click.mutate({ target: crossRef });
    const after = await snapshotUntil(d.client, /Child clicked/);
    expect(after.match(/Child clicked/g)).toHaveLength(1);
    // it was the cross-origin frame that changed, not the same-origin one (whose document the top page can read)
    const sameOrigin = await d.client.page.eval.mutate({
      js: `document.getElementById('child').contentDocument.getElementById('child-result').textContent`,
    });
    expect(sameOrigin.value).toBe('');
  });

  it('eval through the extension', async () => {
    expect((await d.client.page.eval.mutate({ js: '1 + 1' })).value).toBe(2);
  });

  it("canvas open previews a design document in a tab of the user's browser, updated in place by a patch", async () => {
    await d.client.canvas.new.mutate({ name: 'In the user browser', id: 'ext-preview' });
    const opened = await d.client.canvas.open.mutate({ doc: 'ext-preview' });
    // the preview is a tab of the user's own browser (its CDP sees it), opened by the agent
    const { targetInfos } = await user.cdp.send('Target.getTargets');
    expect(targetInfos.some((target) => target.targetId === opened.tab)).toBe(true);
    await d.client.page.eval.mutate({ tab: opened.tab, js: 'window.__marker = 7' });
    await d.client.canvas.patch.mutate({
      doc: 'ext-preview',
      ops: [
        {
          op: 'node.insert',
          pageId: 'page-1',
          parentId: null,
          node: { id: 'hello', kind: 'text', props: { text: 'Hello from the canvas' } },
        },
      ],
    });
    const shown = await d.client.page.eval.mutate({
      tab: opened.tab,
      js: `[document.querySelector('[data-canvas-node="hello"]')?.textContent, window.__marker, document.documentElement.dataset.canvasRevision]`,
    });
    // updated without a reload: the page's own JS state is still there
    expect(shown.value).toEqual(['Hello from the canvas', 7, '1']);
    await d.client.tabs.close.mutate({ id: opened.tab });
  });

  it('the user closes the tab: the next command fails with target_closed (or picks an agent tab), never hangs', async () => {
    await user.cdp.send('Target.closeTarget', { targetId: userTab });
    await waitUntil(
      async () => !(await d.client.tabs.list.query({})).tabs.some((tab) => tab.id === userTab),
      10_000,
      'the closed tab to leave `tabs`',
    );
    expect(await codeOf(d.client.page.url.query({ tab: userTab }))).toMatch(/target_closed|tab_not_found/);
  });

  it('an agent-opened tab is closable; a user tab is refused', async () => {
    const opened = await d.client.tabs.open.mutate({ url: server.urlFor('/nav-b.html') });
    expect((await d.client.page.url.query({})).url).toContain('/nav-b.html');
    const closed = await d.client.tabs.close.mutate({ id: opened.id });
    expect(closed.closed).toBe(opened.id);
    userTab = await user.openTab(server.urlFor('/nav-a.html'));
    await waitUntil(
      async () => (await d.client.tabs.list.query({})).tabs.some((tab) => tab.id === userTab),
      10_000,
      'the new user tab',
    );
    expect(await codeOf(d.client.tabs.close.mutate({ id: userTab }))).toBe('forbidden_scope');
  });

  it("focus brings the user's tab to the front of the user's browser, and back", async () => {
    const agentTab = (await d.client.tabs.open.mutate({ url: server.urlFor('/nav-b.html') })).id;
    const shown = async (tab: string) =>
      (await d.client.page.eval.mutate({ js: 'document.visibilityState', tab })).value as string;
    expect(await d.client.page.focus.mutate({ tab: userTab })).toMatchObject({ id: userTab });
    await waitUntil(async () => (await shown(userTab)) === 'visible', 10_000, 'the user tab to be shown');
    expect(await shown(agentTab)).toBe('hidden');
    await d.client.page.focus.mutate({ tab: agentTab });
    await waitUntil(async () => (await shown(agentTab)) === 'visible', 10_000, 'the agent tab to be shown');
    expect(await shown(userTab)).toBe('hidden');
    await d.client.tabs.close.mutate({ id: agentTab });
  });

  it('daemon restart: stopping only disconnects (the user browser and tab live on); a new daemon re-pairs by operator code (CLI `pair`) and drives the same tab', async () => {
    await d.client.tabs.select.mutate({ id: userTab });
    await d.client.page.eval.mutate({ js: 'window.__mark = "kept"' });
    await d.close();
    expect(isProcessAlive(user.pid)).toBe(true);
    const { targetInfos } = await user.cdp.send('Target.getTargets');
    expect(targetInfos.map((t) => t.targetId)).toContain(userTab);

    // the new daemon has no launch token and a fresh pairing file: the operator approves the code
    await user.evalInWorker(`chrome.storage.local.remove('launchToken')`);
    d = await startTestDaemon({ ARGUS_RELAY_PORT: String(relayPort) });
    const connect = await argus(d.daemon.stateDir, 'connect', '--extension');
    expect(connect.stderr).toBe('');
    expect(connect.stdout).toMatch(/mode\s+extension \(was managed\)/);
    let code = '';
    await waitUntil(
      async () => {
        const listed = await argus(d.daemon.stateDir, 'pair', '--json');
        code = (JSON.parse(listed.stdout) as { pending: Array<{ code: string }> }).pending[0]?.code ?? '';
        return code !== '';
      },
      20_000,
      'a pending pairing request',
    );
    expect(code).toMatch(/^[A-Z2-9]{3}-[A-Z2-9]{3}$/);
    expect((await argus(d.daemon.stateDir, 'pair', 'ZZZ-ZZZ')).code).toBe(2);
    const approved = await argus(d.daemon.stateDir, 'pair', code.toLowerCase().replace('-', ''));
    expect(approved.stdout).toContain(`approved ${code}`);
    await d.client.session.connect.mutate({ extension: true, timeoutMs: 15_000 });
    await waitUntil(
      async () => (await d.client.daemon.status.query({})).extension?.connected === true,
      15_000,
      'the extension to reconnect',
    );

    await d.client.tabs.select.mutate({ id: userTab });
    expect((await d.client.page.eval.mutate({ js: 'window.__mark' })).value).toBe('kept');
  });

  it('connect --managed disconnects from the user browser without closing it', async () => {
    const switched = await d.client.session.connect.mutate({ managed: true });
    expect(switched).toMatchObject({ mode: 'managed', previousMode: 'extension', switched: true });
    expect(isProcessAlive(user.pid)).toBe(true);
    const { targetInfos } = await user.cdp.send('Target.getTargets');
    expect(targetInfos.map((t) => t.targetId)).toContain(userTab);
    expect(await codeOf(d.client.session.connect.mutate({ extension: true, managed: true }))).toBe('invalid_input');
  });
});
