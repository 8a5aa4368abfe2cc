import { refsIn } from '@argus/protocol/snapshot-refs';
import { describe, expect, it } from 'vitest';
import { formatSnapshot, formatTree, nodeLine } from './format.js';
import type { WalkNode } from './walker-types.js';

const tree: WalkNode = {
  r: 'root',
  c: [
    { r: 'banner', c: [{ r: 'link', n: 'Home', ref: 'e1', i: 1 }] },
    {
      r: 'main',
      c: [
        { r: 'heading', n: 'Orders', s: ['level=1'] },
        'Your recent orders are listed below.',
        {
          r: 'list',
          c: [
            { r: 'listitem', c: [{ r: 'link', n: 'Order 1', ref: 'e2', i: 1 }] },
            { r: 'listitem', c: ['Plain item'] },
          ],
        },
        {
          r: 'table',
          n: 'Items',
          c: [
            {
              r: 'row',
              c: [
                { r: 'columnheader', n: 'Name' },
                { r: 'columnheader', n: 'Price' },
              ],
            },
            {
              r: 'row',
              c: [
                { r: 'cell', c: ['Tea'] },
                { r: 'cell', c: ['3 €'] },
              ],
            },
            {
              r: 'row',
              c: [
                { r: 'cell', c: ['Cake'] },
                { r: 'cell', c: [{ r: 'button', n: 'Remove', ref: 'e3', i: 1 }] },
              ],
            },
          ],
        },
        { r: 'textbox', n: 'Search', ref: 'e4', i: 1, s: ['required'], v: 'tea' },
        { r: 'button', h: 'icon: reply', ref: 'e5', i: 1 },
        { r: 'heading', n: 'Nothing to do here', s: ['level=2'] },
        'Just text.',
      ],
    },
  ],
};

describe('nodeLine', () => {
  it('renders role, quoted name, states, ref and value: the ref closes the element', () => {
    expect(nodeLine({ r: 'checkbox', n: 'Say "hi"', ref: 'e7', s: ['checked', 'disabled'] })).toBe(
      'checkbox "Say \\"hi\\"" [checked] [disabled] e7',
    );
    expect(nodeLine({ r: 'textbox', n: 'Email', ref: 'f2e9', v: 'a@b.c' })).toBe('textbox "Email" f2e9: a@b.c');
    expect(nodeLine({ r: 'button', h: 'icon: reply', ref: 'e1' })).toBe('button (icon: reply) e1');
    // a state is page text only in aria-current: it cannot plant a ref before the element's own
    const line = nodeLine({ r: 'link', n: 'Home', ref: 'e3', s: ['current=x e9 (y)'] });
    expect(line).toBe('link "Home" [current=xe9y] e3');
    expect(refsIn(line)).toEqual(['e3']);
  });
});

describe('interactive mode: repeated links, live regions', () => {
  it('leaves out a link the walker marked as repeating one of its card (WalkNode.d), nothing else', () => {
    const page: WalkNode = {
      r: 'root',
      c: [
        {
          r: 'listitem',
          c: [
            { r: 'heading', n: 'Whale rescue', s: ['level=3'], c: [{ r: 'link', n: 'Whale rescue', ref: 'e1', i: 1 }] },
            'A whale in a loch.',
            { r: 'link', n: 'Whale rescue', ref: 'e2', i: 1, d: 1 },
          ],
        },
        { r: 'listitem', c: [{ r: 'link', n: 'Whale rescue', ref: 'e3', i: 1 }] },
      ],
    };
    expect(formatTree(page, { interactive: true })).toEqual(['link "Whale rescue" e1 "Whale rescue" e3']);
    expect(refsIn(formatTree(page).join('\n'))).toEqual(['e1', 'e2', 'e3']);
  });

  it('prints what status, alert and log regions say, cut, at most five, and keeps the controls in them', () => {
    const long = Array.from({ length: 40 }, (_, i) => `entry ${i}`).join(' ');
    const page: WalkNode = {
      r: 'root',
      c: [
        { r: 'form', c: [{ r: 'status', c: ['Saved'] }] },
        { r: 'alert', c: ['Could not send.', { r: 'button', n: 'Retry', ref: 'e1', i: 1 }] },
        { r: 'status', c: [] },
        { r: 'log', c: [long] },
        { r: 'status', c: [long] },
        ...['a', 'b', 'c'].map((text): WalkNode => ({ r: 'status', c: [text] })),
      ],
    };
    const lines = formatTree(page, { interactive: true });
    expect(lines).toEqual([
      'form',
      ' status: Saved',
      'alert: Could not send.',
      'button "Retry" e1',
      expect.stringMatching(/^log: …entry \d+ .* entry 39$/),
      expect.stringMatching(/^status: entry 0 entry 1 .*…$/),
      'status: a',
    ]);
    for (const line of lines) expect(line.length).toBeLessThan(110);
  });
});

