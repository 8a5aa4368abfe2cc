import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, startHarness, useHarness } from './harness.js';

/**
 * `route` / `unroute` / `routes` against real Chromium: a page that fetches `/api/x` from a fixture
 * server that answers `{"source":"server"}`, and routes that mock, fail, delay and go away.
 */
const APP = `<!doctype html><title>api app</title><button id="load">Load</button><pre id="out">idle</pre>
<script>
async function load() {
  const started = performance.now();
  let result;
  try {
    const response = await fetch('/api/x');
    result = { status: response.status, body: await response.text(), type: response.headers.get('content-type') };
  } catch (error) {
    result = { error: String(error) };
  }
  result.ms = performance.now() - started;
  document.getElementById('out').textContent = JSON.stringify(result);
  return result;
}
document.getElementById('load').onclick = () => void load();
</script>`;

interface Loaded {
  status?: number;
  body?: string;
  type?: string | null;
  error?: string;
  ms: number;
}

const SERVER_BODY = '{"source":"server"}';

describe('route: request interception through the Fetch domain', () => {
  const h = useHarness();
  let app: FixtureServer;
  let tab: string;
  const load = async (onTab = tab) => (await h.client.page.eval.mutate({ js: 'load()', tab: onTab })).value as Loaded;

  beforeAll(async () => {
    app = await startFixtureServer({
      pages: {
        '/app': APP,
        '/api/x': () => ({ contentType: 'application/json', body: SERVER_BODY }),
      },
    });
    tab = (await h.client.tabs.open.mutate({ url: `${app.origin}/app` })).id;
  });
  afterAll(async () => {
    await app.close();
  });

  it('without a route the page reads the server', async () => {
    expect(await load()).toMatchObject({ status: 200, body: SERVER_BODY });
  });

  it('mocks JSON: the page reads the mocked answer; routes counts the hit', async () => {
    const added = await h.client.route.add.mutate({ pattern: '**/api/*', jsonBody: '{"mocked":true}', tab });
    expect(added).toMatchObject({ scope: 'tab', tab, pattern: '**/api/*' });
    const before = app.traffic().paths['/api/x'] ?? 0;
    expect(await load()).toMatchObject({ status: 200, body: '{"mocked":true}', type: 'application/json' });
    // answered in the browser: the server never saw it
    expect(app.traffic().paths['/api/x'] ?? 0).toBe(before);
    const listed = await h.client.route.list.query({ tab });
    expect(listed.routes).toEqual([expect.objectContaining({ pattern: '**/api/*', hits: 1 })]);
    // the page itself is not matched by **/api/* and was never held
    await h.client.page.reload.mutate({ tab });
    expect((await h.client.route.list.query({ tab })).routes[0]?.hits).toBe(1);
  });

  it('status, headers and a body file (read through the path policy)', async () => {
    const file = join(h.workspace, 'answer.html');
    writeFileSync(file, '<b>from a file</b>');
    await h.client.route.add.mutate({
      pattern: '/api/x',
      status: 418,
      body: file,
      header: ['X-Mock: yes', 'Cache-Control: no-cache', ' no-store'],
      tab,
    });
    expect(await load()).toMatchObject({ status: 418, body: '<b>from a file</b>', type: 'text/html; charset=utf-8' });
    const headers = (
      await h.client.page.eval.mutate({
        js: "fetch('/api/x').then((r) => [r.headers.get('x-mock'), r.headers.get('cache-control')])",
        tab,
      })
    ).value;
    expect(headers).toEqual(['yes', 'no-cache, no-store']);
  });

  it('refuses a body file outside the allowed area, and bad input, with typed errors', async () => {
    expect(await codeOf(h.client.route.add.mutate({ pattern: '**', body: '/etc/passwd', tab }))).toBe('path_forbidden');
    expect(await codeOf(h.client.route.add.mutate({ pattern: '**', jsonBody: '{nope', tab }))).toBe('invalid_input');
    expect(await codeOf(h.client.route.add.mutate({ pattern: '**', tab }))).toBe('invalid_input');
    expect(await codeOf(h.client.route.add.mutate({ pattern: '**', abort: true, status: 200, tab }))).toBe(
      'invalid_input',
    );
    expect(
      await codeOf(h.client.route.add.mutate({ pattern: '**', jsonBody: '{}', header: ['bad header: x'], tab })),
    ).toBe('invalid_input');
  });

  it('the newest route wins; abort is a network error in the page', async () => {
    await h.client.route.add.mutate({ pattern: '**/api/x', abort: true, reason: 'connectionrefused', tab });
    const result = await load();
    expect(result.error).toMatch(/TypeError: Failed to fetch/);
  });

  it('unroute restores the server answer', async () => {
    const removed = await h.client.route.remove.mutate({ pattern: '**/api/x', tab });
    expect(removed.removed).toEqual(['**/api/x', '**/api/x']);
    await h.client.route.remove.mutate({ pattern: '**/api/*', tab });
    expect((await h.client.route.list.query({ tab })).routes).toEqual([]);
    expect(await load()).toMatchObject({ status: 200, body: SERVER_BODY });
  });

  it('delay holds the request at least that long, then lets it reach the server', async () => {
    await h.client.route.add.mutate({ pattern: '**/api/x', delay: 400, tab });
    const before = app.traffic().paths['/api/x'] ?? 0;
    const result = await load();
    expect(result).toMatchObject({ status: 200, body: SERVER_BODY });
    expect(result.ms).toBeGreaterThanOrEqual(400);
    expect(app.traffic().paths['/api/x']).toBe(before + 1);
    await h.client.route.remove.mutate({ all: true });
  });

  it('a held request goes on at once when its route is removed', async () => {
    await h.client.route.add.mutate({ pattern: '**/api/x', delay: 120_000, tab });
    await h.client.page.eval.mutate({ js: "document.getElementById('out').textContent = 'idle'", tab });
    await h.client.input.click.mutate({ target: '#load', tab });
    // the page's fetch is paused: held by the route
    await expect.poll(async () => (await h.client.route.list.query({ tab })).requests.pending).toBe(1);
    await h.client.route.remove.mutate({ pattern: '**/api/x', tab });
    await h.client.page.wait.mutate({ text: 'source', tab, timeoutMs: 10_000 });
    const out = await h.client.page.eval.mutate({ js: "JSON.parse(document.getElementById('out').textContent)", tab });
    expect(out.value).toMatchObject({ status: 200, body: SERVER_BODY });
  });

  it('--all-tabs routes every tab, now and later; a tab route stays in its tab', async () => {
    const other = (await h.client.tabs.open.mutate({ url: `${app.origin}/app` })).id;
    await h.client.route.add.mutate({ pattern: '**/api/x', jsonBody: '{"tab":"one"}', tab: other });
    expect(await load(other)).toMatchObject({ body: '{"tab":"one"}' });
    expect(await load(tab)).toMatchObject({ body: SERVER_BODY });
    const all = await h.client.route.add.mutate({ pattern: '**/api/x', jsonBody: '{"all":true}', allTabs: true });
    expect(all).toMatchObject({ scope: 'all-tabs', tab: null });
    const later = (await h.client.tabs.open.mutate({ url: `${app.origin}/app` })).id;
    expect(await load(later)).toMatchObject({ body: '{"all":true}' });
    expect(await load(tab)).toMatchObject({ body: '{"all":true}' });
    // the tab's own route wins over the all-tabs one
    expect(await load(other)).toMatchObject({ body: '{"tab":"one"}' });
    await h.client.tabs.close.mutate({ id: later });
    await h.client.route.remove.mutate({ all: true });
    expect(await load(other)).toMatchObject({ body: SERVER_BODY });
    await h.client.tabs.close.mutate({ id: other });
  });

  it('closing a tab that holds a request leaves nothing hanging; no paused request is left unanswered', async () => {
    const doomed = (await h.client.tabs.open.mutate({ url: `${app.origin}/app` })).id;
    await h.client.route.add.mutate({ pattern: '**/api/x', delay: 120_000, tab: doomed });
    await h.client.input.click.mutate({ target: '#load', tab: doomed });
    await expect.poll(async () => (await h.client.route.list.query({ tab: doomed })).requests.pending).toBe(1);
    await h.client.tabs.close.mutate({ id: doomed });
    // the other tab is untouched and every request it paused was answered
    expect(await load()).toMatchObject({ status: 200, body: SERVER_BODY });
    const counts = (await h.client.route.list.query({ tab })).requests;
    expect(counts.pending).toBe(0);
    expect(counts.paused).toBeGreaterThan(0);
    expect(counts.resolved).toBe(counts.paused);
  });
});

describe('route: the daemon stopping with a held request', () => {
  it('lets the held request reach the server before the browser closes', async () => {
    const app = await startFixtureServer({
      pages: { '/app': APP, '/api/x': () => ({ contentType: 'application/json', body: SERVER_BODY }) },
    });
    const h = await startHarness();
    try {
      const tab = (await h.client.tabs.open.mutate({ url: `${app.origin}/app` })).id;
      await h.client.route.add.mutate({ pattern: '**/api/x', delay: 120_000, tab });
      await h.client.input.click.mutate({ target: '#load', tab });
      await expect.poll(async () => (await h.client.route.list.query({ tab })).requests.pending).toBe(1);
      expect(app.traffic().paths['/api/x'] ?? 0).toBe(0);
      await h.close();
      // released (continued) on the way out, not dropped: the server saw it
      expect(app.traffic().paths['/api/x']).toBe(1);
    } finally {
      await h.close();
      await app.close();
    }
  });
});
