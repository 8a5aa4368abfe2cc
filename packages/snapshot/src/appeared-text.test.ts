import { describe, expect, it } from 'vitest';
import { appearedText, pageTexts } from './appeared-text.js';
import type { WalkNode } from './walker-types.js';

const root = (...c: Array<WalkNode | string>): WalkNode => ({ r: 'root', c });
const lines = (before: WalkNode, after: WalkNode, units: string[] = []) =>
  appearedText(new Set(pageTexts(before)), pageTexts(after), units).map((line) => `${line.op} ${line.line}`);

describe('pageTexts', () => {
  it('keeps text runs, headings and text rows; leaves out controls, live regions, group labels and images', () => {
    const tree = root(
      { r: 'heading', n: 'Order placed', s: ['level=1'] },
      'Thanks  for\nyour order',
      { r: 'button', n: 'Track it', i: 1, id: 1, ref: 'e1', c: ['Track it'] },
      { r: 'clickable', i: 1, id: 2, ref: 'e2', c: ['A whole clickable card'] },
      { r: 'status', c: ['Saved'] },
      { r: 'text', n: 'May 2026' },
      { r: 'img', n: 'A photo' },
      {
        r: 'row',
        c: [
          { r: 'cell', c: ['Mug'] },
          { r: 'cell', c: ['$12'] },
        ],
      },
      ' · ',
    );
    expect(pageTexts(tree)).toEqual(['Order placed', 'Thanks for your order', 'Mug | $12']);
  });

  it('with a modal dialog open, only its text (as -i shows only it)', () => {
    const tree = root('Behind the dialog', {
      r: 'dialog',
      n: 'Delete?',
      s: ['modal'],
      c: ['This cannot be undone.', { r: 'button', n: 'Delete', i: 1, id: 1, ref: 'e1' }],
    });
    expect(pageTexts(tree)).toEqual(['This cannot be undone.']);
  });

  it("a frame's document text is the page's, also in a frame with a ref", () => {
    const tree = root({ r: 'iframe', f: 0, i: 1, id: 1, ref: 'e1', c: ['Inside the frame'] });
    expect(pageTexts(tree)).toEqual(['Inside the frame']);
  });
});

describe('appearedText', () => {
  it('text that was nowhere before, once; text moved or re-rendered says nothing', () => {
    const before = root('Apples', 'Pears');
    const after = root('Pears', 'Apples', 'Saved!', { r: 'generic', c: ['Saved!'] });
    expect(lines(before, after)).toEqual(['+ text: Saved!']);
  });

  it('what -i prints already is not said twice: a text line, a heading (cut or not)', () => {
    const after = root(
      { r: 'heading', n: 'Your order has been placed and is on its way' },
      'May 2026',
      'Order 42 confirmed',
    );
    const units = [' heading "Your order has been…"', ' text: May 2026'];
    expect(lines(root(), after, units)).toEqual(['+ text: Order 42 confirmed']);
  });

  it('short texts first, each cut at a word; at most three, then how many more', () => {
    const long = `A long paragraph of loaded content ${'that goes on '.repeat(8)}`.trim();
    const after = root(long, 'Saved!', ...Array.from({ length: 10_000 }, (_, n) => `Row ${n}`));
    const out = lines(root(), after);
    expect(out).toEqual(['+ text: Saved!', '+ text: Row 0', '+ text: Row 1', '+ (9999 more new texts)']);
    const cut = lines(root(), root(long));
    expect(cut[0]!.length).toBeLessThanOrEqual('+ text: '.length + 100);
    expect(cut[0]).toMatch(/…$/);
  });
});
