import { describe, expect, it } from 'vitest';
import { planScript } from './eval-script.js';

describe('planScript', () => {
  it('runs an expression, or statements ending in one, as a function (await and el work there)', () => {
    expect(planScript('document.title')).toEqual({ kind: 'function', fn: 'async () => (\ndocument.title\n)' });
    expect(planScript('el.value', true)).toEqual({ kind: 'function', fn: 'async (el) => (\nel.value\n)' });
    expect(planScript('const a = 2;\na * 3').kind).toBe('function');
    expect(planScript('const r = await fetch("/");\nr.status').kind).toBe('function');
  });

  it('runs other statements as a block-scoped script, for their completion value', () => {
    expect(planScript('if (true) { 7 } else { 8 }')).toEqual({
      kind: 'script',
      script: '{\nif (true) { 7 } else { 8 }\n}',
    });
  });

  it('keeps the function form for await, return, or an element passed as el', () => {
    expect(planScript('if (x) { await y() }').kind).toBe('function');
    expect(planScript('if (x) { return 1 }').kind).toBe('function');
    expect(planScript('if (el) { 7 }', true).kind).toBe('function');
  });

  it('refuses an empty script', () => {
    expect(() => planScript('  ')).toThrow(/empty/);
  });
});
