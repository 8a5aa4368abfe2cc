import { startFixtureServer, type FixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { argusChromeProcesses } from './helpers/chromium.js';
import { openUserTab, startHarness, waitUntil, type Harness } from './helpers/harness.js';
import { OpsClient } from './helpers/ops-client.js';

interface Frame {
  id?: number;
  method?: string;
  result?: unknown;
}

/**
 * A wire-level client of the relay's `/cdp` endpoint. The repo's CDP client (chrome-remote-interface,
 * through @argus/cdp) cannot send the `Authorization` header this endpoint demands, so the test
 * speaks the frames itself; every other CDP connection in these tests is @argus/cdp's.
 */
async function connectRelayCdp(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, { headers, perMessageDeflate: false });
  const frames: Frame[] = [];
  const arrivals = new Set<() => void>();
  // listen before open: the relay speaks first (the lease event)
  socket.on('message', (data) => {
    frames.push(JSON.parse(String(data)) as Frame); // the relay's own CDP frames
    for (const arrival of [...arrivals]) arrival();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
    socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
  const next = (match: (frame: Frame) => boolean) =>
    new Promise<Frame>((resolve) => {
      const check = () => {
        const frame = frames.find(match);
        if (!frame) return;
        arrivals.delete(check);
        resolve(frame);
      };
      arrivals.add(check);
      check();
    });
  let lastId = 0;
  return {
    event: (method: string) => next((frame) => frame.method === method),
    async send(method: string, params: object): Promise<unknown> {
      const id = ++lastId;
      socket.send(JSON.stringify({ id, method, params }));
      return (await next((frame) => frame.id === id)).result;
    },
    close: () => socket.close(),
  };
}

describe('extension mode: faults and refusals', () => {
  let fixtures: FixtureServer;
  let harness: Harness;
  let userTargetId: string;
  let userTabId: number;

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    harness = await startHarness();
    ({ targetId: userTargetId, tabId: userTabId } = await openUserTab(harness, fixtures.urlFor('/buttons.html')));
  });

  afterAll(async () => {
    const userDataDir = harness?.chromium.userDataDir;
    await harness?.close();
    await fixtures?.close();
    // nothing of the browser may outlive the suite
    if (userDataDir) expect(argusChromeProcesses(userDataDir)).toEqual([]);
  });

  it('kill the relay mid-command and restart it: the command is neither lost nor run twice', async () => {
    let ops = await OpsClient.connect(harness.relay.url, harness.daemonToken);
    const attach = await ops.call('attach-1', 'debugger.attach', { tabId: userTabId });
    const { sessionId } = attach.result as { sessionId: string };
    // the side effect runs at once; the answer comes 1.5 s later, after the relay is gone
    const slowIncrement = {
      sessionId,
      method: 'Runtime.evaluate',
      params: {
        expression: `window.__hits = (window.__hits ?? 0) + 1; new Promise(r => setTimeout(() => r(window.__hits), 1500))`,
        awaitPromise: true,
        returnByValue: true,
      },
    };
    const inflight = ops.call('increment-once', 'cdp.send', slowIncrement);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const relay = await harness.restartRelay();
    await expect(inflight).rejects.toThrow(/socket closed/);

    // the client retries the same frame (same idempotency key) against the new relay
    ops = await OpsClient.connect(relay.url, harness.daemonToken);
    const replay = await ops.call('increment-once', 'cdp.send', slowIncrement);
    expect(replay.ok).toBe(true);
    expect((replay.result as { result: { result: { value: number } } }).result.result.value).toBe(1);
    expect(relay.status().extensionConnected).toBe(true);

    const check = await ops.call('check-hits', 'cdp.send', {
      sessionId,
      method: 'Runtime.evaluate',
      params: { expression: 'window.__hits', returnByValue: true },
    });
    expect((check.result as { result: { result: { value: number } } }).result.result.value).toBe(1);
    // a second replay is served from the cache too
    const again = await ops.call('increment-once', 'cdp.send', slowIncrement);
    expect((again.result as { result: { result: { value: number } } }).result.result.value).toBe(1);
    await ops.call('detach-1', 'debugger.detach', { sessionId });
    ops.close();
  });

  it('refuses a wrong launch token on /pair and a wrong pairing token on /extension', async () => {
    const origin = `chrome-extension://${harness.extensionId}`;
    const pair = await fetch(`${harness.relay.url}/pair`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json' },
      body: JSON.stringify({ version: 1, nodeId: 'node-intruder-0001', launchToken: 'not-the-launch-token' }),
    });
    expect(pair.status).toBe(401);

    const socket = new WebSocket(`${harness.relay.url.replace('http', 'ws')}/extension`, { headers: { origin } });
    await new Promise((resolve) => socket.once('open', resolve));
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send(
      JSON.stringify({
        version: 1,
        type: 'hello',
        nodeId: 'node-intruder-0001',
        pairingToken: 'forged',
        extensionVersion: '0.0.0',
      }),
    );
    expect(await closed).toBe(4401);
    expect(harness.relay.status().extensionConnected).toBe(true); // the real node was not displaced
  });

  it('refuses a non-extension Origin on /extension and web origins elsewhere', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(`${harness.relay.url.replace('http', 'ws')}/extension`, {
        headers: { origin: 'https://evil.example' },
      });
      socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      socket.once('open', () => reject(new Error('upgrade should be refused')));
    });
    expect(status).toBe(403);
    const config = await fetch(`${harness.relay.url}/config`, { headers: { origin: 'https://evil.example' } });
    expect(config.status).toBe(403);
    const preflight = await fetch(`${harness.relay.url}/pair`, {
      method: 'OPTIONS',
      headers: {
        origin: `chrome-extension://${harness.extensionId}`,
        'access-control-request-method': 'POST',
        'access-control-request-private-network': 'true',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-private-network')).toBe('true');
  });

  it('a second /cdp client waits for the tab lease until the first leaves', async () => {
    const url = `${harness.relay.url.replace('http', 'ws')}/cdp?targetId=${userTargetId}`;
    const headers = { authorization: `Bearer ${harness.daemonToken}` };
    const first = await connectRelayCdp(url, headers);
    await first.event('Argus.leaseGranted');
    expect(await first.send('Runtime.evaluate', { expression: '1 + 1', returnByValue: true })).toMatchObject({
      result: { value: 2 },
    });

    const second = await connectRelayCdp(url, headers);
    await second.event('Argus.leaseWaiting');
    let answered = false;
    const pending = second.send('Runtime.evaluate', { expression: '2 + 2', returnByValue: true }).then((result) => {
      answered = true;
      return result;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(answered).toBe(false);
    first.close();
    expect(await pending).toMatchObject({ result: { value: 4 } });
    second.close();
    await expect(connectRelayCdp(url)).rejects.toThrow(/401/);
  });

  it('reconnects with backoff after the relay was down for a while, re-pairing with the launch token', async () => {
    const port = harness.relay.port;
    const relay = await harness.restartRelay({ downMs: 2000 });
    expect(relay.port).toBe(port);
    await waitUntil(() => relay.status().extensionConnected, 15_000, 'the extension to reconnect');
    expect(relay.status()).toMatchObject({ paired: true, extensionConnected: true });
    const status = (await harness.evalInWorker(`chrome.storage.session.get('status').then((s) => s.status)`)) as {
      state: string;
    };
    expect(status.state).toBe('authenticated_connected');
  });

  it('pairs by operator approval of the code when no launch token is configured', async () => {
    await harness.evalInWorker(`chrome.storage.local.remove(['launchToken', 'pairingToken'])`);
    const relay = await harness.restartRelay({ launchToken: undefined });
    await waitUntil(() => relay.pendingPairings().length === 1, 15_000, 'a pending pairing request');
    const [request] = relay.pendingPairings();
    const status = (await harness.evalInWorker(`chrome.storage.session.get('status').then((s) => s.status)`)) as {
      state: string;
      pairingCode?: string;
    };
    expect(status).toMatchObject({ state: 'waiting_for_pair_approval', pairingCode: request?.code });
    expect(relay.status().extensionConnected).toBe(false);
    expect(relay.approvePairing('WRONG-CODE')).toBe(false);
    expect(relay.approvePairing(request?.code ?? '')).toBe(true);
    await waitUntil(() => relay.status().extensionConnected, 15_000, 'the approved extension to connect');
    const stored = (await harness.evalInWorker(`chrome.storage.local.get('pairingToken')`)) as {
      pairingToken?: string;
    };
    expect(stored.pairingToken).toMatch(/^[\w-]{40,}$/);
  });
});
