import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startRelay } from './server.js';
import type { RelayServer } from './types.js';
import type { CommandFrame } from './wire/index.js';

const ORIGIN = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
const DAEMON = 'daemon-token-for-tests';
const LAUNCH = 'launch-token-for-tests';

/** A scripted stand-in for the extension: answers commands from a handler and counts executions. */
async function fakeExtension(relay: RelayServer, handle: (frame: CommandFrame) => unknown, nodeId = 'node-fake-0001') {
  const pair = await fetch(`${relay.url}/pair`, {
    method: 'POST',
    headers: { origin: ORIGIN },
    body: JSON.stringify({ version: 1, nodeId, launchToken: LAUNCH }),
  });
  const { pairingToken } = (await pair.json()) as { pairingToken: string };
  const executed: string[] = [];
  const socket = new WebSocket(`${relay.url.replace('http', 'ws')}/extension`, { headers: { origin: ORIGIN } });
  let welcomed!: () => void;
  const welcome = new Promise<void>((resolve) => (welcomed = resolve));
  // one listener from the start: replayed commands can arrive in the same chunk as the welcome
  socket.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as CommandFrame | { type: 'welcome' };
    if (frame.type === 'welcome') return welcomed();
    if (frame.type !== 'command') return;
    if (frame.command !== 'node.status') executed.push(frame.id); // the relay asks for status on every connect
    socket.send(JSON.stringify({ version: 1, type: 'result', id: frame.id, ok: true, result: handle(frame) }));
  });
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ version: 1, type: 'hello', nodeId, pairingToken, extensionVersion: 'test' }));
  await welcome;
  return {
    socket,
    executed,
    emit: (event: string, params: unknown) => socket.send(JSON.stringify({ version: 1, type: 'event', event, params })),
  };
}

const TAB = {
  tabId: 7,
  targetId: 'T7',
  url: 'https://example.test/',
  title: 'Example',
  active: true,
  agentOpened: false,
  attached: false,
};

