import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArgusError } from '@argus/protocol';
import { createArgusClient } from '@argus/client';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { codeOf, useHarness } from './harness.js';

const h = useHarness();

/** Waits until no request of the active tab is pending in the capture (the events trail the page's own promise). */
async function settled(): Promise<void> {
  await vi.waitFor(
    async () => {
      const { requests } = await h.client.capture.network.query({ limit: 5_000 });
      expect(requests.filter((r) => r.state === 'pending').map((r) => r.url)).toEqual([]);
    },
    { timeout: 10_000 },
  );
}

/** A client holding a freshly minted token with one scope. */
async function scopedClient(scope: 'read' | 'write' | 'admin') {
  const { token } = await h.client.token.create.mutate({ scope });
  return createArgusClient({ url: `http://127.0.0.1:${h.daemon.port}`, token });
}

describe('console capture', () => {
  it('keeps levels, text and source locations from page load on', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/console.html') });
    const { messages } = await h.client.capture.console.query({});
    const mine = messages.filter((m) => m.text.startsWith('console.html:'));
    expect(mine.map((m) => [m.level, m.text])).toEqual([
      ['log', 'console.html: log message'],
      ['warn', 'console.html: warning message'],
      ['error', 'console.html: error message'],
    ]);
    expect(mine[0]).toMatchObject({ source: 'console', url: h.server.urlFor('/console.html') });
    expect(mine[0]?.line).toBeGreaterThan(0);
    const errors = await h.client.capture.console.query({ errors: true });
    expect(errors.messages.every((m) => m.level === 'error')).toBe(true);
    expect(errors.messages.some((m) => m.text === 'console.html: error message')).toBe(true);
  });

  it('records uncaught errors with their stack, and reports them in the click response', async () => {
    const before = (await h.client.capture.console.query({})).lastSeq;
    const clicked = await h.client.input.click.mutate({ target: '#throw' });
    expect(clicked.consoleErrors.join('\n')).toMatch(/uncaught error from click/);
    const { messages } = await h.client.capture.console.query({ errors: true, since: before });
    const uncaught = messages.find((m) => m.source === 'exception');
    expect(uncaught?.text).toMatch(/Error: console.html: uncaught error from click/);
    expect(uncaught?.stack).toMatch(/console\.html/);
  });

  it('--since returns only newer entries; --clear empties the buffer but keeps counting', async () => {
    const { lastSeq } = await h.client.capture.console.query({});
    await h.client.input.click.mutate({ target: '#log' });
    const newer = await h.client.capture.console.query({ since: lastSeq, clear: true });
    expect(newer.messages.map((m) => m.text)).toEqual(['console.html: click 1']);
    expect(newer.cleared).toBe(true);
    expect((await h.client.capture.console.query({})).messages).toEqual([]);
    await h.client.input.click.mutate({ target: '#log' });
    const after = await h.client.capture.console.query({});
    expect(after.messages.map((m) => m.text)).toEqual(['console.html: click 2']);
    expect(after.messages[0]?.seq).toBeGreaterThan(newer.lastSeq);
  });

  it('limits the output to the newest entries', async () => {
    await h.client.page.eval.mutate({ js: 'for (let i = 0; i < 30; i++) console.log(`bulk ${i}`)' });
    const limited = await h.client.capture.console.query({ limit: 5 });
    expect(limited.messages.map((m) => m.text)).toEqual(['bulk 25', 'bulk 26', 'bulk 27', 'bulk 28', 'bulk 29']);
    expect(limited.omitted).toBeGreaterThanOrEqual(25);
  });
});

