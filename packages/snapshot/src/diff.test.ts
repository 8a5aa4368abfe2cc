import { describe, expect, it } from 'vitest';
import { diffLines, renderDiff } from './diff.js';

describe('diffLines', () => {
  it('reports added, removed and changed-in-place lines', () => {
    const before = ['main', '  button "Menu" [expanded=false] e1', '  text: Hello', '  link "Old" e2'];
    const after = ['main', '  button "Menu" [expanded] e1', '  text: Hello', '  link "New" e3', '  text: Added'];
    expect(diffLines(before, after)).toEqual([
      { op: '~', line: 'button "Menu" [expanded] e1' },
      { op: '-', line: 'link "Old" e2' },
      { op: '+', line: 'link "New" e3' },
      { op: '+', line: 'text: Added' },
    ]);
  });

  it('finds a minimal script on longer inputs', () => {
    const before = Array.from({ length: 500 }, (_, i) => `line ${i}`);
    const after = before.filter((_, i) => i % 100 !== 0).concat(['tail']);
    const diff = diffLines(before, after);
    expect(diff.filter((d) => d.op === '-')).toHaveLength(5);
    expect(diff.filter((d) => d.op === '+')).toEqual([{ op: '+', line: 'tail' }]);
  });

  it('says so when nothing changed', () => {
    expect(renderDiff(diffLines(['a', 'b'], ['a', 'b']))).toMatch(/no changes/);
    expect(diffLines([], ['x'])).toEqual([{ op: '+', line: 'x' }]);
    expect(diffLines(['x'], [])).toEqual([{ op: '-', line: 'x' }]);
  });
});