/** A GET with a chosen Host header (fetch does not let a caller set Host). */
function rawGet(port: number, path: string, headers: Record<string, string>): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0 });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('relay server', () => {
  let relay: RelayServer;
  beforeEach(async () => {
    relay = await startRelay({ port: 0, daemonToken: DAEMON, launchToken: LAUNCH });
  });
  afterEach(async () => {
    await relay.close();
  });

  it('a forged extension socket cannot make the relay buffer a large frame before its hello', async () => {
    // any local process can claim the extension's Origin; until its hello it is a stranger. It
    // announces one 60 MB frame and streams it in 64 KB writes, as fast as the relay reads
    const { port } = new URL(relay.url);
    const tcp = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => tcp.once('connect', resolve));
    tcp.write(
      `GET /extension HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${ORIGIN}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    const upgraded = await new Promise<string>((resolve) =>
      tcp.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1'))),
    );
    expect(upgraded).toMatch(/^HTTP\/1\.1 101/);
    const total = 60 * 1024 * 1024;
    const header = Buffer.alloc(14);
    header[0] = 0x82; // FIN, binary
    header[1] = 0x80 | 127; // masked, 64-bit length
    header.writeBigUInt64BE(BigInt(total), 2);
    let closed = false;
    tcp.on('close', () => (closed = true));
    tcp.on('error', () => (closed = true));
    let written = 0;
    tcp.write(header);
    const chunk = Buffer.alloc(64 * 1024);
    while (!closed && written < total) {
      written += chunk.length;
      if (!tcp.write(chunk))
        await new Promise((resolve) => {
          tcp.once('drain', resolve);
          tcp.once('close', resolve);
        });
    }
    tcp.destroy();
    // cut off after its first 16 KB: what got through is what the kernel's socket buffers held
    expect(closed).toBe(true);
    expect(written).toBeLessThan(16 * 1024 * 1024);
    // the real extension still connects
    const real = await fakeExtension(relay, () => ({}));
    real.socket.close();
  });

  it('closes an extension socket that sends no hello', async () => {
    const socket = new WebSocket(`${relay.url.replace('http', 'ws')}/extension`, { headers: { origin: ORIGIN } });
    const started = Date.now();
    const code = await new Promise<number>((resolve) => socket.once('close', (closeCode) => resolve(closeCode)));
    expect(code).toBe(4401);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('rejects transport sends with a clear error while no extension is connected', async () => {
    const transport = relay.transport();
    await expect(transport.send('Target.getTargets', {}, undefined)).rejects.toMatchObject({
      code: 'browser_not_found',
      message: expect.stringContaining('docs/EXTENSION.md'),
    });
    expect(relay.status()).toMatchObject({ extensionConnected: false, paired: false });
  });

  it('emulates Target.getTargets / attachToTarget over the extension and routes session events', async () => {
    const ext = await fakeExtension(relay, (frame) => {
      if (frame.command === 'tabs.list') return { tabs: [TAB] };
      if (frame.command === 'debugger.attach') return { sessionId: 'S1', tab: { ...TAB, attached: true } };
      if (frame.command === 'cdp.send') return { result: { echoed: (frame.params as { method: string }).method } };
      return {};
    });
    const transport = relay.transport();
    const events: Array<{ method: string; sessionId?: string | undefined }> = [];
    transport.onEvent((event) => events.push(event));
    expect(await transport.send('Target.getTargets', {}, undefined)).toEqual({
      targetInfos: [expect.objectContaining({ targetId: 'T7', type: 'page' })],
    });
    expect(await transport.send('Target.attachToTarget', { targetId: 'T7', flatten: true }, undefined)).toEqual({
      sessionId: 'S1',
    });
    expect(events[0]).toMatchObject({ method: 'Target.attachedToTarget', sessionId: undefined });
    expect(await transport.send('Runtime.evaluate', { expression: '1' }, 'S1')).toEqual({ echoed: 'Runtime.evaluate' });
    ext.emit('cdp.event', { sessionId: 'S1', method: 'Runtime.consoleAPICalled', params: { type: 'log' } });
    ext.emit('cdp.event', { sessionId: 'someone-else', method: 'Runtime.consoleAPICalled', params: {} });
    await expect.poll(() => events.length).toBe(2);
    expect(events[1]).toMatchObject({ method: 'Runtime.consoleAPICalled', sessionId: 'S1' });
    await expect(transport.send('Runtime.evaluate', {}, 'unknown-session')).rejects.toMatchObject({
      code: 'target_closed',
    });
    ext.socket.close();
  });

  it("pushes the side panel's events to the connected extension; the panel's Clear reaches the relay's owner", async () => {
    expect(relay.notify('panel.inbox', { unread: 0, items: [] })).toBe(false); // nobody connected: dropped
    let cleared = 0;
    const own = await startRelay({ port: 0, daemonToken: DAEMON, launchToken: LAUNCH, onInboxClear: () => cleared++ });
    try {
      const ext = await fakeExtension(own, () => ({}));
      const received: unknown[] = [];
      ext.socket.on('message', (data) => {
        const frame = JSON.parse(data.toString()) as { type: string };
        if (frame.type === 'event') received.push(frame);
      });
      const entry = {
        targetId: 'T7',
        at: '2026-01-01T00:00:00.000Z',
        verb: 'click',
        target: 'e3',
        ok: false,
        error: 'ref_stale',
      };
      expect(own.notify('panel.feed', entry)).toBe(true);
      await expect.poll(() => received.length).toBe(1);
      expect(received[0]).toEqual({ version: 1, type: 'event', event: 'panel.feed', params: entry });
      ext.emit('inbox.clear', { extra: 1 }); // malformed: dropped
      ext.emit('inbox.clear', {});
      await expect.poll(() => cleared).toBe(1);
      ext.socket.close();
    } finally {
      await own.close();
    }
  });

  it('answers a replayed /ops key from the cache without re-running it', async () => {
    const ext = await fakeExtension(relay, () => ({ tabs: [] }));
    const ops = new WebSocket(`${relay.url.replace('http', 'ws')}/ops`, {
      headers: { authorization: `Bearer ${DAEMON}` },
    });
    await new Promise((resolve) => ops.once('open', resolve));
    const call = () =>
      new Promise<unknown>((resolve) => {
        ops.once('message', (data) => resolve(JSON.parse(data.toString())));
        ops.send(JSON.stringify({ version: 1, type: 'command', id: 'same-key', command: 'tabs.list', params: {} }));
      });
    expect(await call()).toMatchObject({ id: 'same-key', ok: true, result: { tabs: [] } });
    expect(await call()).toMatchObject({ id: 'same-key', ok: true, result: { tabs: [] } });
    expect(ext.executed).toEqual(['same-key']);
    ops.close();
    ext.socket.close();
  });

  it('keeps commands pending across an extension reconnect and re-sends them with the same key', async () => {
    const first = await fakeExtension(relay, () => undefined);
    first.socket.removeAllListeners('message'); // this node goes silent: the command stays unanswered
    const transport = relay.transport();
    const pending = transport.send('Target.getTargets', {}, undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    first.socket.terminate();
    await expect.poll(() => relay.status().extensionConnected).toBe(false);
    const second = await fakeExtension(relay, () => ({ tabs: [TAB] }));
    expect(await pending).toMatchObject({ targetInfos: [expect.objectContaining({ targetId: 'T7' })] });
    expect(second.executed).toHaveLength(1);
    second.socket.close();
  });

  it('fails commands in flight with browser_not_found when the extension drops and does not come back', async () => {
    const quick = await startRelay({ port: 0, daemonToken: DAEMON, launchToken: LAUNCH, reconnectGraceMs: 200 });
    try {
      const ext = await fakeExtension(quick, () => undefined);
      ext.socket.removeAllListeners('message'); // the command is running in the tab when the person disconnects
      const pending = quick.transport().send('Target.getTargets', {}, undefined);
      await new Promise((resolve) => setTimeout(resolve, 50));
      ext.socket.close();
      await expect(pending).rejects.toMatchObject({
        code: 'browser_not_found',
        message: expect.stringContaining('disconnected while tabs.list was running'),
      });
    } finally {
      await quick.close();
    }
  });

  it('guards endpoints: tokens, origins, pairing origin, rate limits and PNA preflight', async () => {
    const wsStatus = (path: string, headers: Record<string, string>) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(`${relay.url.replace('http', 'ws')}${path}`, { headers });
        socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        socket.once('open', () => {
          socket.close();
          resolve(101);
        });
      });
    expect(await wsStatus('/ops', {})).toBe(401);
    expect(await wsStatus('/ops', { authorization: 'Bearer wrong' })).toBe(401);
    expect(await wsStatus('/ops', { authorization: `Bearer ${DAEMON}`, origin: 'https://evil.example' })).toBe(403);
    expect(await wsStatus('/extension', { origin: 'https://evil.example' })).toBe(403);
    expect(await wsStatus('/extension', {})).toBe(403);
    expect(await wsStatus('/cdp', { authorization: `Bearer ${DAEMON}` })).toBe(400);

    const webPair = await fetch(`${relay.url}/pair`, {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
      body: '{}',
    });
    expect(webPair.status).toBe(403);
    const preflight = await fetch(`${relay.url}/pair`, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-private-network': 'true' },
    });
    expect(preflight.headers.get('access-control-allow-private-network')).toBe('true');
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ORIGIN);

    // a token in the URL is refused: headers only
    expect(await wsStatus(`/ops?token=${DAEMON}`, {})).toBe(401);
    expect(await wsStatus(`/cdp?targetId=T7&token=${DAEMON}`, {})).toBe(401);
    // DNS rebinding: a loopback connection naming another host is refused before anything else
    expect(
      await wsStatus('/ops', { authorization: `Bearer ${DAEMON}`, host: `rebound.evil.example:${relay.port}` }),
    ).toBe(421);
    expect((await rawGet(relay.port, '/config', { host: `rebound.evil.example:${relay.port}` })).status).toBe(421);
    expect((await rawGet(relay.port, '/config', { host: `localhost:${relay.port}` })).status).toBe(200);

    // /status says nothing without the daemon token, not even whether an extension is paired
    const publicStatus = await fetch(`${relay.url}/status`);
    expect(publicStatus.status).toBe(401);
    const publicBody = (await publicStatus.json()) as Record<string, unknown>;
    expect(publicBody).not.toHaveProperty('paired');
    expect(publicBody).not.toHaveProperty('extensionConnected');
    expect((await fetch(`${relay.url}/status?token=${DAEMON}`)).status).toBe(401);
    const fullStatus = (await (
      await fetch(`${relay.url}/status`, { headers: { authorization: `Bearer ${DAEMON}` } })
    ).json()) as Record<string, unknown>;
    expect(fullStatus).toHaveProperty('pendingPairings');
  });

  it('a pairing flood from local scripts and another extension leaves the extension room to pair', async () => {
    const pair = (nodeId: string, origin?: string, requestId?: string) =>
      fetch(`${relay.url}/pair`, {
        method: 'POST',
        headers: origin ? { origin } : {},
        body: JSON.stringify({ version: 1, nodeId, name: 'Argus extension', ...(requestId ? { requestId } : {}) }),
      });
    const local: number[] = [];
    const other: number[] = [];
    for (let i = 0; i < 14; i++) {
      local.push((await pair(`argus-extension-${i}-legit`)).status);
      other.push((await pair(`other-ext-node-${i}`, 'chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba')).status);
    }
    expect(local.filter((status) => status === 200)).toHaveLength(4);
    expect(local.slice(4).every((status) => status === 429)).toBe(true);
    expect(other.filter((status) => status === 200)).toHaveLength(2);
    // the flood spent the local and the other extension's rate-limit buckets, not this extension's
    const first = await pair('real-extension-node', ORIGIN);
    expect(first.status).toBe(200);
    const pending = (await first.json()) as { status: string; requestId: string; code: string };
    expect(pending.status).toBe('pending');
    const listed = relay.pendingPairings();
    expect(listed.find((request) => request.nodeId === 'real-extension-node')).toMatchObject({
      nodeId: 'real-extension-node',
      origin: ORIGIN,
      fingerprint: expect.stringMatching(/^[0-9A-F:]{14}$/),
    });
    expect(listed.filter((request) => request.origin === undefined)).toHaveLength(4);
    expect(relay.approvePairing(pending.code)).toBe(true);
    const approved = (await (await pair('real-extension-node', ORIGIN, pending.requestId)).json()) as {
      status: string;
      pairingToken?: string;
    };
    expect(approved).toMatchObject({ status: 'approved', pairingToken: expect.any(String) });
  });
});
