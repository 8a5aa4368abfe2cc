import { ArgusError } from '@argus/protocol';
import { CONTAINER_KINDS, CanvasNode, MAX_NODE_DEPTH, type CanvasDocument, type CanvasPage } from './schema.js';
import { PatchBatch, type PatchOp } from './ops.js';
import { applyNodeChanges } from './node-changes.js';

/**
 * Applies a patch batch to the JSON projection, purely: the input document is never touched, the
 * first invalid operation throws `invalid_patch` naming its index, so a batch either applies whole
 * or not at all. The Y.Doc is then brought to the result in one transaction (y-state.ts).
 */

interface WorkPage {
  id: string;
  name: string;
  rootIds: string[];
  nodes: Map<string, CanvasNode>;
}

interface Work {
  pages: WorkPage[];
  /** node id -> its page, across the whole document (node ids are unique document-wide). */
  owner: Map<string, WorkPage>;
  tokens: CanvasDocument['tokens'];
  created: string[];
}

export interface ApplyResult {
  doc: CanvasDocument;
  /** Ids of nodes the batch created (inserts and duplicates), in order. */
  created: string[];
}

class OpFailure extends Error {}

function fail(message: string): never {
  throw new OpFailure(message);
}

/** Validates a raw batch (any JSON) and names the first bad operation by index. */
export function parseBatch(raw: unknown): PatchOp[] {
  const parsed = PatchBatch.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const index = typeof issue?.path[0] === 'number' ? issue.path[0] : undefined;
  const where = issue?.path.slice(1).join('.') ?? '';
  const message =
    index === undefined
      ? `A patch is a JSON array of 1-10000 operations: ${issue?.message ?? 'invalid'}.`
      : `Operation ${index} is malformed${where ? ` at ${where}` : ''}: ${issue?.message ?? 'invalid'}. Nothing was applied; fix that operation and send the batch again.`;
  throw new ArgusError('invalid_patch', message, { details: index === undefined ? {} : { opIndex: index } });
}

export function applyBatch(doc: CanvasDocument, ops: readonly PatchOp[], newId: () => string = randomId): ApplyResult {
  const work = toWork(doc);
  ops.forEach((op, index) => {
    try {
      applyOp(work, op, newId);
    } catch (error) {
      if (!(error instanceof OpFailure)) throw error;
      throw new ArgusError(
        'invalid_patch',
        `Operation ${index} (${op.op}) refused: ${error.message}. Nothing was applied; fix that operation and send the batch again.`,
        { details: { opIndex: index, op: op.op } },
      );
    }
  });
  return { doc: fromWork(doc, work), created: work.created };
}