describe('network capture', () => {
  let ids: Record<string, number>;

  beforeAll(async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/buttons.html') });
    await h.client.page.eval.mutate({
      js: `
        // bodies are read: Chrome reports a fetch as finished only once its body has been consumed
        await fetch('/set-cookie?name=sid&value=abc123').then((r) => r.text());
        await Promise.allSettled([
          fetch('/json', { headers: { Authorization: 'Bearer abc.def.ghi', 'X-Trace': 'plain' } }).then((r) => r.text()),
          fetch('/status/404').then((r) => r.text()),
          fetch('http://127.0.0.1:9/refused'),
          fetch('/big?bytes=3000000').then((r) => r.arrayBuffer()),
          fetch('/big?bytes=25000000').then((r) => r.arrayBuffer()),
        ]);
        1`,
    });
    await settled();
    const { requests } = await h.client.capture.network.query({});
    const id = (part: string) => requests.find((r) => r.url.includes(part))?.id ?? -1;
    ids = {
      cookie: id('/set-cookie'),
      json: id('/json'),
      notFound: id('/status/404'),
      refused: id(':9/refused'),
      big: id('bytes=3000000'),
      huge: id('bytes=25000000'),
      doc: id('/buttons.html'),
    };
  });

  it('lists requests with method, status, type, timing and sizes', async () => {
    expect(Object.values(ids).every((id) => id > 0)).toBe(true);
    const { requests } = await h.client.capture.network.query({ filter: '/json' });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      method: 'GET',
      status: 200,
      type: 'Fetch',
      state: 'finished',
      mimeType: 'application/json',
    });
    expect(requests[0]?.durationMs).toBeGreaterThanOrEqual(0);
    expect(requests[0]?.decodedBytes).toBeGreaterThan(20);
    const doc = (await h.client.capture.network.query({ filter: '/buttons.html' })).requests[0];
    expect(doc).toMatchObject({ type: 'Document', status: 200 });
  });

  it('--failed keeps failed requests and HTTP errors', async () => {
    const { requests } = await h.client.capture.network.query({ failed: true });
    const byId = new Map(requests.map((r) => [r.id, r]));
    expect(byId.get(ids.notFound!)?.status).toBe(404);
    expect(byId.get(ids.refused!)).toMatchObject({ state: 'failed', status: null });
    expect(byId.get(ids.refused!)?.errorText).toMatch(/ERR_/);
    expect(byId.has(ids.json!)).toBe(false);
  });

  it('network get redacts credentials by default', async () => {
    const json = await h.client.capture.networkGet.query({ id: ids.json! });
    expect(json.requestHeaders.Authorization).toBe('[redacted]');
    expect(json.requestHeaders['X-Trace']).toBe('plain');
    expect(json.redacted).toBe(true);
    expect(json.body).toBeNull();
    const cookie = await h.client.capture.networkGet.query({ id: ids.cookie! });
    const setCookie = Object.entries(cookie.responseHeaders).find(([name]) => name.toLowerCase() === 'set-cookie');
    expect(setCookie?.[1]).toBe('[redacted]');
    const sent = Object.entries(json.requestHeaders).find(([name]) => name.toLowerCase() === 'cookie');
    expect(sent?.[1]).toBe('[redacted]');
  });

  it('--reveal needs an admin token', async () => {
    const revealed = await h.client.capture.networkGet.query({ id: ids.json!, reveal: true });
    expect(revealed.requestHeaders.Authorization).toBe('Bearer abc.def.ghi');
    expect(Object.values(revealed.requestHeaders)).toContain('sid=abc123');
    expect(revealed.redacted).toBe(false);
    for (const scope of ['read', 'write'] as const) {
      const limited = await scopedClient(scope);
      expect(await codeOf(limited.client.capture.networkGet.query({ id: ids.json!, reveal: true }))).toBe(
        'forbidden_scope',
      );
      expect((await limited.client.capture.networkGet.query({ id: ids.json! })).requestHeaders.Authorization).toBe(
        '[redacted]',
      );
      limited.close();
    }
    const status = await h.client.daemon.status.query({});
    expect(status.tokens).toBeGreaterThanOrEqual(3);
  });

  it('scoped tokens: read cannot act, and cannot mint tokens', async () => {
    const reader = await scopedClient('read');
    expect(await codeOf(reader.client.page.eval.mutate({ js: '1' }))).toBe('forbidden_scope');
    expect(await codeOf(reader.client.token.create.mutate({ scope: 'admin' }))).toBe('forbidden_scope');
    expect((await reader.client.page.url.query({})).url).toContain('/buttons.html');
    reader.close();
  });

  it('fetches bodies on demand, truncates large ones and refuses huge ones', async () => {
    const json = await h.client.capture.networkGet.query({ id: ids.json!, body: true });
    expect(JSON.parse(json.body ?? '')).toMatchObject({ ok: true, name: 'argus-fixture' });
    expect(json).toMatchObject({ truncated: false, bodyNote: null, base64: false });
    const big = await h.client.capture.networkGet.query({ id: ids.big!, body: true });
    expect(big.truncated).toBe(true);
    expect(big.body?.length).toBe(1_000_000);
    expect(big.bodyBytes).toBe(3_000_000);
    expect(big.bodyNote).toMatch(/first 1,000,000 of 3,000,000 bytes/);
    const small = await h.client.capture.networkGet.query({ id: ids.big!, body: true, maxBytes: 100 });
    expect(small.body).toHaveLength(100);
    const huge = await h.client.capture.networkGet.query({ id: ids.huge!, body: true });
    expect(huge.body).toBeNull();
    expect(huge.bodyNote).toMatch(/not fetched/);
    const failed = await h.client.capture.networkGet.query({ id: ids.refused!, body: true });
    expect(failed.bodyNote).toMatch(/request failed/);
  });

  it('validates ids and sizes before touching the browser', async () => {
    expect(await codeOf(h.client.capture.networkGet.query({ id: 999_999 }))).toBe('invalid_input');
    expect(await codeOf(h.client.capture.networkGet.query({ id: 0 }))).toBe('invalid_input');
    expect(await codeOf(h.client.capture.networkGet.query({ id: ids.json!, maxBytes: 500_000_000 }))).toBe(
      'invalid_input',
    );
  });

  it('--clear empties the network buffer', async () => {
    const { lastSeq } = await h.client.capture.network.query({ clear: true, limit: 1 });
    expect((await h.client.capture.network.query({})).requests).toEqual([]);
    await h.client.page.eval.mutate({ js: "fetch('/json').then((r) => r.text())" });
    await settled();
    const after = await h.client.capture.network.query({});
    expect(after.requests.map((r) => r.id)).toEqual([lastSeq + 1]);
  });
});

