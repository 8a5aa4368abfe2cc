import { describe, expect, it } from 'vitest';
import { planScript } from './eval-script.js';

describe('planScript', () => {
  it('runs an expression, or statements ending in one, as a function (await and el work there)', () => {
    expect(planScript('document.title')).toEqual({ kind: 'function', fn: 'async () => (\ndocument.title\n)' });
    expect(planScript('el.value', true)).toEqual({ kind: 'function', fn: 'async (el) => (\nel.value\n)' });
    expect(planScript('const a = 2;\na * 3').kind).toBe('function');
    expect(planScript('const r = await fetch("/");\nr.status').kind).toBe('function');
  });

  it('calls a function given for an element with it; without an element, or beside other code, it is a value', () => {
    const calls = (js: string) => {
      const plan = planScript(js, true);
      return plan.kind === 'function' ? plan.fn : plan.script;
    };
    expect(calls('el => el.id')).toBe('async (el) => (\nel => el.id\n)(el)');
    for (const js of [
      'async (node) => node.id',
      '({ id }) => id',
      'function (node) { return node.id; }',
      'async function f(n) { return n; }',
    ])
      expect(calls(js), js).toMatch(/\n\)\(el\)$/);
    expect(planScript('el => el.id')).toEqual({ kind: 'function', fn: 'async () => (\nel => el.id\n)' });
    expect(calls('el.onclick')).toBe('async (el) => (\nel.onclick\n)');
    expect(calls('const f = (x) => x;\nf(el)')).not.toMatch(/\)\(el\)$/);
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
