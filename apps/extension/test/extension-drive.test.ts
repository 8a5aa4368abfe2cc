import type { Transport } from '@argus/cdp';
import { startFixtureServer, type FixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argusChromeProcesses } from './helpers/chromium.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { evaluate, nextEvent } from './helpers/transport-events.js';

/** Drives a user's tab through RelayServer.transport() exactly as the daemon's cdp layer would. */
describe('extension mode: driving a user tab through the relay', () => {
  let fixtures: FixtureServer;
  /** another site (localhost vs 127.0.0.1), so its frame runs out of process */
  let crossSite: FixtureServer;
  let harness: Harness;
  let transport: Transport;
  let userTargetId: string;
  let sessionId: string;

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    crossSite = await startFixtureServer({ hostname: 'localhost' });
    harness = await startHarness();
    // the "user" opens a tab through their own browser (here: the test's own CDP connection)
    ({ targetId: userTargetId } = await harness.browser.send('Target.createTarget', {
      url: fixtures.urlFor('/buttons.html'),
    }));
    transport = harness.relay.transport();
  });

  afterAll(async () => {
    await transport?.close();
    const userDataDir = harness?.chromium.userDataDir;
    await harness?.close();
    await fixtures?.close();
    await crossSite?.close();
    // nothing of the browser may outlive the suite
    if (userDataDir) expect(argusChromeProcesses(userDataDir)).toEqual([]);
  });

  it('lists the tab the user opened and announces it when discovery is on', async () => {
    const { targetInfos } = (await transport.send('Target.getTargets', {}, undefined)) as {
      targetInfos: Array<{ targetId: string; url: string; type: string }>;
    };
    expect(targetInfos.map((t) => t.targetId)).toContain(userTargetId);
    expect(targetInfos.every((t) => t.type === 'page')).toBe(true);
    const created = nextEvent(
      transport,
      'Target.targetCreated',
      (e) => (e.params as { targetInfo: { targetId: string } }).targetInfo.targetId === userTargetId,
    );
    await transport.send('Target.setDiscoverTargets', { discover: true }, undefined);
    await created;
    const version = (await transport.send('Browser.getVersion', {}, undefined)) as { product: string };
    expect(version.product).toMatch(/Chrom/);
  });

  it('attaches to the user tab on demand and evaluates in it', async () => {
    const attached = nextEvent(transport, 'Target.attachedToTarget');
    ({ sessionId } = (await transport.send(
      'Target.attachToTarget',
      { targetId: userTargetId, flatten: true },
      undefined,
    )) as { sessionId: string });
    const event = await attached;
    expect(event.params).toMatchObject({
      sessionId,
      targetInfo: { targetId: userTargetId, type: 'page' },
      waitingForDebugger: false,
    });
    await transport.send('Page.enable', {}, sessionId);
    await transport.send('Runtime.enable', {}, sessionId);
    expect(await evaluate(transport, sessionId, '1 + 1')).toBe(2);
  });

  it('navigates, clicks with real input events and reads the changed text', async () => {
    const loaded = nextEvent(transport, 'Page.loadEventFired', (e) => e.sessionId === sessionId);
    await transport.send('Page.navigate', { url: fixtures.urlFor('/buttons.html') }, sessionId);
    await loaded;
    expect(await evaluate(transport, sessionId, `document.getElementById('count').textContent`)).toBe('Count: 0');
    const box = (await evaluate(
      transport,
      sessionId,
      `(() => { const r = document.getElementById('increment').getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()`,
    )) as { x: number; y: number };
    for (const type of ['mousePressed', 'mouseReleased']) {
      await transport.send(
        'Input.dispatchMouseEvent',
        { type, x: box.x, y: box.y, button: 'left', clickCount: 1 },
        sessionId,
      );
    }
    expect(await evaluate(transport, sessionId, `document.getElementById('count').textContent`)).toBe('Count: 1');
  });

  it('captures a screenshot', async () => {
    const { data } = (await transport.send('Page.captureScreenshot', { format: 'png' }, sessionId)) as { data: string };
    expect(Buffer.from(data, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });

  it('delivers console events on the page session', async () => {
    const logged = nextEvent(transport, 'Runtime.consoleAPICalled', (e) => e.sessionId === sessionId);
    await evaluate(transport, sessionId, `console.log('hello-from-page'), 0`);
    const event = await logged;
    expect((event.params as { args: Array<{ value?: unknown }> }).args[0]?.value).toBe('hello-from-page');
  });

  it('auto-attaches a cross-origin iframe (OOPIF) as a flat child session and evaluates in it', async () => {
    await transport.send(
      'Target.setAutoAttach',
      { autoAttach: true, waitForDebuggerOnStart: true, flatten: true },
      sessionId,
    );
    const child = nextEvent(
      transport,
      'Target.attachedToTarget',
      (e) => e.sessionId === sessionId && (e.params as { targetInfo: { type: string } }).targetInfo.type === 'iframe',
    );
    await transport.send(
      'Page.navigate',
      { url: fixtures.urlFor(`/frames.html?xorigin=${encodeURIComponent(crossSite.urlFor('/frame-child.html'))}`) },
      sessionId,
    );
    const { sessionId: childId } = (await child).params as { sessionId: string };
    await transport.send('Runtime.runIfWaitingForDebugger', {}, childId);
    let text: unknown;
    for (let i = 0; i < 50 && text !== 'Child button'; i++) {
      text = await evaluate(transport, childId, `document.getElementById('child-button')?.textContent ?? null`).catch(
        () => null,
      );
      if (text !== 'Child button') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(text).toBe('Child button');
    expect(await evaluate(transport, childId, 'location.origin')).toBe(crossSite.origin);
  });

  it('auto-attaches and closes a tab the agent opened, but refuses to close the user tab', async () => {
    await transport.send(
      'Target.setAutoAttach',
      { autoAttach: true, waitForDebuggerOnStart: false, flatten: true },
      undefined,
    );
    const attached = nextEvent(
      transport,
      'Target.attachedToTarget',
      (e) =>
        e.sessionId === undefined &&
        (e.params as { targetInfo: { url: string } }).targetInfo.url.includes('/frame-child'),
    );
    const { targetId } = (await transport.send(
      'Target.createTarget',
      { url: fixtures.urlFor('/frame-child.html') },
      undefined,
    )) as { targetId: string };
    const { sessionId: agentSession } = (await attached).params as { sessionId: string };
    expect(await evaluate(transport, agentSession, '40 + 2')).toBe(42);
    const { targetInfos } = (await transport.send('Target.getTargets', {}, undefined)) as {
      targetInfos: Array<{ targetId: string }>;
    };
    expect(targetInfos.map((t) => t.targetId)).toContain(targetId);

    const detached = nextEvent(
      transport,
      'Target.detachedFromTarget',
      (e) => (e.params as { sessionId: string }).sessionId === agentSession,
    );
    await transport.send('Target.closeTarget', { targetId }, undefined);
    await detached;
    await expect(transport.send('Target.closeTarget', { targetId: userTargetId }, undefined)).rejects.toMatchObject({
      code: 'forbidden_scope',
    });
    await transport.send(
      'Target.setAutoAttach',
      { autoAttach: false, waitForDebuggerOnStart: false, flatten: true },
      undefined,
    );
  });

  it('reports an unsupported root method with a clear error', async () => {
    await expect(transport.send('Storage.getCookies', {}, undefined)).rejects.toMatchObject({ code: 'unsupported' });
    await expect(transport.send('Nope.nothing', {}, sessionId)).rejects.toThrow(/wasn't found|not found/i);
  });

  it('emits detachedFromTarget when the user closes the tab', async () => {
    const detached = nextEvent(
      transport,
      'Target.detachedFromTarget',
      (e) => (e.params as { sessionId: string }).sessionId === sessionId,
    );
    const destroyed = nextEvent(
      transport,
      'Target.targetDestroyed',
      (e) => (e.params as { targetId: string }).targetId === userTargetId,
    );
    await harness.browser.send('Target.closeTarget', { targetId: userTargetId });
    await Promise.all([detached, destroyed]);
    await expect(transport.send('Runtime.evaluate', { expression: '1' }, sessionId)).rejects.toMatchObject({
      code: 'target_closed',
    });
  });
});
