import { describe, expect, it } from 'vitest';
import { RingBuffer } from './ring-buffer.js';

describe('RingBuffer', () => {
  it('keeps the newest entries with sequence numbers', () => {
    const ring = new RingBuffer<string>(3);
    for (const item of ['a', 'b', 'c', 'd', 'e']) ring.push(item);
    expect(ring.size).toBe(3);
    expect(ring.dropped).toBe(2);
    expect(ring.entries()).toEqual([
      { seq: 3, item: 'c' },
      { seq: 4, item: 'd' },
      { seq: 5, item: 'e' },
    ]);
    expect(ring.entries(5)).toEqual([{ seq: 5, item: 'e' }]);
    expect(ring.entries(99)).toEqual([]);
    expect(ring.seq).toBe(6);
  });
  it('clears without resetting sequence numbers', () => {
    const ring = new RingBuffer<number>(2);
    ring.push(1);
    ring.clear();
    expect(ring.entries()).toEqual([]);
    expect(ring.push(2)).toBe(2);
    expect(ring.entries()).toEqual([{ seq: 2, item: 2 }]);
  });
  it('rejects a bad capacity', () => {
    expect(() => new RingBuffer(0)).toThrow(RangeError);
  });
});

describe('RingBuffer.at', () => {
  it('finds an entry by sequence number while it is still buffered', () => {
    const ring = new RingBuffer<string>(2);
    for (const item of ['a', 'b', 'c']) ring.push(item);
    expect(ring.at(1)).toBeUndefined();
    expect(ring.at(2)).toBe('b');
    expect(ring.at(3)).toBe('c');
    expect(ring.at(4)).toBeUndefined();
    expect(ring.at(2.5)).toBeUndefined();
  });
});
