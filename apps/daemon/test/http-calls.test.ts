// The daemon answers single HTTP calls itself (src/http-calls.ts) instead of through tRPC's fetch
// adapter. Every answer must be what the adapter sends: the same server twice over one router, with
// the direct path on and off, gets the same requests (successes, each kind of refusal, the requests
// the direct path leaves to the adapter) and must give the same status, content type and body.
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { ArgusError, type CallContext, type Handlers } from '@argus/protocol';
import { buildRouter } from '@argus/protocol/router';
import { type ClientHandle, createArgusClient } from '@argus/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../src/server.js';

const TOKEN = 'a'.repeat(43);
/** Small, so an oversized body is quick to send. */
const MAX_BYTES = 64 * 1024;

/**
 * The router with stand-in handlers (this tests the HTTP layer, not the commands): tabs.list answers,
 * page.goto fails typed, tabs.close returns an output its schema refuses, anything else is unused.
 */
/** What the slow tabs.open answers (a tab its output schema accepts). */
const SLOW_TAB = { id: 't1', index: 0, shortId: 't1', active: true, url: 'http://slow.test/', title: '' };

/** Told when the hanging call starts, and when its signal aborts (its caller hung up). */
let hanging = { started: () => {}, hungUp: () => {} };

function handlers(): Handlers {
  const answers: Record<string, (input: unknown, ctx: CallContext) => unknown> = {
    'tabs.list': () => ({ tabs: [] }),
    'page.goto': () => {
      throw new ArgusError('navigation_failed', 'The page did not load. Check the URL.', { details: { url: 'x' } });
    },
    'tabs.close': () => ({ wrong: true }),
    // a mutation that succeeds (the daemon itself is not stopped: the handler stands in)
    'daemon.stop': () => ({ stopping: false }),
    'tabs.open': (input, ctx) => {
      const { url } = input as { url?: string };
      if (url === 'http://refused.test/') throw new Error('an internal failure');
      // answers a moment later
      if (url === 'http://slow.test/') return new Promise((resolve) => setTimeout(() => resolve(SLOW_TAB), 300));
      // answers only when its caller goes away
      if (url === 'http://hang.test/')
        return new Promise((resolve) => {
          ctx.signal?.addEventListener('abort', () => {
            hanging.hungUp();
            resolve({ id: 't1', url, title: '' });
          });
          hanging.started();
        });
      return { id: 't1', url: 'about:blank', title: '' };
    },
  };
  const group = (namespace: string) =>
    new Proxy(
      {},
      {
        get: (_target, key) => async (input: unknown, ctx: CallContext) => {
          const answer = answers[`${namespace}.${String(key)}`];
          if (!answer) throw new Error(`unused in this test: ${namespace}.${String(key)}`);
          return answer(input, ctx);
        },
      },
    );
  // buildRouter reads one handler per manifest command by namespace and key: the proxies answer each
  return new Proxy({}, { get: (_target, namespace) => group(String(namespace)) }) as unknown as Handlers;
}

const router = buildRouter(handlers(), {
  authorize: (ctx, command) => {
    if (command.name === 'tabs.open' && ctx.client === 'refused')
      throw new ArgusError('forbidden_scope', 'This client may not open tabs.');
  },
});

interface Answer {
  status: number;
  type: string | undefined;
  body: string;
  /** The direct path answers in one write (Content-Length); the adapter streams its body (chunked). */
  by: 'direct' | 'adapter';
}

