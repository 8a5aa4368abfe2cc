import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.js';
import { IdempotencyCache } from './idempotency.js';
import { OutboundQueue } from './outbound-queue.js';

describe('backoffDelay', () => {
  it('grows exponentially, is bounded, and is jittered within [d/2, d]', () => {
    expect(backoffDelay(0, { random: () => 0 })).toBe(125);
    expect(backoffDelay(0, { random: () => 1 })).toBe(250);
    expect(backoffDelay(3, { random: () => 1 })).toBe(2000);
    expect(backoffDelay(50, { random: () => 1 })).toBe(5000);
    expect(backoffDelay(50, { random: () => 0 })).toBe(2500);
  });
});

describe('OutboundQueue', () => {
  it('drops events before results when full, and events on reconnect', () => {
    const queue = new OutboundQueue(3);
    queue.push('result', 'r1');
    queue.push('event', 'e1');
    queue.push('result', 'r2');
    queue.push('result', 'r3');
    expect(queue.drain()).toEqual(['r1', 'r2', 'r3']);
    queue.push('event', 'e2');
    queue.push('result', 'r4');
    queue.dropEvents();
    expect(queue.drain()).toEqual(['r4']);
  });
});

describe('IdempotencyCache', () => {
  it('runs a key once, waits on a running replay, answers a finished one from cache', () => {
    const cache = new IdempotencyCache();
    expect(cache.admit('k')).toEqual({ action: 'run' });
    expect(cache.admit('k')).toEqual({ action: 'wait' });
    const frame = { version: 1, type: 'result', id: 'k', ok: true, result: 42 } as const;
    cache.complete(frame);
    expect(cache.admit('k')).toEqual({ action: 'replay', frame });
    expect(cache.admit('other')).toEqual({ action: 'run' });
    expect(cache.abandonRunning()).toEqual(['other']);
  });
});
