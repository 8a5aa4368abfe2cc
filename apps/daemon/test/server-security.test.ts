import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Connection, connectToDaemon, createArgusClient, isProcessAlive } from '@argus/client';
import { wsAuthProtocols } from '@argus/security';
import { runProcess } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { codeOf, TEST_CHROME_FLAGS } from './harness.js';

// The daemon runs as its own process here, so its memory (RSS) is measured apart from the attacker's.
const DAEMON_MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'main.js');
const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'cli', 'dist', 'argus.js');
const MB = 1024 * 1024;
const STATUS = `/trpc/daemon.status?input=${encodeURIComponent('{}')}`;

function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

interface UpgradeOutcome {
  opened: boolean;
  status: number | undefined;
  framesSent: number;
}

/**
 * The attacker of issue 11 #3: opens a socket (without a valid token) and, if the daemon lets it
 * open, sends `frames` text frames of `size` bytes. Resolves when the socket is gone.
 */
function attackSocket(
  url: string,
  options: { protocols?: string[]; headers?: Record<string, string>; frames: number; size: number },
): Promise<UpgradeOutcome> {
  return new Promise((resolve) => {
    const outcome: UpgradeOutcome = { opened: false, status: undefined, framesSent: 0 };
    const socket = new WebSocket(url, options.protocols ?? [], { headers: options.headers ?? {} });
    socket.on('error', () => {});
    socket.once('unexpected-response', (_req, res) => {
      outcome.status = res.statusCode;
      res.resume();
      socket.terminate();
    });
    socket.once('open', () => {
      outcome.opened = true;
      const payload = Buffer.alloc(options.size, 0x61);
      const sendNext = () => {
        if (outcome.framesSent >= options.frames || socket.readyState !== WebSocket.OPEN) return;
        socket.send(payload, { binary: false }, () => {
          outcome.framesSent += 1;
          sendNext();
        });
      };
      sendNext();
      // an authenticated daemon would keep a socket open; give the attack time, then hang up
      setTimeout(() => socket.terminate(), 8_000).unref();
    });
    socket.once('close', () => resolve(outcome));
  });
}

/** One HTTP request with full control over the headers (fetch cannot set Host). */
function rawRequest(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers ?? {} },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? resolve({ status: 0, body: '' }) : reject(error),
    );
    req.end(options.body);
  });
}

