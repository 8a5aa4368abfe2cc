import { describe, expect, it } from 'vitest';
import { WsCalls } from './ws-calls.js';

/** A stand-in for ws's WebSocket: opens on the next tick, records what is sent, answers when told. */
class FakeSocket {
  static made: FakeSocket[] = [];
  readyState = 0;
  readonly sent: Array<{ id: number; method: string; params: { path: string; input: unknown } }> = [];
  private readonly listeners = new Map<string, Array<(...args: unknown[]) => void>>();

  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {
    FakeSocket.made.push(this);
    setImmediate(() => {
      this.readyState = 1;
      this.emit('open');
    });
  }

  on(event: string, listener: (...args: unknown[]) => void): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }

  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }

  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }

  close(): void {
    this.readyState = 3;
    this.emit('close');
  }

  answer(id: number, data: unknown): void {
    this.emit('message', JSON.stringify({ id, result: { type: 'data', data } }));
  }
}

const code = (pending: Promise<unknown>) =>
  pending.then(
    () => 'ok',
    (error: { code?: string }) => error.code,
  );

describe('WsCalls', () => {
  it('sends nothing on a socket that is already closing: the call fails daemon_unreachable (safe to retry), and the next opens a new socket', async () => {
    FakeSocket.made = [];
    const calls = new WsCalls({ url: 'ws://127.0.0.1:1/trpc', token: 't', WebSocket: FakeSocket });
    const first = calls.call('tabs.list', 'query', {});
    await new Promise((resolve) => setImmediate(resolve));
    const [socket] = FakeSocket.made;
    expect(socket!.sent).toEqual([{ id: 1, method: 'query', params: { path: 'tabs.list', input: {} } }]);
    socket!.answer(1, { tabs: [] });
    expect(await first).toEqual({ tabs: [] });

    // the daemon began closing the socket; its close event has not come yet
    socket!.readyState = 2;
    expect(await code(calls.call('tabs.list', 'query', {}))).toBe('daemon_unreachable');
    expect(socket!.sent).toHaveLength(1);

    const third = calls.call('tabs.list', 'query', {});
    await new Promise((resolve) => setImmediate(resolve));
    expect(FakeSocket.made).toHaveLength(2);
    FakeSocket.made[1]!.answer(FakeSocket.made[1]!.sent[0]!.id, { tabs: [] });
    expect(await third).toEqual({ tabs: [] });
    calls.close();
  });

  it('fails the calls a socket closes under as daemon_lost (they were sent: they may have run)', async () => {
    FakeSocket.made = [];
    const calls = new WsCalls({ url: 'ws://127.0.0.1:1/trpc', token: 't', WebSocket: FakeSocket });
    const pending = code(calls.call('page.eval', 'mutation', { js: '1' }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(FakeSocket.made[0]!.sent).toHaveLength(1);
    FakeSocket.made[0]!.close();
    expect(await pending).toBe('daemon_lost');
    calls.close();
  });
});
