import { describe, expect, it } from 'vitest';
import { formatAxTree } from './ax-text.js';

const v = (value: unknown) => ({ type: 'string', value }) as never;
const nodes = [
  { nodeId: '1', ignored: false, role: v('RootWebArea'), name: v('Page'), childIds: ['2', '5'] },
  { nodeId: '2', parentId: '1', ignored: false, role: v('generic'), name: v(''), childIds: ['3'] },
  {
    nodeId: '3',
    parentId: '2',
    ignored: false,
    role: v('button'),
    name: v('Save'),
    properties: [
      { name: 'focused', value: { type: 'boolean', value: true } },
      { name: 'disabled', value: { type: 'boolean', value: false } },
    ],
    childIds: ['4'],
  },
  { nodeId: '4', parentId: '3', ignored: false, role: v('StaticText'), name: v('Save'), childIds: [] },
  { nodeId: '5', parentId: '1', ignored: true, role: v('none'), childIds: ['6'] },
  {
    nodeId: '6',
    parentId: '5',
    ignored: false,
    role: v('heading'),
    name: v('Title'),
    properties: [{ name: 'level', value: { type: 'integer', value: 2 } }],
    childIds: [],
  },
] as never;

describe('formatAxTree', () => {
  it('skips ignored nodes, unnamed containers and repeated text; children move up', () => {
    const out = formatAxTree(nodes, { maxChars: 10_000 });
    expect(out.text).toBe(
      ['RootWebArea "Page"', '  button "Save" [focused]', '  heading "Title" [level=2]'].join('\n'),
    );
    expect(out).toMatchObject({ nodes: 3, truncated: false });
  });

  it('keeps everything with all, honours depth and maxChars', () => {
    expect(formatAxTree(nodes, { all: true, maxChars: 10_000 }).nodes).toBe(6);
    expect(formatAxTree(nodes, { depth: 1, maxChars: 10_000 }).text).toBe('RootWebArea "Page"');
    const cut = formatAxTree(nodes, { maxChars: 30 });
    expect(cut).toMatchObject({ text: 'RootWebArea "Page"', truncated: true });
  });
});