describe('the daemon server: authentication at the WebSocket upgrade, Host and Origin, error bodies (issue 11 #3, #11)', () => {
  let workspace = '';
  let conn: Connection;
  let port = 0;
  let token = '';
  let pid = 0;

  beforeAll(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'argus-sec-ws-'));
    conn = await connectToDaemon({
      stateDir: join(workspace, '.argus'),
      autoStart: true,
      daemonEntry: DAEMON_MAIN,
      daemonEnv: { ARGUS_CHROME_FLAGS: TEST_CHROME_FLAGS },
      transport: 'ws',
      WebSocket,
    });
    ({ port, token, pid } = conn.state);
  });

  afterAll(async () => {
    await conn?.client.daemon.stop.mutate({}).catch(() => undefined);
    conn?.close();
    const deadline = Date.now() + 10_000;
    while (pid && isProcessAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    if (pid && isProcessAlive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(workspace, { recursive: true, force: true });
  });

  it('the typed client works over the WebSocket authenticated at the upgrade; a wrong token fails typed, not hung', async () => {
    expect((await conn.client.daemon.status.query({})).pid).toBe(pid);
    const wrong = createArgusClient({
      url: `http://127.0.0.1:${port}`,
      token: 'wrong-token',
      transport: 'ws',
      WebSocket,
    });
    try {
      expect(await codeOf(wrong.client.daemon.status.query({}))).toBe('unauthorized');
      // refused again (not hung) on the next call
      expect(await codeOf(wrong.client.daemon.status.query({}))).toBe('unauthorized');
    } finally {
      wrong.close();
    }
  });

  it('flood: 4 sockets x 3 frames of 60 MB without a valid token are refused at the upgrade; daemon RSS stays bounded', async () => {
    const before = rssMb(pid);
    const url = `ws://127.0.0.1:${port}/trpc`;
    const attacks = [
      attackSocket(`${url}?connectionParams=1`, { frames: 3, size: 60 * MB }),
      attackSocket(url, { frames: 3, size: 60 * MB }),
      attackSocket(url, { protocols: wsAuthProtocols('wrong-token'), frames: 3, size: 60 * MB }),
      attackSocket(url, { headers: { authorization: 'Bearer wrong-token' }, frames: 3, size: 60 * MB }),
    ];
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
    const outcomes = await Promise.all(attacks);
    clearInterval(sampler);
    peak = Math.max(peak, rssMb(pid));
    expect(outcomes).toEqual(Array.from({ length: 4 }, () => ({ opened: false, status: 401, framesSent: 0 })));
    // before the fix the same attack took the daemon from ~72 MB to ~840 MB
    expect(peak - before).toBeLessThan(40);
    expect((await conn.client.daemon.status.query({})).pid).toBe(pid);
  });

  it('an unauthenticated 60 MB HTTP body is refused without being buffered', async () => {
    const before = rssMb(pid);
    const body = Buffer.alloc(60 * MB, 0x61);
    const answers = await Promise.all(
      [0, 1, 2].map(() =>
        rawRequest(port, '/trpc/page.goto', {
          method: 'POST',
          headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json' },
          body,
        }),
      ),
    );
    for (const answer of answers) expect([0, 401]).toContain(answer.status);
    expect(answers.some((answer) => answer.status === 401)).toBe(true);
    expect(rssMb(pid) - before).toBeLessThan(40);
  });

  it('a browser Origin, a rebound Host name and a token in the URL are refused; loopback names pass', async () => {
    const auth = { authorization: `Bearer ${token}` };
    expect((await rawRequest(port, STATUS, { headers: { ...auth, host: `127.0.0.1:${port}` } })).status).toBe(200);
    expect((await rawRequest(port, STATUS, { headers: { ...auth, host: `localhost:${port}` } })).status).toBe(200);
    expect((await rawRequest(port, STATUS, { headers: { ...auth, host: `[::1]:${port}` } })).status).toBe(200);
    // DNS rebinding: evil.example resolved to 127.0.0.1; the browser sends its own name as Host
    expect((await rawRequest(port, STATUS, { headers: { ...auth, host: `evil.example:${port}` } })).status).toBe(421);
    expect((await rawRequest(port, STATUS, { headers: { ...auth, host: `127.0.0.1:${port + 1}` } })).status).toBe(421);
    expect((await rawRequest(port, '/health', { headers: { host: `evil.example:${port}` } })).status).toBe(421);
    expect(
      (
        await rawRequest(port, STATUS, {
          headers: { ...auth, host: `127.0.0.1:${port}`, origin: 'https://evil.example' },
        })
      ).status,
    ).toBe(403);
    expect(
      (await rawRequest(port, `${STATUS}&token=${token}`, { headers: { host: `127.0.0.1:${port}` } })).status,
    ).toBe(401);
    const url = `ws://127.0.0.1:${port}/trpc`;
    const withToken = wsAuthProtocols(token);
    expect(
      await attackSocket(url, { protocols: withToken, headers: { host: `evil.example:${port}` }, frames: 0, size: 0 }),
    ).toMatchObject({ opened: false, status: 421 });
    expect(
      await attackSocket(url, {
        protocols: withToken,
        headers: { origin: 'https://evil.example' },
        frames: 0,
        size: 0,
      }),
    ).toMatchObject({ opened: false, status: 403 });
    expect(await attackSocket(`${url}?token=${token}`, { frames: 0, size: 0 })).toMatchObject({
      opened: false,
      status: 401,
    });
  });

  it('caps open WebSockets per token (32): the next one gets 429 until one closes', async () => {
    const url = `ws://127.0.0.1:${port}/trpc`;
    const open = (): Promise<WebSocket | number> =>
      new Promise((resolve) => {
        const socket = new WebSocket(url, wsAuthProtocols(token));
        socket.on('error', () => {});
        socket.once('open', () => resolve(socket));
        socket.once('unexpected-response', (_req, res) => {
          socket.terminate();
          resolve(res.statusCode ?? 0);
        });
      });
    // the typed client of this file may hold one socket already
    const held: WebSocket[] = [];
    try {
      for (;;) {
        const next = await open();
        if (typeof next === 'number') {
          expect(next).toBe(429);
          break;
        }
        held.push(next);
        expect(held.length).toBeLessThanOrEqual(32);
      }
      expect(held.length).toBeGreaterThanOrEqual(31);
      const first = held.shift();
      await new Promise((resolve) => {
        first?.once('close', resolve);
        first?.close();
      });
      const again = await open();
      expect(again).toBeInstanceOf(WebSocket);
      if (again instanceof WebSocket) held.push(again);
    } finally {
      for (const socket of held) socket.terminate();
    }
  });

  it('error bodies carry no server stack or install path', async () => {
    const headers = { authorization: `Bearer ${token}`, host: `127.0.0.1:${port}`, 'content-type': 'application/json' };
    const unknown = await rawRequest(port, '/trpc/nope.nothing', { headers });
    const invalid = await rawRequest(port, '/trpc/page.goto', { method: 'POST', headers, body: '{"url":5}' });
    const unauthorized = await rawRequest(port, '/trpc/daemon.status', { headers: { host: headers.host } });
    for (const answer of [unknown, invalid, unauthorized]) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.body).toContain('"argus"');
      expect(answer.body).not.toMatch(/"stack"|node_modules|\/work\/|\bat file:\/\//);
    }
  });

  it('connect --cdp to another machine needs --allow-remote (typed error remote_forbidden), through the client and the CLI', async () => {
    const remote = await conn.client.session.connect
      .mutate({ cdp: 'http://203.0.113.7:9222' })
      .catch((error: unknown) => error);
    expect(remote).toMatchObject({ code: 'remote_forbidden', message: expect.stringContaining('--allow-remote') });
    expect(
      await codeOf(conn.client.session.connect.mutate({ cdp: 'ws://devtools.example.com/devtools/browser/x' })),
    ).toBe('remote_forbidden');
    expect(await codeOf(conn.client.session.connect.mutate({ managed: true, allowRemote: true }))).toBe(
      'invalid_input',
    );
    const cli = await runProcess(process.execPath, [CLI, 'connect', '--cdp', 'http://203.0.113.7:9222'], {
      env: { ...process.env, ARGUS_STATE_DIR: join(workspace, '.argus') },
      timeoutMs: 30_000,
    });
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/not this machine.*--allow-remote/s);
    // with the opt-in the daemon does try the remote host (0.0.0.0 is not loopback; nothing listens on port 9)
    const allowed = await conn.client.session.connect.mutate({ cdp: 'http://0.0.0.0:9', allowRemote: true });
    expect(allowed).toMatchObject({ mode: 'connect', cdpUrl: 'http://0.0.0.0:9/' });
    expect(await codeOf(conn.client.tabs.list.query({}))).toBe('browser_not_found');
    expect((await conn.client.session.connect.mutate({ managed: true })).mode).toBe('managed');
  });
});
