import { ArgusError } from '@argus/protocol';
import type { PatchOpInput } from '../src/index.js';

/** The typed error `run` throws (fails the test when it throws none, or another kind). */
export function refusal(run: () => unknown): ArgusError {
  try {
    run();
  } catch (error) {
    if (error instanceof ArgusError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

/** A small page: a card frame holding a title and a button group with a label. */
export const CARD: PatchOpInput[] = [
  {
    op: 'node.insert',
    pageId: 'page-1',
    parentId: null,
    node: {
      id: 'card',
      kind: 'frame',
      name: 'Card',
      rect: { x: 40, y: 40, width: 400, height: 240 },
      props: {},
      style: { backgroundColor: '#ffffff' },
      tokenRefs: {},
    },
  },
  {
    op: 'node.insert',
    pageId: 'page-1',
    parentId: 'card',
    node: {
      id: 'title',
      kind: 'text',
      rect: { x: 16, y: 16, width: 300, height: 32 },
      props: { text: 'Hello' },
      style: { fontSize: 24 },
      tokenRefs: {},
    },
  },
  {
    op: 'node.insert',
    pageId: 'page-1',
    parentId: 'card',
    node: {
      id: 'actions',
      kind: 'group',
      rect: { x: 16, y: 180, width: 200, height: 40 },
      props: {},
      style: {},
      tokenRefs: {},
    },
  },
  {
    op: 'node.insert',
    pageId: 'page-1',
    parentId: 'actions',
    node: {
      id: 'label',
      kind: 'text',
      rect: { x: 0, y: 0, width: 120, height: 40 },
      props: { text: 'Go' },
      style: {},
      tokenRefs: {},
    },
  },
];
