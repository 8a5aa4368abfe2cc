import { describe, expect, it } from 'vitest';
import { formatTree, nodeLine } from './format.js';
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
            { r: 'row', c: [{ r: 'columnheader', n: 'Name' }, { r: 'columnheader', n: 'Price' }] },
            { r: 'row', c: [{ r: 'cell', c: ['Tea'] }, { r: 'cell', c: ['3 €'] }] },
            { r: 'row', c: [{ r: 'cell', c: ['Cake'] }, { r: 'cell', c: [{ r: 'button', n: 'Remove', ref: 'e3', i: 1 }] }] },
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
  it('renders role, quoted name, ref, states and value', () => {
    expect(nodeLine({ r: 'checkbox', n: 'Say "hi"', ref: 'e7', s: ['checked', 'disabled'] })).toBe('checkbox "Say \\"hi\\"" [ref=e7] [checked] [disabled]');
    expect(nodeLine({ r: 'textbox', n: 'Email', ref: 'f2e9', v: 'a@b.c' })).toBe('textbox "Email" [ref=f2e9]: a@b.c');
    expect(nodeLine({ r: 'button', h: 'icon: reply', ref: 'e1' })).toBe('button (icon: reply) [ref=e1]');
  });
});

describe('formatTree', () => {
  it('default mode: structure, merged text, collapsed wrappers, compact rows', () => {
    expect(formatTree(tree).join('\n')).toBe(
      [
        'banner',
        '  link "Home" [ref=e1]',
        'main',
        '  heading "Orders" [level=1]',
        '  text: Your recent orders are listed below.',
        '  link "Order 1" [ref=e2]',
        '  listitem: Plain item',
        '  table "Items"',
        '    row: Name | Price',
        '    row: Tea | 3 €',
        '    row',
        '      cell: Cake',
        '      button "Remove" [ref=e3]',
        '  textbox "Search" [ref=e4] [required]: tea',
        '  button (icon: reply) [ref=e5]',
        '  heading "Nothing to do here" [level=2]',
        '  text: Just text.',
      ].join('\n'),
    );
  });

  it('interactive mode: controls with landmark, heading and table-header context only', () => {
    expect(formatTree(tree, { interactive: true }).join('\n')).toBe(
      [
        'banner',
        ' link "Home" [ref=e1]',
        'main',
        ' heading "Orders"',
        ' link "Order 1" [ref=e2]',
        ' table "Items"',
        '  row: Name | Price',
        '  button "Remove" [ref=e3]',
        ' textbox "Search" [ref=e4] [required]: tea',
        ' button (icon: reply) [ref=e5]',
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
      c: [{ r: 'dialog', n: 'Choose date', c: [{ r: 'button', n: 'Previous month', ref: 'e1', i: 1 }, 'March 2024', { r: 'button', n: '1', ref: 'e2', i: 1 }] }],
    };
    expect(formatTree(picker, { interactive: true })).toEqual(['dialog "Choose date"', ' button "Previous month" [ref=e1]', ' text: March 2024', ' button "1" [ref=e2]']);
  });

  it('keeps controls nested in headings and header cells, and clips long names, in interactive mode', () => {
    const page: WalkNode = {
      r: 'root',
      c: [
        { r: 'heading', n: 'Story', s: ['level=2'], c: [{ r: 'link', n: 'Story', ref: 'e1', i: 1 }] },
        { r: 'table', c: [{ r: 'row', c: [{ r: 'columnheader', n: 'Name', c: [{ r: 'button', n: 'Sort by name', ref: 'e2', i: 1 }] }] }] },
        { r: 'link', n: 'x'.repeat(60), ref: 'e3', i: 1 },
      ],
    };
    expect(formatTree(page, { interactive: true })).toEqual(['heading "Story"', 'link "Story" [ref=e1]', 'table', ' button "Sort by name" [ref=e2]', `link "${'x'.repeat(39)}…" [ref=e3]`]);
  });
});