describe('dialogs', () => {
  it('are answered at once, reported in the triggering click, and obey armed answers', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/dialogs.html') });
    const alert = await h.client.input.click.mutate({ target: '#alert' });
    expect(alert.dialogs).toEqual([
      { type: 'alert', message: 'Hello from an alert', handled: 'accepted', at: expect.any(Number) },
    ]);
    expect((await h.client.read.text.query({ target: '#dialog-result' })).text).toBe('alert closed');

    const confirmDefault = await h.client.input.click.mutate({ target: '#confirm' });
    expect(confirmDefault.dialogs[0]).toMatchObject({ type: 'confirm', handled: 'dismissed' });
    expect((await h.client.read.text.query({ target: '#dialog-result' })).text).toBe('confirm: false');

    expect((await h.client.capture.dialogAccept.mutate({ text: 'Grace' })).armed).toEqual([
      { accept: true, promptText: 'Grace', expiresAt: expect.any(Number) },
    ]);
    const prompt = await h.client.input.click.mutate({ target: '#prompt' });
    expect(prompt.dialogs[0]).toMatchObject({ type: 'prompt', handled: 'accepted' });
    expect((await h.client.read.text.query({ target: '#dialog-result' })).text).toBe('prompt: Grace');

    await h.client.capture.dialogAccept.mutate({});
    await h.client.input.click.mutate({ target: '#confirm' });
    expect((await h.client.read.text.query({ target: '#dialog-result' })).text).toBe('confirm: true');

    await h.client.capture.dialogDismiss.mutate({});
    await h.client.input.click.mutate({ target: '#prompt' });
    expect((await h.client.read.text.query({ target: '#dialog-result' })).text).toBe('prompt: null');

    const log = await h.client.capture.dialogs.query({});
    expect(log.armed).toEqual([]);
    expect(log.dialogs.map((d) => [d.type, d.handled, d.promptText])).toEqual([
      ['alert', 'accepted', null],
      ['confirm', 'dismissed', null],
      ['prompt', 'accepted', 'Grace'],
      ['confirm', 'accepted', null],
      ['prompt', 'dismissed', null],
    ]);
  });
});

