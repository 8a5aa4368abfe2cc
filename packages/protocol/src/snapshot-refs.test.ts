import { describe, expect, it } from 'vitest';
import { findRef, refsIn, refsInLine } from './snapshot-refs.js';

describe('snapshot refs', () => {
  it('reads every ref of a line, runs and frame refs included', () => {
    expect(refsInLine('link "Home" e1 "News" e2 (icon: search) f2e13').map((token) => token.ref)).toEqual([
      'e1',
      'e2',
      'f2e13',
    ]);
    expect(refsInLine('  button "Menu" [expanded=false] e4')).toEqual([{ ref: 'e4', index: 33 }]);
  });

  it('ignores look-alikes in names, hints, values and text', () => {
    expect(refsInLine('button "e9" e3')).toEqual([{ ref: 'e3', index: 12 }]);
    expect(refsInLine('link "say \\"e9\\" now" e4').map((token) => token.ref)).toEqual(['e4']);
    expect(refsInLine('button (title: e9) e5').map((token) => token.ref)).toEqual(['e5']);
    expect(refsInLine('textbox "Code" [required] e6: e7 e8').map((token) => token.ref)).toEqual(['e6']);
    expect(refsInLine('text: click e9')).toEqual([]);
    expect(refsInLine('row: e1 | e2')).toEqual([]);
    expect(refsInLine('heading "Menu e1"')).toEqual([]);
    expect(refsInLine('link "x" e1x e2')).toEqual([{ ref: 'e2', index: 13 }]);
  });

  it('finds the ref of an element by pattern or exact name', () => {
    const text = 'navigation\n link "Home" e1 "News" e2\ntextbox "Name" e3: News\nbutton "Say \\"hi\\"" e4';
    expect(findRef(text, /"News"/)).toBe('e2');
    expect(findRef(text, 'News')).toBe('e2');
    expect(findRef(text, /textbox/)).toBe('e3');
    expect(findRef(text, 'Say "hi"')).toBe('e4');
    expect(findRef(text, 'Missing')).toBeUndefined();
    // a heading of the same name has no ref: the element's own line is found
    expect(findRef('heading "Sign up"\nform\n button "Sign up" e10', 'Sign up')).toBe('e10');
    expect(findRef('heading "Sign up"\nform\n button "Sign up" e10', /"Sign up"/)).toBe('e10');
    expect(refsIn(text)).toEqual(['e1', 'e2', 'e3', 'e4']);
    // an element's states stand between its name and its ref
    const run = 'button "Before" e1 "Details" [expanded=false] e2 "After" e3\ncheckbox "Terms" [checked] [required] e4';
    expect(findRef(run, 'Details')).toBe('e2');
    expect(findRef(run, 'After')).toBe('e3');
    expect(findRef(run, 'Terms')).toBe('e4');
    expect(findRef('heading "Terms" [level=2]\nlink "Terms" e5', 'Terms')).toBe('e5');
  });
});
