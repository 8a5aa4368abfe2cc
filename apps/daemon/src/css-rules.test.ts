import { describe, expect, it } from 'vitest';
import { specificity } from './css-rules.js';

describe('specificity (fallback when Chrome does not report it)', () => {
  it.each([
    ['p', [0, 0, 1]],
    ['.note', [0, 1, 0]],
    ['#main .note', [1, 1, 0]],
    ['p.note[data-kind="tip"]', [0, 2, 1]],
    ['ul > li:first-child::before', [0, 1, 3]],
    ['a:hover', [0, 1, 1]],
    [':where(#x) p', [0, 0, 1]],
    [':is(#x, .y) p', [1, 0, 1]],
    [':not(.a.b) div', [0, 2, 1]],
    ['*', [0, 0, 0]],
  ] as const)('%s -> %j', (selector, expected) => {
    expect(specificity(selector)).toEqual(expected);
  });
});
