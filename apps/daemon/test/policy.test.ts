import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createArgusClient } from '@argus/client';
import { ArgusError } from '@argus/protocol';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { startDaemon } from '../src/index.js';
import { codeOf, useHarness } from './harness.js';

// the user file lives in a temp XDG_CONFIG_HOME, so no developer's own config leaks in
const xdg = mkdtempSync(join(tmpdir(), 'argus-xdg-'));
afterAll(() => rmSync(xdg, { recursive: true, force: true }));
const h = useHarness({ XDG_CONFIG_HOME: xdg });
/** Other suites load the machine: give event-driven outcomes room before calling them missing. */
const WAIT = { timeout: 20_000, interval: 50 };

/** The fixture server under a second name: `localhost` is another host to the policy (and to Chrome). */
const otherHost = (path: string) => h.server.urlFor(path).replace('127.0.0.1', 'localhost');

async function setPolicy(key: string, value: unknown): Promise<void> {
  await h.client.config.set.mutate({ key, value: JSON.stringify(value) });
}

afterEach(async () => {
  for (const key of [
    'policy.domains.allow',
    'policy.domains.deny',
    'policy.approve.commands',
    'policy.approve.submitOn',
    'policy.approve.timeoutMs',
    'policy.cdp.allow',
  ]) {
    await h.client.config.set.mutate({ key, unset: true });
  }
});

async function scopedClient(scope: 'read' | 'write' | 'admin') {
  const { token } = await h.client.token.create.mutate({ scope });
  return createArgusClient({ url: `http://127.0.0.1:${h.daemon.port}`, token }).client;
}

describe('config file', () => {
  it('sets, gets and lists keys; the project file is written 0600 and the layers are named', async () => {
    const set = await h.client.config.set.mutate({ key: 'chrome.headless', value: 'false' });
    expect(set).toMatchObject({
      key: 'chrome.headless',
      value: false,
      file: join(h.workspace, '.argus', 'config.json'),
      restartNeeded: true,
    });
    expect(statSync(set.file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(set.file, 'utf8'))).toEqual({ chrome: { headless: false } });
    expect(await h.client.config.get.query({ key: 'chrome.headless' })).toMatchObject({
      value: false,
      source: 'project',
      where: set.file,
      env: 'ARGUS_HEADLESS',
    });
    // the harness sets ARGUS_CHROME_FLAGS: the environment layer names its variable
    expect(await h.client.config.get.query({ key: 'chrome.flags' })).toMatchObject({
      source: 'env',
      where: 'ARGUS_CHROME_FLAGS',
      value: ['--proxy-server=http://127.0.0.1:9'],
    });
    const user = await h.client.config.set.mutate({ key: 'idleTimeoutMs', value: '60000', user: true });
    expect(user.file).toBe(join(xdg, 'argus', 'config.json'));
    expect(statSync(user.file).mode & 0o777).toBe(0o600);
    const { entries, files } = await h.client.config.list.query({});
    expect(files).toEqual({ user: user.file, project: set.file });
    expect(entries.find((entry) => entry.key === 'idleTimeoutMs')).toMatchObject({ value: 60000, source: 'user' });
    expect(entries.find((entry) => entry.key === 'relay.port')).toMatchObject({
      value: 8787,
      source: 'default',
      env: 'ARGUS_RELAY_PORT',
    });
    // every environment variable the README names has its key
    for (const name of [
      'ARGUS_STATE_DIR',
      'ARGUS_CHROME_FLAGS',
      'CHROME_PATH',
      'ARGUS_IDLE_TIMEOUT_MS',
      'ARGUS_HEADLESS',
      'ARGUS_CDP_URL',
    ]) {
      expect(
        entries.some((entry) => entry.env === name),
        name,
      ).toBe(true);
    }
    await h.client.config.set.mutate({ key: 'chrome.headless', unset: true });
    await h.client.config.set.mutate({ key: 'idleTimeoutMs', unset: true, user: true });
    expect(JSON.parse(readFileSync(set.file, 'utf8'))).toEqual({});
  });

  it('refuses unknown keys and bad values with the key named, and writes nothing', async () => {
    const unknown = await h.client.config.set
      .mutate({ key: 'chrome.headles', value: 'false' })
      .catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(ArgusError);
    expect((unknown as ArgusError).message).toMatch(/Unknown config key "chrome.headles".*chrome.headless/);
    const bad = await h.client.config.set
      .mutate({ key: 'relay.port', value: 'ninety' })
      .catch((error: unknown) => error);
    expect((bad as ArgusError).code).toBe('invalid_input');
    expect((bad as ArgusError).message).toMatch(/relay.port/);
    expect(await h.client.config.get.query({ key: 'relay.port' })).toMatchObject({ source: 'default' });
  });

  it('a daemon does not start on an invalid file: the error names the file and the key', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'argus-badcfg-'));
    try {
      mkdirSync(join(workspace, '.argus'));
      writeFileSync(join(workspace, '.argus', 'config.json'), JSON.stringify({ chrome: { headless: 'no' } }));
      const error = await startDaemon({
        stateDir: join(workspace, '.argus'),
        workspace,
        env: { XDG_CONFIG_HOME: xdg },
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ArgusError);
      expect((error as ArgusError).message).toContain(join(workspace, '.argus', 'config.json'));
      expect((error as ArgusError).message).toMatch(/chrome\.headless: .*boolean/);
      rmSync(join(workspace, '.argus', 'config.json'));
      const envError = await startDaemon({
        stateDir: join(workspace, '.argus'),
        workspace,
        env: { XDG_CONFIG_HOME: xdg, ARGUS_IDLE_TIMEOUT_MS: 'soon' },
      }).catch((e: unknown) => e);
      expect((envError as Error).message).toMatch(/ARGUS_IDLE_TIMEOUT_MS/);
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });

  it('policy keys cannot be changed by a write-scoped token', async () => {
    const writer = await scopedClient('write');
    expect(await codeOf(writer.config.set.mutate({ key: 'policy.domains.allow', value: '["*"]' }))).toBe(
      'forbidden_scope',
    );
  });
});

