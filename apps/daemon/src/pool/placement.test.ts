import { describe, expect, it } from 'vitest';
import { choosePlacement, displayUrl } from './placement.js';

describe('choosePlacement', () => {
  it('takes the least loaded endpoint with a free slot, never a down or full one', () => {
    const slots = [
      { health: 'healthy', load: 2, max: 2 },
      { health: 'down', load: 0, max: 4 },
      { health: 'healthy', load: 1, max: 4 },
      { health: 'healthy', load: 0, max: 4 },
    ] as const;
    expect(choosePlacement(slots)).toBe(3);
    expect(choosePlacement(slots, new Set([3]))).toBe(2);
    expect(choosePlacement(slots, new Set([2, 3]))).toBeUndefined();
  });

  it('prefers an endpoint that answered over an unchecked one at the same load, else the earlier one', () => {
    expect(
      choosePlacement([
        { health: 'unchecked', load: 0, max: 1 },
        { health: 'healthy', load: 0, max: 1 },
      ]),
    ).toBe(1);
    expect(
      choosePlacement([
        { health: 'healthy', load: 1, max: 3 },
        { health: 'healthy', load: 1, max: 3 },
      ]),
    ).toBe(0);
  });
});

describe('displayUrl', () => {
  it('masks query-string tokens and passwords', () => {
    expect(displayUrl('ws://grid:3000/chromium?token=s3cret&x=1')).toBe('ws://grid:3000/chromium?token=***&x=***');
    expect(displayUrl('http://user:pw@host:9222/')).toBe('http://user:***@host:9222/');
    expect(displayUrl('http://127.0.0.1:9222')).toBe('http://127.0.0.1:9222/');
  });
});
