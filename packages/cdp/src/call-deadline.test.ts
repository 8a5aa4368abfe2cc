import { describe, expect, it } from 'vitest';
import { CdpTimeoutError, PageUnresponsiveError } from './call-deadline.js';
import { CommandCancelledError, runInCommandScope } from './command-scope.js';
import { Session } from './session.js';
import type { CdpEvent, Transport } from './transport.js';

/** A transport whose answers the test controls: methods in `silent` never answer. */
class ScriptedTransport implements Transport {
  closed = false;
  readonly sent: string[] = [];
  constructor(private readonly silent: Set<string>) {}
  send(method: string): Promise<unknown> {
    this.sent.push(method);
    return this.silent.has(method) ? new Promise(() => {}) : Promise.resolve({});
  }
  onEvent(_listener: (event: CdpEvent) => void) {
    return () => {};
  }
  onClose(_listener: (reason: string) => void) {
    return () => {};
  }
  async close() {}
}

const timing = { callTimeoutMs: 400, probeAfterMs: 30, probeTimeoutMs: 60 };

describe('CDP call deadlines and page liveness', () => {
  it('a page whose main thread never answers fails pending and new calls with PageUnresponsiveError', async () => {
    const transport = new ScriptedTransport(new Set(['DOM.getDocument', 'Runtime.evaluate']));
    const session = new Session(transport, 'S1', 'T1', 'page', timing);
    await expect(session.send('DOM.getDocument')).rejects.toBeInstanceOf(PageUnresponsiveError);
    expect(session.unresponsive).toBe(true);
    const sentBefore = transport.sent.length;
    await expect(session.send('DOM.getDocument')).rejects.toBeInstanceOf(PageUnresponsiveError);
    expect(transport.sent.length).toBe(sentBefore); // refused without sending
    // calls the browser answers off the page's main thread still go through
    await expect(session.send('Runtime.terminateExecution')).resolves.toEqual({});
    // the navigation guard continues the load that replaces the stuck page (Fetch is browser-side)
    await expect(session.send('Fetch.continueRequest', { requestId: 'r1' })).resolves.toEqual({});
  });

  it('a slow call on a page that answers its probe waits until its own deadline', async () => {
    const transport = new ScriptedTransport(new Set(['DOM.getDocument']));
    const session = new Session(transport, 'S1', 'T1', 'page', timing);
    await expect(session.send('DOM.getDocument')).rejects.toBeInstanceOf(CdpTimeoutError);
    expect(session.unresponsive).toBe(false);
    expect(transport.sent.filter((method) => method === 'Runtime.evaluate').length).toBeGreaterThan(0);
  });

  it("a command's deadline and its caller's abort bound every call made for it", async () => {
    const transport = new ScriptedTransport(new Set(['Page.navigate']));
    const session = new Session(transport, 'S1', 'T1', 'page', { ...timing, callTimeoutMs: 60_000 });
    await expect(
      runInCommandScope({ timeoutMs: 50 }, () => session.send('Page.navigate', { url: 'http://x' })),
    ).rejects.toBeInstanceOf(CdpTimeoutError);
    const controller = new AbortController();
    const pending = runInCommandScope({ signal: controller.signal }, () =>
      session.send('Page.navigate', { url: 'http://x' }),
    );
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(CommandCancelledError);
    // once a command has returned, its scope binds nothing: a late callback is not cancelled with it
    let later: Promise<unknown> | undefined;
    await runInCommandScope({ signal: AbortSignal.abort() }, async () => {
      later = new Promise((resolve) => setTimeout(resolve, 10)).then(() => session.send('Page.getNavigationHistory'));
    }).catch(() => undefined);
    await expect(later).resolves.toEqual({});
  });
});