describe('domain policy', () => {
  it('refuses goto and tab-open to a denied host, with the rule in the error and the log', async () => {
    await setPolicy('policy.domains.deny', ['localhost']);
    const error = await h.client.page.goto.mutate({ url: otherHost('/nav-a.html') }).catch((e: unknown) => e);
    expect((error as ArgusError).code).toBe('policy_denied');
    expect((error as ArgusError).message).toMatch(/localhost:\d+ is on policy.domains.deny/);
    expect(await codeOf(h.client.tabs.open.mutate({ url: otherHost('/nav-a.html') }))).toBe('policy_denied');
    await h.daemon.services.log.flush(); // the log is asynchronous: wait until what was logged is on disk
    expect(readFileSync(join(h.workspace, '.argus', 'daemon.log'), 'utf8')).toMatch(/"event":"policy.denied"/);
    // the allowed host still works
    await expect(h.client.page.goto.mutate({ url: h.server.urlFor('/nav-a.html') })).resolves.toMatchObject({
      title: expect.any(String),
    });
  });

  it('an allow list refuses every other host, also inside a batch', async () => {
    await setPolicy('policy.domains.allow', ['127.0.0.1']);
    const result = await h.client.batch.chain.mutate({
      steps: [{ command: 'page.goto', input: { url: otherHost('/nav-a.html') } }],
    });
    expect(result.results[0]).toMatchObject({ ok: false, error: { code: 'policy_denied' } });
  });

  it('blocks navigations the page starts itself: script, redirect, and a frame', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/nav-a.html') });
    await setPolicy('policy.domains.deny', ['localhost']);
    // a script sends the tab to the denied host: the document request is failed by the browser
    const logFile = join(h.workspace, '.argus', 'daemon.log');
    const blocked = () =>
      readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((line) => line.includes('"event":"policy.blocked_navigation"')).length;
    const before = blocked();
    await h.client.page.eval.mutate({
      js: `setTimeout(() => { location.href = ${JSON.stringify(otherHost('/echo-headers'))}; }, 0); 1`,
    });
    await vi.waitFor(() => expect(blocked()).toBe(before + 1), WAIT);
    // the tab never received the denied host's document: it is still on its page, or (once Chromium
    // commits the failed navigation, a moment later) on Chromium's own error page for that URL
    const { url } = await h.client.page.url.query({});
    if (url !== h.server.urlFor('/nav-a.html')) {
      expect(url).toBe(otherHost('/echo-headers'));
      expect((await h.client.page.eval.mutate({ js: 'location.href' })).value).toBe('chrome-error://chromewebdata/');
    }
    expect(JSON.stringify(await h.client.read.text.query({}))).not.toContain('user-agent');
    // a redirect from an allowed page to the denied host
    const redirected = await h.client.page.goto
      .mutate({ url: h.server.urlFor(`/redirect?to=${encodeURIComponent(otherHost('/echo-headers'))}`) })
      .catch((e: unknown) => e);
    if (!(redirected instanceof ArgusError)) {
      expect(JSON.stringify(await h.client.read.text.query({}))).not.toContain('user-agent');
    }
    // an iframe pointing at the denied host gets no document from it
    await h.client.page.goto.mutate({ url: h.server.urlFor('/nav-a.html') });
    const framed = await h.client.page.eval.mutate({
      js: `new Promise((resolve) => { const f = document.createElement('iframe'); f.src = ${JSON.stringify(otherHost('/echo-headers'))}; f.onload = () => { let body = null; try { body = f.contentDocument && f.contentDocument.body.innerText; } catch { body = 'cross-origin'; } resolve(String(body)); }; document.body.append(f); })`,
    });
    expect(String(framed.value)).not.toContain('user-agent');
    await h.daemon.services.log.flush();
    const log = readFileSync(join(h.workspace, '.argus', 'daemon.log'), 'utf8');
    expect(log).toMatch(/"event":"policy.blocked_navigation"/);
  });
});