describe('debug-trace', () => {
  it('writes one bundle with console, errors, network (redacted), dialogs and a screenshot', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/console.html') });
    await h.client.input.click.mutate({ target: '#throw' });
    await h.client.page.eval.mutate({
      js: "fetch('/json', { headers: { Authorization: 'Bearer trace-secret' } }).then((r) => r.text())",
    });
    await settled();
    const trace = await h.client.capture.debugTrace.mutate({ path: 'traces/bug.json' });
    expect(trace.path).toBe(join(h.workspace, 'traces/bug.json'));
    expect(trace).toMatchObject({ url: h.server.urlFor('/console.html'), title: 'Console' });
    expect(trace.pageErrors).toBeGreaterThanOrEqual(1);
    expect(trace.screenshot && existsSync(trace.screenshot)).toBe(true);
    const raw = readFileSync(trace.path, 'utf8');
    expect(raw).not.toContain('trace-secret');
    const bundle = JSON.parse(raw);
    expect(bundle.pageErrors[0].text).toMatch(/uncaught error from click/);
    expect(bundle.console.length).toBe(trace.console);
    const json = bundle.network.findLast((r: { url: string }) => r.url.endsWith('/json'));
    expect(json.requestHeaders.Authorization).toBe('[redacted]');
    const defaulted = await h.client.capture.debugTrace.mutate({});
    expect(defaulted.path.startsWith(join(h.daemon.stateDir, 'traces'))).toBe(true);
    expect(await codeOf(h.client.capture.debugTrace.mutate({ path: '/etc/argus-trace.json' }))).toBe('path_forbidden');
  });
});

describe('streams', () => {
  it('console follow delivers live lines and stops on unsubscribe, removing its listener', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/console.html') });
    const page = await h.daemon.services.manager.page();
    const listeners = () => (page.capture as unknown as { consoleListeners: Set<unknown> }).consoleListeners.size;
    const ws = createArgusClient({ url: `http://127.0.0.1:${h.daemon.port}`, token: h.daemon.token, WebSocket });
    const lines: string[] = [];
    const pages: Array<string | null> = [];
    let started!: () => void;
    const ready = new Promise<void>((resolve) => (started = resolve));
    const subscription = ws.client.capture.consoleFollow.subscribe(
      { errors: false },
      {
        onStarted: () => started(),
        onData: (entry) => {
          lines.push(entry.text);
          pages.push(entry.page);
        },
        onError: (error) => lines.push(`error: ${String(error)}`),
      },
    );
    await ready;
    await vi.waitFor(() => expect(listeners()).toBe(1));
    await h.client.input.click.mutate({ target: '#log' });
    await h.client.page.eval.mutate({ js: "console.warn('streamed warning')" });
    await vi.waitFor(() => expect(lines).toEqual(['console.html: click 1', 'streamed warning']));
    // a streamed message names its page as a listed one does
    expect(pages).toEqual([h.server.urlFor('/console.html'), h.server.urlFor('/console.html')]);
    subscription.unsubscribe();
    await vi.waitFor(() => expect(listeners()).toBe(0));
    await h.client.page.eval.mutate({ js: "console.log('after the end')" });
    expect(lines).toHaveLength(2);
    ws.close();
  });

  it('network follow streams finished requests matching the filter', async () => {
    const ws = createArgusClient({ url: `http://127.0.0.1:${h.daemon.port}`, token: h.daemon.token, WebSocket });
    const seen: Array<{ url: string; status: number | null }> = [];
    let started!: () => void;
    const ready = new Promise<void>((resolve) => (started = resolve));
    const subscription = ws.client.capture.networkFollow.subscribe(
      { filter: '/status/' },
      { onStarted: () => started(), onData: (entry) => seen.push(entry) },
    );
    await ready;
    await h.client.page.eval.mutate({
      js: "await fetch('/json').then((r) => r.text()); await fetch('/status/503').then((r) => r.text()); 1",
    });
    await vi.waitFor(() => expect(seen.map((r) => r.status)).toEqual([503]));
    subscription.unsubscribe();
    ws.close();
  });

  it('a stream on an unknown tab fails with tab_not_found', async () => {
    const ws = createArgusClient({ url: `http://127.0.0.1:${h.daemon.port}`, token: h.daemon.token, WebSocket });
    const error = await new Promise<unknown>((resolve) => {
      ws.client.capture.consoleFollow.subscribe({ tab: 'NO-SUCH-TAB' }, { onData: () => undefined, onError: resolve });
    });
    expect(error).toBeInstanceOf(ArgusError);
    expect((error as ArgusError).code).toBe('tab_not_found');
    ws.close();
  });
});
