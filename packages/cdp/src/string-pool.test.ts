import { describe, expect, it } from 'vitest';
import { StringPool } from './string-pool.js';

describe('StringPool', () => {
  it('gives back an equal string and keeps one entry per distinct value', () => {
    const pool = new StringPool(8, 1_000, 64);
    const ua = 'Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/156';
    expect(pool.intern(ua)).toBe(ua);
    // a copy made as JSON.parse makes one: equal, and pooled once
    expect(pool.intern(JSON.parse(JSON.stringify(ua)) as string)).toBe(ua);
    expect(pool.pooled).toBe(1);
    expect(pool.pooledChars).toBe(ua.length);
  });

  it('leaves values past the length out and never holds more than its entries or characters', () => {
    const pool = new StringPool(4, 40, 16);
    expect(pool.intern('x'.repeat(17))).toBe('x'.repeat(17));
    expect(pool.pooled).toBe(0);
    for (let i = 0; i < 50; i += 1) {
      const value = `value ${i}`.padEnd(8 + (i % 8), '.');
      expect(pool.intern(value)).toBe(value);
      expect(pool.pooled).toBeLessThanOrEqual(4);
      expect(pool.pooledChars).toBeLessThanOrEqual(40);
    }
    expect(pool.pooled).toBeGreaterThan(0);
  });
});