describe('formatTree', () => {
  it('default mode: structure, merged text, collapsed wrappers, compact rows', () => {
    expect(formatTree(tree).join('\n')).toBe(
      [
        'banner',
        '  link "Home" e1',
        'main',
        '  heading "Orders" [level=1]',
        '  text: Your recent orders are listed below.',
        '  link "Order 1" e2',
        '  listitem: Plain item',
        '  table "Items"',
        '    row: Name | Price',
        '    row: Tea | 3 €',
        '    row',
        '      cell: Cake',
        '      button "Remove" e3',
        '  textbox "Search" [required] e4: tea',
        '  button (icon: reply) e5',
        '  heading "Nothing to do here" [level=2]',
        '  text: Just text.',
      ].join('\n'),
    );
  });

  it('interactive mode: controls with landmark, heading and table-header context only', () => {
    expect(formatTree(tree, { interactive: true }).join('\n')).toBe(
      [
        'banner',
        ' link "Home" e1',
        'main',
        ' heading "Orders"',
        ' link "Order 1" e2',
        ' table "Items"',
        '  row: Name | Price',
        '  button "Remove" e3',
        ' textbox "Search" [required] e4: tea',
        ' button (icon: reply) e5',
      ].join('\n'),
    );
  });

  it('depth limits indentation levels', () => {
    expect(formatTree(tree, { depth: 0 })).toEqual(['banner', 'main']);
    expect(formatTree(tree, { interactive: true, depth: 0 })).toEqual(['banner', 'main']);
  });

  it('labels composite widgets with their short text in interactive mode', () => {
    const picker: WalkNode = {
      r: 'root',
      c: [
        {
          r: 'dialog',
          n: 'Choose date',
          c: [
            { r: 'button', n: 'Previous month', ref: 'e1', i: 1 },
            'March 2024',
            { r: 'button', n: '1', ref: 'e2', i: 1 },
          ],
        },
      ],
    };
    expect(formatTree(picker, { interactive: true })).toEqual([
      'dialog "Choose date"',
      ' button "Previous month" e1',
      ' text: March 2024',
      ' button "1" e2',
    ]);
  });

  it('keeps controls nested in headings and header cells, and drops a heading that repeats its link, in interactive mode', () => {
    const page: WalkNode = {
      r: 'root',
      c: [
        { r: 'heading', n: 'Story', s: ['level=2'], c: [{ r: 'link', n: 'Story', ref: 'e1', i: 1 }] },
        { r: 'heading', n: 'Comments', s: ['level=2'] },
        { r: 'button', n: 'Reply', ref: 'e4', i: 1 },
        {
          r: 'table',
          c: [
            {
              r: 'row',
              c: [{ r: 'columnheader', n: 'Name', c: [{ r: 'button', n: 'Sort by name', ref: 'e2', i: 1 }] }],
            },
          ],
        },
      ],
    };
    expect(formatTree(page, { interactive: true })).toEqual([
      'link "Story" e1',
      'heading "Comments"',
      'button "Reply" e4',
      'table',
      ' button "Sort by name" e2',
    ]);
  });

  it('puts runs of same-role siblings on one line, each name followed by its ref', () => {
    const links = ['Home', 'News', 'Sport'].map((n, i): WalkNode => ({ r: 'link', n, ref: `e${i + 1}`, i: 1 }));
    const page: WalkNode = {
      r: 'root',
      c: [
        {
          r: 'navigation',
          c: [
            ...links,
            { r: 'button', n: 'Menu', ref: 'e4', i: 1, s: ['expanded=false'] },
            { r: 'button', h: 'icon: search', ref: 'e5', i: 1 },
          ],
        },
        { r: 'textbox', n: 'Email', ref: 'e6', i: 1, v: 'a@b.c' },
        { r: 'textbox', n: 'Name', ref: 'e7', i: 1 },
        { r: 'checkbox', n: 'Terms', ref: 'e8', i: 1, s: ['checked'] },
      ],
    };
    expect(formatTree(page, { interactive: true })).toEqual([
      'navigation',
      ' link "Home" e1 "News" e2 "Sport" e3',
      ' button "Menu" [expanded=false] e4 (icon: search) e5',
      // a value ends the line: it runs to the end of the line
      'textbox "Email" e6: a@b.c',
      'textbox "Name" e7',
      'checkbox "Terms" [checked] e8',
    ]);
    // the default mode keeps one line per element
    expect(formatTree(page).filter((line) => line.includes('link'))).toEqual([
      '  link "Home" e1',
      '  link "News" e2',
      '  link "Sport" e3',
    ]);
  });

  it('wraps long runs onto a new line that repeats the role', () => {
    const page: WalkNode = {
      r: 'root',
      c: Array.from({ length: 60 }, (_, i): WalkNode => ({ r: 'link', n: `Section ${i}`, ref: `e${i + 1}`, i: 1 })),
    };
    const lines = formatTree(page, { interactive: true });
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) {
      expect(line).toMatch(/^link "Section \d+" e\d+(?: "Section \d+" e\d+)*$/);
      expect(line.length).toBeLessThan(430);
    }
    expect(refsIn(lines.join('\n'))).toEqual(Array.from({ length: 60 }, (_, i) => `e${i + 1}`));
  });

  it('cuts long names at a word boundary, longer where two names would look the same', () => {
    const page: WalkNode = {
      r: 'root',
      c: [
        { r: 'link', n: 'Attack stokes instability fears in North Africa', ref: 'e1', i: 1 },
        { r: 'heading', n: 'Tools', s: ['level=2'] },
        { r: 'button', n: 'Find or Review a Drug', ref: 'e2', i: 1 },
        { r: 'button', n: 'Find or Review a Vitamin or Supplement', ref: 'e3', i: 1 },
        { r: 'button', n: 'Firefox Free Download English (US) Windows', ref: 'e4', i: 1 },
        { r: 'button', n: 'Firefox Free Download English (US) Linux', ref: 'e5', i: 1 },
        { r: 'link', n: 'x'.repeat(80), ref: 'e6', i: 1 },
      ],
    };
    expect(formatTree(page, { interactive: true })).toEqual([
      'link "Attack stokes…" e1',
      'heading "Tools"',
      'button "Find or Review a Drug" e2 "Find or Review a Vitamin or…" e3 "Firefox Free Download English (US) Windows" e4 "Firefox Free Download English (US) Linux" e5',
      `link "${'x'.repeat(19)}…" e6`,
    ]);
  });
});

