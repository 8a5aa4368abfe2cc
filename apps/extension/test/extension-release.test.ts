import type { CdpEvent, Transport } from '@argus/cdp';
import { startFixtureServer, type FixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argusChromeProcesses } from './helpers/chromium.js';
import { openUserTab, startHarness, waitUntil, type Harness } from './helpers/harness.js';
import { OpsClient } from './helpers/ops-client.js';
import { evaluate } from './helpers/transport-events.js';

/**
 * When the connection ends for good (Disconnect, the relay gone past its grace) the extension lets
 * go of the person's tabs: chrome.debugger is detached, so Chrome's debugging bar goes and nothing
 * can drive them until an agent attaches again through a new connection.
 */
describe('extension mode: the debugger is released when the connection ends', () => {
  let fixtures: FixtureServer;
  let harness: Harness;
  let userTargetId: string;
  let userTabId: number;

  /** chrome.debugger's own view, from the extension's worker: whether a debugger holds the user's tab. */
  const attached = async () =>
    (await harness.evalInWorker(
      `chrome.debugger.getTargets().then((targets) => targets.find((t) => t.tabId === ${userTabId})?.attached)`,
    )) === true;
  const bookkeeping = () =>
    harness.evalInWorker(`chrome.storage.session.get('debuggerSessions').then((s) => s.debuggerSessions)`);
  const state = async () =>
    ((await harness.evalInWorker(`chrome.storage.session.get('status').then((s) => s.status)`)) as { state: string })
      .state;

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    harness = await startHarness();
    ({ targetId: userTargetId, tabId: userTabId } = await openUserTab(harness, fixtures.urlFor('/buttons.html')));
  });

  afterAll(async () => {
    const userDataDir = harness?.chromium.userDataDir;
    await harness?.close();
    await fixtures?.close();
    if (userDataDir) expect(argusChromeProcesses(userDataDir)).toEqual([]);
  });

  it('Disconnect detaches every tab; after Connect the old session has ended and the tab attaches again', async () => {
    const transport: Transport = harness.relay.transport();
    try {
      const { sessionId } = (await transport.send(
        'Target.attachToTarget',
        { targetId: userTargetId, flatten: true },
        undefined,
      )) as { sessionId: string };
      expect(await evaluate(transport, sessionId, '1 + 1')).toBe(2);
      expect(await attached()).toBe(true);
      const detachedEvents: CdpEvent[] = [];
      transport.onEvent((event) => {
        if (event.method === 'Target.detachedFromTarget') detachedEvents.push(event);
      });

      // what the popup's Disconnect button writes
      await harness.evalInWorker(`chrome.storage.local.set({ enabled: false })`);
      await waitUntil(async () => (await state()) === 'disabled', 10_000, 'the extension to say disabled');
      expect(await attached()).toBe(false); // before the fix: true, the tab stayed under the debugger
      expect(await bookkeeping()).toEqual({ tabs: {}, children: {} });
      await waitUntil(() => !harness.relay.status().extensionConnected, 10_000, 'the relay to see it gone');
      // nothing drives the tab meanwhile: the command fails saying why
      await expect(evaluate(transport, sessionId, '2 + 2')).rejects.toThrow(/No Argus extension is connected/);

      // read at the moment the relay adopts the extension's new socket, before any client can send
      let endedBeforeConnected: boolean | undefined;
      const off = harness.relay.onStatus((status) => {
        if (status.extensionConnected)
          endedBeforeConnected ??= detachedEvents.some(
            (event) => (event.params as { sessionId?: string }).sessionId === sessionId,
          );
      });
      await harness.evalInWorker(`chrome.storage.local.set({ enabled: true })`);
      await waitUntil(() => harness.relay.status().extensionConnected, 15_000, 'the extension to reconnect');
      off();
      // told in the hello: the old session ended before any client could send on it again
      expect(endedBeforeConnected).toBe(true);
      await expect(evaluate(transport, sessionId, '3 + 3')).rejects.toThrow(/not attached/);

      // no stale "already attached": a new attach drives the tab
      const again = (await transport.send(
        'Target.attachToTarget',
        { targetId: userTargetId, flatten: true },
        undefined,
      )) as { sessionId: string };
      expect(again.sessionId).not.toBe(sessionId);
      expect(await evaluate(transport, again.sessionId, '4 + 4')).toBe(8);
      expect(await attached()).toBe(true);
      await transport.send('Target.detachFromTarget', { sessionId: again.sessionId }, undefined);
      expect(await attached()).toBe(false);
    } finally {
      await transport.close();
    }
  });

  it('the relay gone past its grace: every tab is detached; when it is back the tab attaches again', async () => {
    // connected, whatever the test before left behind
    await harness.evalInWorker(`chrome.storage.local.set({ enabled: true })`);
    await waitUntil(() => harness.relay.status().extensionConnected, 15_000, 'the extension to connect');
    let ops = await OpsClient.connect(harness.relay.url, harness.daemonToken);
    const attach = await ops.call('release-attach-1', 'debugger.attach', { tabId: userTabId });
    const { sessionId } = attach.result as { sessionId: string };
    expect(await attached()).toBe(true);
    ops.close();

    const relay = await harness.restartRelay({
      async whileDown() {
        // kept for the grace (a relay back in time replays on it, see extension-faults), then let go
        await waitUntil(async () => !(await attached()), 30_000, 'the extension to detach after its grace');
        expect(await bookkeeping()).toEqual({ tabs: {}, children: {} });
        expect(await state()).not.toBe('disabled'); // still trying to reconnect
      },
    });
    await waitUntil(() => relay.status().extensionConnected, 15_000, 'the extension to reconnect');
    ops = await OpsClient.connect(relay.url, harness.daemonToken);
    try {
      const stale = await ops.call('release-stale', 'cdp.send', {
        sessionId,
        method: 'Runtime.evaluate',
        params: { expression: '1', returnByValue: true },
      });
      expect(stale).toMatchObject({ ok: false, error: { code: 'target_closed' } });
      const again = await ops.call('release-attach-2', 'debugger.attach', { tabId: userTabId });
      expect(again.ok).toBe(true);
      const { sessionId: fresh } = again.result as { sessionId: string };
      const hit = await ops.call('release-eval', 'cdp.send', {
        sessionId: fresh,
        method: 'Runtime.evaluate',
        params: { expression: '6 * 7', returnByValue: true },
      });
      expect((hit.result as { result: { result: { value: number } } }).result.result.value).toBe(42);
      await ops.call('release-detach', 'debugger.detach', { sessionId: fresh });
    } finally {
      ops.close();
    }
  });
});