function send(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: { authorization: `Bearer ${TOKEN}`, ...options.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: res.headers['content-type'],
            body,
            by: res.headers['content-length'] === undefined ? 'adapter' : 'direct',
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The server under test over the router above (the direct path on unless `directCalls: false`). */
const serve = (extra: Partial<Parameters<typeof startServer>[0]> = {}) =>
  startServer({
    router,
    tokens: () => new Map([[TOKEN, ['admin'] as const]]),
    onActivity: () => {},
    maxMessageBytes: MAX_BYTES,
    ...extra,
  });

const json = { 'content-type': 'application/json' };
const input = (value: unknown) => `?input=${encodeURIComponent(JSON.stringify(value))}`;
const post = (body: string, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { ...json, ...headers },
  body,
});

const CASES: Array<[string, string, Parameters<typeof send>[2], Answer['by']]> = [
  ['a query with input', `/trpc/tabs.list${input({})}`, {}, 'direct'],
  ['a query without input', '/trpc/tabs.list', {}, 'direct'],
  ['a query with a JSON content type', `/trpc/tabs.list${input({})}`, { headers: json }, 'direct'],
  ['a query whose input is not JSON', '/trpc/tabs.list?input=%7Bnope', {}, 'direct'],
  ['a query with an unknown field', `/trpc/tabs.list${input({ bogus: 1 })}`, {}, 'direct'],
  ['a mutation failing typed', '/trpc/page.goto', post('{"url":"http://a.test/"}'), 'direct'],
  ['a mutation missing its input', '/trpc/page.goto', post(''), 'direct'],
  ['a mutation whose body is not JSON', '/trpc/page.goto', post('{"url":'), 'direct'],
  ['an output its schema refuses', '/trpc/tabs.close', post('{"id":"t1"}'), 'direct'],
  ['a handler throwing an untyped error', '/trpc/tabs.open', post('{"url":"http://refused.test/"}'), 'direct'],
  ['a success', '/trpc/tabs.open', post('{}'), 'direct'],
  ['the safety seam refusing', '/trpc/tabs.open', post('{}', { 'x-argus-client': 'refused' }), 'direct'],
  ['a bad caller directory', `/trpc/tabs.list${input({})}`, { headers: { 'x-argus-cwd': 'relative/dir' } }, 'direct'],
  ['a bad session name', '/trpc/tabs.open', post('{}', { 'x-argus-session': '%20bad' }), 'direct'],
  ['a body over the limit', '/trpc/page.goto', post(`{"url":"${'x'.repeat(MAX_BYTES)}"}`), 'direct'],
  // left to the adapter
  [
    'a mutation without a content type',
    '/trpc/page.goto',
    { method: 'POST', body: '{"url":"http://a.test/"}' },
    'adapter',
  ],
  ['a query sent as a mutation', '/trpc/tabs.list', post('{}'), 'adapter'],
  ['a mutation sent as a query', '/trpc/snapshot.take', {}, 'adapter'],
  ['an unknown command', '/trpc/tabs.nope', {}, 'adapter'],
  ['a batch', `/trpc/tabs.list,tabs.list?batch=1&input=${encodeURIComponent('{"0":{},"1":{}}')}`, {}, 'adapter'],
  ['a wrong token', `/trpc/tabs.list${input({})}`, { headers: { authorization: 'Bearer wrong' } }, 'adapter'],
];

describe('single HTTP calls answered without the fetch adapter', () => {
  let direct: RunningServer;
  let adapter: RunningServer;

  beforeAll(async () => {
    direct = await serve();
    adapter = await serve({ directCalls: false });
  });

  afterAll(async () => {
    await direct?.close();
    await adapter?.close();
  });

  it.each(CASES)('%s: the same answer as tRPC’s adapter', async (_name, path, options, by) => {
    const mine = await send(direct.port, path, options);
    const theirs = await send(adapter.port, path, options);
    expect({ ...mine, by: 'either' }).toEqual({ ...theirs, by: 'either' });
    expect(theirs.by).toBe('adapter');
    expect(mine.by).toBe(by);
  });

  it('answers what the cases above expect (the comparison is not between two broken servers)', async () => {
    const ok = await send(direct.port, `/trpc/tabs.list${input({})}`);
    expect(ok).toMatchObject({ status: 200 });
    expect(JSON.parse(ok.body)).toEqual({ result: { data: { tabs: [] } } });
    const typed = JSON.parse((await send(direct.port, '/trpc/page.goto', post('{"url":"http://a.test/"}'))).body) as {
      error: { data: { argus: { code: string } } };
    };
    expect(typed.error.data.argus.code).toBe('navigation_failed');
    const big = await send(direct.port, '/trpc/page.goto', post(`{"url":"${'x'.repeat(MAX_BYTES)}"}`));
    expect(big.status).toBe(413);
  });

  it('tells the call when its caller hangs up, as the adapter does (the command scope cancels its CDP calls)', async () => {
    for (const server of [direct, adapter]) {
      let started!: () => void;
      let hungUp!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const told = new Promise<void>((resolve) => (hungUp = resolve));
      hanging = { started, hungUp };
      const req = request({
        host: '127.0.0.1',
        port: server.port,
        path: '/trpc/tabs.open',
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, ...json },
      });
      req.on('error', () => {});
      req.end('{"url":"http://hang.test/"}');
      await running;
      req.destroy();
      // resolves only through the call's signal
      await told;
    }
  });
});