export function randomId(): string {
  return `n${globalThis.crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
}

function toWork(doc: CanvasDocument): Work {
  const owner = new Map<string, WorkPage>();
  const pages = doc.pages.map((page) => {
    const work: WorkPage = { id: page.id, name: page.name, rootIds: [...page.rootIds], nodes: new Map() };
    for (const node of page.nodes) {
      work.nodes.set(node.id, structuredClone(node));
      owner.set(node.id, work);
    }
    return work;
  });
  return { pages, owner, tokens: structuredClone(doc.tokens), created: [] };
}

/** Nodes in depth-first order from the roots, so equal trees always project to equal JSON. */
function fromWork(doc: CanvasDocument, work: Work): CanvasDocument {
  const pages: CanvasPage[] = work.pages.map((page) => {
    const nodes: CanvasNode[] = [];
    const visit = (id: string): void => {
      const node = page.nodes.get(id);
      if (!node) return;
      nodes.push(node);
      node.childIds.forEach(visit);
    };
    page.rootIds.forEach(visit);
    return { id: page.id, name: page.name, rootIds: page.rootIds, nodes };
  });
  return { ...doc, pages, tokens: work.tokens };
}

function pageOf(work: Work, pageId: string): WorkPage {
  return work.pages.find((page) => page.id === pageId) ?? fail(`no page "${pageId}"`);
}

function nodeOf(work: Work, nodeId: string): { page: WorkPage; node: CanvasNode } {
  const page = work.owner.get(nodeId);
  const node = page?.nodes.get(nodeId);
  if (!page || !node) fail(`no node "${nodeId}"`);
  return { page, node };
}

function siblings(page: WorkPage, parentId: string | null): string[] {
  if (parentId === null) return page.rootIds;
  return page.nodes.get(parentId)?.childIds ?? fail(`no node "${parentId}" on page "${page.id}"`);
}

function containerIn(page: WorkPage, parentId: string | null): void {
  if (parentId === null) return;
  const parent = page.nodes.get(parentId) ?? fail(`no node "${parentId}" on page "${page.id}"`);
  if (!CONTAINER_KINDS.has(parent.kind)) fail(`"${parentId}" is a ${parent.kind}, which cannot have children`);
}

function placeAt(list: string[], id: string, index: number | undefined): void {
  const at = index ?? list.length;
  if (at > list.length) fail(`index ${at} is past the end (${list.length} siblings)`);
  list.splice(at, 0, id);
}

function detach(page: WorkPage, node: CanvasNode): number {
  const list = siblings(page, node.parentId);
  const at = list.indexOf(node.id);
  list.splice(at, 1);
  return at;
}

/** The node and everything under it, depth-first (an explicit stack: no recursion on document depth). */
function subtree(page: WorkPage, id: string): string[] {
  const ids: string[] = [];
  const stack = [id];
  for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
    ids.push(current);
    const children = page.nodes.get(current)?.childIds ?? [];
    for (let index = children.length - 1; index >= 0; index--) stack.push(children[index] as string);
  }
  return ids;
}

/** The depth of a node under `parentId` (a root node is at depth 1). */
function depthUnder(page: WorkPage, parentId: string | null): number {
  let depth = 1;
  for (let id = parentId; id !== null; id = page.nodes.get(id)?.parentId ?? null) depth++;
  return depth;
}

/** How many levels a subtree spans (a leaf spans 1). */
function heightOf(page: WorkPage, id: string): number {
  let height = 0;
  const stack: [string, number][] = [[id, 1]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [current, level] = entry;
    height = Math.max(height, level);
    for (const child of page.nodes.get(current)?.childIds ?? []) stack.push([child, level + 1]);
  }
  return height;
}

/** Refuses a placement that would nest the page deeper than MAX_NODE_DEPTH. */
function withinDepth(page: WorkPage, parentId: string | null, height: number): void {
  const deepest = depthUnder(page, parentId) + height - 1;
  if (deepest > MAX_NODE_DEPTH)
    fail(`it would nest nodes ${deepest} levels deep; a page nests at most ${MAX_NODE_DEPTH} levels`);
}

function freshId(work: Work, wanted: string | undefined, newId: () => string): string {
  if (wanted !== undefined) {
    if (work.owner.has(wanted)) fail(`a node "${wanted}" already exists`);
    return wanted;
  }
  let id = newId();
  while (work.owner.has(id)) id = newId();
  return id;
}

function applyOp(work: Work, op: PatchOp, newId: () => string): void {
  switch (op.op) {
    case 'page.create': {
      if (work.pages.some((page) => page.id === op.page.id)) fail(`a page "${op.page.id}" already exists`);
      work.pages.push({ id: op.page.id, name: op.page.name, rootIds: [], nodes: new Map() });
      return;
    }
    case 'node.insert': {
      const page = pageOf(work, op.pageId);
      containerIn(page, op.parentId);
      withinDepth(page, op.parentId, 1);
      const id = freshId(work, op.node.id, newId);
      const node: CanvasNode = {
        id,
        kind: op.node.kind,
        name: op.node.name ?? op.node.kind,
        parentId: op.parentId,
        childIds: [],
        rect: op.node.rect,
        props: op.node.props,
        style: op.node.style,
        tokenRefs: op.node.tokenRefs,
      };
      placeAt(siblings(page, op.parentId), id, op.index);
      page.nodes.set(id, node);
      work.owner.set(id, page);
      work.created.push(id);
      return;
    }
    case 'node.update': {
      const { page, node } = nodeOf(work, op.nodeId);
      const next = applyNodeChanges(node, op.changes, fail);
      const checked = CanvasNode.safeParse(next);
      if (!checked.success) fail(checked.error.issues[0]?.message ?? 'the result is not a valid node');
      page.nodes.set(node.id, checked.data);
      return;
    }
    case 'node.remove': {
      const { page, node } = nodeOf(work, op.nodeId);
      detach(page, node);
      for (const id of subtree(page, node.id)) {
        page.nodes.delete(id);
        work.owner.delete(id);
      }
      return;
    }
    case 'node.reparent': {
      const { page, node } = nodeOf(work, op.nodeId);
      if (op.parentId !== null && subtree(page, node.id).includes(op.parentId)) {
        fail(`"${op.parentId}" is "${node.id}" or inside it: a node cannot move into its own subtree`);
      }
      containerIn(page, op.parentId);
      withinDepth(page, op.parentId, heightOf(page, node.id));
      detach(page, node);
      placeAt(siblings(page, op.parentId), node.id, op.index);
      node.parentId = op.parentId;
      return;
    }
    case 'node.reorder': {
      const { page, node } = nodeOf(work, op.nodeId);
      const list = siblings(page, node.parentId);
      if (op.index >= list.length) fail(`index ${op.index} is past the last sibling (${list.length - 1})`);
      detach(page, node);
      list.splice(op.index, 0, node.id);
      return;
    }
    case 'node.duplicate': {
      const { page, node } = nodeOf(work, op.nodeId);
      const copy = (id: string, parentId: string | null): string => {
        const original = page.nodes.get(id) ?? fail(`no node "${id}"`);
        const cloneId = freshId(work, undefined, newId);
        const clone: CanvasNode = { ...structuredClone(original), id: cloneId, parentId, childIds: [] };
        page.nodes.set(cloneId, clone);
        work.owner.set(cloneId, page);
        work.created.push(cloneId);
        clone.childIds = original.childIds.map((child) => copy(child, cloneId));
        return cloneId;
      };
      const list = siblings(page, node.parentId);
      const cloneId = copy(node.id, node.parentId);
      list.splice(list.indexOf(node.id) + 1, 0, cloneId);
      return;
    }
    case 'token.set': {
      const token = work.tokens[op.path] ?? { value: op.value, modes: {} };
      if (op.mode === undefined) token.value = op.value;
      else token.modes[op.mode] = op.value;
      work.tokens[op.path] = token;
      return;
    }
  }
}