describe('approvals', () => {
  it('holds a listed command until the operator approves, denies or lets it time out', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/nav-a.html') });
    await setPolicy('policy.approve.commands', ['url']);
    const waiting = h.client.page.url.query({});
    const pending = await vi.waitFor(async () => {
      const { pending } = await h.client.approvals.list.query({});
      expect(pending).toHaveLength(1);
      return pending[0]!;
    }, WAIT);
    expect(pending).toMatchObject({ command: 'page.url', reason: 'policy.approve.commands lists "url"' });
    // a write token cannot approve its own command
    const writer = await scopedClient('write');
    expect(await codeOf(writer.approvals.approve.mutate({ id: pending.id }))).toBe('forbidden_scope');
    await expect(h.client.approvals.approve.mutate({ id: pending.id })).resolves.toEqual({
      id: pending.id,
      command: 'page.url',
      decision: 'approved',
    });
    await expect(waiting).resolves.toMatchObject({ url: h.server.urlFor('/nav-a.html') });

    const denied = h.client.page.url.query({}).catch((e: unknown) => e);
    const second = await vi.waitFor(async () => {
      const { pending } = await h.client.approvals.list.query({});
      expect(pending).toHaveLength(1);
      return pending[0]!;
    }, WAIT);
    await h.client.approvals.deny.mutate({ id: second.id });
    expect(((await denied) as ArgusError).code).toBe('approval_denied');
    expect(await codeOf(h.client.approvals.approve.mutate({ id: second.id }))).toBe('invalid_input');

    await setPolicy('policy.approve.timeoutMs', 1_000);
    expect(await codeOf(h.client.page.url.query({}))).toBe('approval_timeout');
    await h.daemon.services.log.flush();
    const log = readFileSync(join(h.workspace, '.argus', 'daemon.log'), 'utf8');
    for (const event of ['approval.requested', 'approval.approved', 'approval.denied', 'approval.timeout'])
      expect(log).toContain(`"event":"${event}"`);
  });

  it('a form submit on a listed host waits for approval; denied, the page never posts', async () => {
    await setPolicy('policy.approve.submitOn', ['127.0.0.1']);
    await h.client.page.goto.mutate({ url: h.server.urlFor('/nav-a.html') });
    const action = h.server.urlFor('/echo-headers');
    await h.client.page.eval.mutate({
      js: `document.body.innerHTML = '<form method="post" action="${action}"><input name="q" value="1"><button id="go">Go</button></form>'; 1`,
    });
    const click = h.client.input.click.mutate({ target: '#go' });
    const pending = await vi.waitFor(async () => {
      const { pending } = await h.client.approvals.list.query({});
      expect(pending).toHaveLength(1);
      return pending[0]!;
    }, WAIT);
    expect(pending).toMatchObject({ command: 'form.submit', client: 'page' });
    expect(pending.summary).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/echo-headers/);
    await h.client.approvals.deny.mutate({ id: pending.id });
    await click.catch(() => undefined);
    expect(JSON.stringify(await h.client.read.text.query({}))).not.toContain('user-agent');

    // approved, it goes through
    await h.client.page.goto.mutate({ url: h.server.urlFor('/nav-a.html') });
    await h.client.page.eval.mutate({
      js: `document.body.innerHTML = '<form method="post" action="${action}"><input name="q" value="1"><button id="go">Go</button></form>'; 1`,
    });
    const again = h.client.input.click.mutate({ target: '#go' });
    const next = await vi.waitFor(async () => {
      const { pending } = await h.client.approvals.list.query({});
      expect(pending).toHaveLength(1);
      return pending[0]!;
    }, WAIT);
    await h.client.approvals.approve.mutate({ id: next.id });
    await again;
    await vi.waitFor(
      async () => expect(JSON.stringify(await h.client.read.text.query({}))).toContain('user-agent'),
      WAIT,
    );
  });
});