/** A call's outcome, comparable between the two ways of calling. */
async function outcome(pending: Promise<unknown>): Promise<unknown> {
  try {
    return { value: await pending };
  } catch (error) {
    const { code, message, details } = error as ArgusError;
    return { error: error instanceof ArgusError, code, message, details };
  }
}

type Kind = 'query' | 'mutation';

/**
 * `mine.call(path, …)` ends as the typed tRPC client of `theirs` ends for the same call, and as
 * expected: a value when `code` is null, else that error (not two equally broken calls).
 */
async function expectSameOutcome(
  mine: ClientHandle,
  theirs: ClientHandle,
  [path, kind, input, code]: [string, Kind, unknown, string | null],
): Promise<void> {
  const [namespace, key] = path.split('.') as [string, string];
  const procedure = (
    theirs.client as unknown as Record<string, Record<string, Record<string, (i: unknown) => Promise<unknown>>>>
  )[namespace]![key]!;
  const expected = await outcome(kind === 'query' ? procedure.query!(input) : procedure.mutate!(input));
  const got = await outcome(mine.call(path, kind, input));
  expect(got).toEqual(expected);
  if (code === null) expect(got).toHaveProperty('value');
  else expect(got).toMatchObject({ error: true, code });
}
const CALLS: Array<[string, string, Kind, unknown, string | null, string?]> = [
  ['a query', 'tabs.list', 'query', {}, null],
  ['a query without input', 'tabs.list', 'query', undefined, null],
  ['a query with an unknown field', 'tabs.list', 'query', { bogus: 1 }, 'invalid_input'],
  ['a mutation', 'daemon.stop', 'mutation', { ifAlone: true }, null],
  ['a mutation failing typed (with details)', 'page.goto', 'mutation', { url: 'http://a.test/' }, 'navigation_failed'],
  ['a mutation missing its input', 'page.goto', 'mutation', undefined, 'invalid_input'],
  ['an output its schema refuses', 'tabs.close', 'mutation', { id: 't1' }, 'invalid_input'],
  ['a handler throwing an untyped error', 'tabs.open', 'mutation', { url: 'http://refused.test/' }, 'internal'],
  ['the safety seam refusing', 'tabs.open', 'mutation', {}, 'forbidden_scope', 'refused'],
  ['a query sent as a mutation', 'tabs.list', 'mutation', {}, 'invalid_input'],
  ['an unknown command', 'tabs.nope', 'query', {}, 'invalid_input'],
];

describe("the client's direct call (ClientHandle.call, the MCP server's and CLI's path)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve();
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each(CALLS)('%s: what the tRPC client gives', async (_name, path, kind, input, code, name) => {
    const handle = createArgusClient({ url: `http://127.0.0.1:${server.port}`, token: TOKEN, keepAlive: true, name });
    try {
      await expectSameOutcome(handle, handle, [path, kind, input, code]);
    } finally {
      handle.close();
    }
  });

  it('reports a daemon that is not there as daemon_unreachable, as the client does', async () => {
    const gone = await serve();
    const port = gone.port;
    await gone.close();
    const handle = createArgusClient({ url: `http://127.0.0.1:${port}`, token: TOKEN, keepAlive: true });
    try {
      expect(await outcome(handle.call('tabs.list', 'query', {}))).toMatchObject({ code: 'daemon_unreachable' });
      expect(await outcome(handle.client.tabs.list.query({}))).toMatchObject({ code: 'daemon_unreachable' });
    } finally {
      handle.close();
    }
  });

  it('sends the calls of a kept-alive handle over one connection', async () => {
    let connections = 0;
    const counted = await serve();
    counted.server.on('connection', () => (connections += 1));
    const handle = createArgusClient({ url: `http://127.0.0.1:${counted.port}`, token: TOKEN, keepAlive: true });
    try {
      for (let i = 0; i < 5; i++) await handle.call('tabs.list', 'query', {});
      expect(connections).toBe(1);
    } finally {
      handle.close();
      await counted.close();
    }
  });
});