describe('interactive names from content', () => {
  it('names an unnamed clickable by its text, and an unnamed frame by its source', () => {
    const page: WalkNode = {
      r: 'root',
      c: [
        { r: 'generic', ref: 'e1', i: 1, c: ['More Options'] },
        { r: 'clickable', ref: 'e2', i: 1, c: ['Subscribe', 'from 1 €'] },
        { r: 'iframe', h: 'src: ads.example/frame', ref: 'e3', i: 1 },
      ],
    };
    expect(formatTree(page, { interactive: true })).toEqual([
      'generic "More Options" e1',
      'clickable "Subscribe from 1 €" e2',
      'iframe (src: ads.example/frame) e3',
    ]);
    // the default mode shows the text itself
    expect(formatTree(page)).toEqual([
      'generic e1: More Options',
      'clickable e2',
      '  text: Subscribe',
      '  text: from 1 €',
      'iframe (src: ads.example/frame) e3',
    ]);
  });
});

describe('names and hints cannot swallow a ref', () => {
  it('escapes backslashes and quotes in names and drops parentheses in hints, so every ref still reads', () => {
    const page: WalkNode = {
      r: 'root',
      c: [
        { r: 'link', n: 'C:\\', ref: 'e1', i: 1 },
        { r: 'link', n: 'Say "e9"', ref: 'e2', i: 1 },
        { r: 'button', h: 'icon: Note (draft', ref: 'e3', i: 1 },
        { r: 'button', h: 'icon: smile :)', ref: 'e4', i: 1 },
      ],
    };
    for (const options of [{}, { interactive: true }]) {
      const text = formatTree(page, options).join('\n');
      expect(refsIn(text), text).toEqual(['e1', 'e2', 'e3', 'e4']);
    }
    expect(formatTree(page, { interactive: true })).toEqual([
      'link "C:\\\\" e1 "Say \\"e9\\"" e2',
      'button (icon: Note draft) e3 (icon: smile :) e4',
    ]);
  });
});

describe('formatSnapshot units', () => {
  it('gives one unit per element, each with its role, where runs share a line', () => {
    const page: WalkNode = {
      r: 'root',
      c: [{ r: 'navigation', c: ['Home', 'News'].map((n, i): WalkNode => ({ r: 'link', n, ref: `e${i + 1}`, i: 1 })) }],
    };
    expect(formatSnapshot(page, { interactive: true })).toEqual({
      lines: ['navigation', ' link "Home" e1 "News" e2'],
      units: ['navigation', ' link "Home" e1', ' link "News" e2'],
      refs: 2,
    });
    const full = formatSnapshot(page);
    expect(full.units).toEqual(full.lines);
    expect(full.refs).toBe(2);
  });
});