describe('raw cdp', () => {
  it('runs read-only methods for admins, refuses the rest unless the config allows them', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/nav-a.html') });
    const metrics = await h.client.cdp.send.mutate({ method: 'Page.getLayoutMetrics' });
    expect(metrics.result).toHaveProperty('cssLayoutViewport');
    const doc = await h.client.cdp.send.mutate({ method: 'DOM.getDocument', params: { depth: 1 } });
    expect(JSON.stringify(doc.result)).toContain('#document');
    for (const method of [
      'Runtime.evaluate',
      'Browser.close',
      'Target.getTargets',
      'Storage.getCookies',
      'Network.getAllCookies',
      'Page.navigate',
    ]) {
      expect(await codeOf(h.client.cdp.send.mutate({ method, params: {} })), method).toBe('policy_denied');
    }
    const writer = await scopedClient('write');
    expect(await codeOf(writer.cdp.send.mutate({ method: 'Page.getLayoutMetrics' }))).toBe('forbidden_scope');
    expect(await codeOf(h.client.cdp.send.mutate({ method: 'DOM.noSuchMethod' }))).toBe('policy_denied');
    await setPolicy('policy.cdp.allow', ['Runtime.evaluate', 'Page.navigate']);
    const evaluated = await h.client.cdp.send.mutate({
      method: 'Runtime.evaluate',
      params: { expression: '6 * 7', returnByValue: true },
    });
    expect(evaluated.result).toMatchObject({ result: { value: 42 } });
    expect(
      await codeOf(h.client.cdp.send.mutate({ method: 'Page.navigate', params: { url: 'file:///etc/passwd' } })),
    ).toBe('policy_denied');
    expect(await codeOf(h.client.cdp.send.mutate({ method: 'DOM.getBoxModel', params: { nodeId: -5 } }))).toBe(
      'invalid_input',
    );
  });
});