describe("the client's calls over one WebSocket (ClientHandle.call with calls: 'ws', the MCP server's path)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve();
  });
  afterAll(async () => {
    await server?.close();
  });
  const overWs = (port: number, extra: { name?: string | undefined; token?: string } = {}) =>
    createArgusClient({
      url: `http://127.0.0.1:${port}`,
      token: extra.token ?? TOKEN,
      keepAlive: true,
      name: extra.name,
      calls: 'ws',
      WebSocket,
    });

  it.each(CALLS)('%s: what the tRPC client gives over HTTP', async (_name, path, kind, input, code, name) => {
    const handle = overWs(server.port, { name });
    const http = createArgusClient({ url: `http://127.0.0.1:${server.port}`, token: TOKEN, name });
    try {
      await expectSameOutcome(handle, http, [path, kind, input, code]);
    } finally {
      handle.close();
      http.close();
    }
  });

  it('sends every call over one socket, authenticated once, and none over HTTP', async () => {
    const counted = await serve();
    let upgrades = 0;
    let requests = 0;
    counted.server.on('upgrade', () => (upgrades += 1));
    counted.server.on('request', () => (requests += 1));
    const handle = overWs(counted.port);
    try {
      // concurrent calls wait for the one socket being opened
      await Promise.all([1, 2, 3].map(() => handle.call('tabs.list', 'query', {})));
      for (let i = 0; i < 5; i++) await handle.call('tabs.list', 'query', {});
      expect({ upgrades, requests }).toEqual({ upgrades: 1, requests: 0 });
    } finally {
      handle.close();
      await counted.close();
    }
  });

  it('reports a daemon that is not there as daemon_unreachable, and a wrong token as unauthorized', async () => {
    const gone = await serve();
    const port = gone.port;
    await gone.close();
    const handle = overWs(port);
    const wrong = overWs(server.port, { token: 'b'.repeat(43) });
    try {
      expect(await outcome(handle.call('tabs.list', 'query', {}))).toMatchObject({ code: 'daemon_unreachable' });
      expect(await outcome(wrong.call('tabs.list', 'query', {}))).toMatchObject({ code: 'unauthorized' });
    } finally {
      handle.close();
      wrong.close();
    }
  });

  it('fails a call the daemon went away under as daemon_lost (it may have run), and the next as daemon_unreachable', async () => {
    const dying = await serve();
    const handle = overWs(dying.port);
    const running = new Promise<void>((resolve) => (hanging = { started: resolve, hungUp: () => {} }));
    try {
      const pending = outcome(handle.call('tabs.open', 'mutation', { url: 'http://hang.test/' }));
      await running;
      await dying.close();
      expect(await pending).toMatchObject({ error: true, code: 'daemon_lost' });
      expect(await outcome(handle.call('tabs.list', 'query', {}))).toMatchObject({ code: 'daemon_unreachable' });
    } finally {
      handle.close();
      hanging = { started: () => {}, hungUp: () => {} };
    }
  });

  it('keeps a script alive while its call waits, and lets it exit once idle without close()', async () => {
    // the built client, as a script would import it, in a process of its own
    const script = `
      import { createArgusClient } from '@argus/client';
      import { WebSocket } from 'ws';
      const handle = createArgusClient({ url: 'http://127.0.0.1:${server.port}', token: '${TOKEN}', calls: 'ws', WebSocket });
      const answer = await handle.call('tabs.open', 'mutation', { url: 'http://slow.test/' });
      console.log(JSON.stringify(answer));
    `;
    const cwd = fileURLToPath(new URL('..', import.meta.url));
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ['--input-type=module', '-e', script],
        { cwd, timeout: 20_000 },
        (error, stdout) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout }),
      );
      child.stdin?.end();
    });
    // exit 0 after the answer: neither cut short while waiting (exit 13, an unsettled await) nor held open afterwards (killed at the timeout)
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(SLOW_TAB);
  });
});
