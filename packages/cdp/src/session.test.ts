import { describe, expect, it } from 'vitest';
import { SessionRouter, WaitTimeoutError } from './session.js';
import { type CdpEvent, TargetGoneError, type Transport, TransportClosedError } from './transport.js';

class FakeTransport implements Transport {
  closed = false;
  sent: Array<{ method: string; sessionId: string | undefined }> = [];
  private events = new Set<(event: CdpEvent) => void>();
  private closes = new Set<(reason: string) => void>();
  async send(method: string, _params: object | undefined, sessionId: string | undefined) {
    this.sent.push({ method, sessionId });
    return {};
  }
  onEvent(listener: (event: CdpEvent) => void) {
    this.events.add(listener);
    return () => this.events.delete(listener);
  }
  onClose(listener: (reason: string) => void) {
    this.closes.add(listener);
    return () => this.closes.delete(listener);
  }
  emit(event: CdpEvent) {
    for (const listener of this.events) listener(event);
  }
  async close() {
    this.closed = true;
    for (const listener of this.closes) listener('closed');
  }
}

describe('SessionRouter', () => {
  it('adopts attached sessions before their first event and routes by sessionId', async () => {
    const transport = new FakeTransport();
    const router = new SessionRouter(transport);
    const seen: string[] = [];
    router.root.on('Target.attachedToTarget', (event) => {
      router.get(event.sessionId)?.on('Page.loadEventFired', () => seen.push(`load:${event.sessionId}`));
    });
    transport.emit({
      method: 'Target.attachedToTarget',
      params: { sessionId: 'S1', targetInfo: { targetId: 'T1', type: 'page' } },
    });
    transport.emit({ method: 'Page.loadEventFired', params: {}, sessionId: 'S1' });
    transport.emit({ method: 'Page.loadEventFired', params: {}, sessionId: 'S2' });
    expect(seen).toEqual(['load:S1']);
    await router.get('S1')?.send('Runtime.enable');
    expect(transport.sent).toEqual([{ method: 'Runtime.enable', sessionId: 'S1' }]);
  });

  it('marks sessions detached and rejects their waits and sends', async () => {
    const transport = new FakeTransport();
    const router = new SessionRouter(transport);
    transport.emit({
      method: 'Target.attachedToTarget',
      params: { sessionId: 'S1', targetInfo: { targetId: 'T1', type: 'page' } },
    });
    const session = router.get('S1')!;
    const waiting = session.waitFor('Page.loadEventFired');
    transport.emit({ method: 'Target.detachedFromTarget', params: { sessionId: 'S1' } });
    await expect(waiting).rejects.toBeInstanceOf(TransportClosedError);
    await expect(session.send('Runtime.enable')).rejects.toBeInstanceOf(TransportClosedError);
    expect(router.get('S1')).toBeUndefined();
  });

  it('fails the calls and waits still pending when their session detaches (Chrome never answers them)', async () => {
    const transport = new FakeTransport();
    transport.send = (method: string, _params: object | undefined, sessionId: string | undefined) => {
      transport.sent.push({ method, sessionId });
      return new Promise(() => {});
    };
    const router = new SessionRouter(transport);
    transport.emit({
      method: 'Target.attachedToTarget',
      params: { sessionId: 'S1', targetInfo: { targetId: 'T1', type: 'iframe' } },
    });
    const session = router.get('S1')!;
    const call = session.send('Runtime.evaluate', { expression: '0' });
    const waited = session.guard(new Promise(() => {}), 'the load');
    transport.emit({ method: 'Target.detachedFromTarget', params: { sessionId: 'S1' } });
    await expect(call).rejects.toThrow(new TargetGoneError('Runtime.evaluate', 'iframe'));
    await expect(waited).rejects.toThrow(new TargetGoneError('the load', 'iframe'));
  });

  it('times out waits and honours predicates', async () => {
    const transport = new FakeTransport();
    const router = new SessionRouter(transport);
    await expect(router.root.waitFor('Page.loadEventFired', { timeoutMs: 10 })).rejects.toBeInstanceOf(
      WaitTimeoutError,
    );
    const matched = router.root.waitFor('Page.lifecycleEvent', { predicate: (event) => event.name === 'load' });
    transport.emit({ method: 'Page.lifecycleEvent', params: { name: 'init' } });
    transport.emit({ method: 'Page.lifecycleEvent', params: { name: 'load' } });
    await expect(matched).resolves.toMatchObject({ name: 'load' });
  });

  it('detaches everything when the transport closes', async () => {
    const transport = new FakeTransport();
    const router = new SessionRouter(transport);
    transport.emit({
      method: 'Target.attachedToTarget',
      params: { sessionId: 'S1', targetInfo: { targetId: 'T1', type: 'page' } },
    });
    const session = router.get('S1')!;
    await transport.close();
    expect(session.isDetached).toBe(true);
    expect(router.root.isDetached).toBe(true);
  });
});
