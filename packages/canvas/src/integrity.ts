import { ArgusError } from '@argus/protocol';
import { CONTAINER_KINDS, CanvasDocument, MAX_NODE_DEPTH } from './schema.js';

/**
 * Checks a document read from a file or sent by a client: the schema, plus the links a schema cannot
 * express (unique ids, parent/child links agreeing both ways, every node reachable from the roots
 * exactly once, only containers with children, at most MAX_NODE_DEPTH levels of nesting).
 */
export function checkDocument(raw: unknown, source: string): CanvasDocument {
  const parsed = CanvasDocument.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ArgusError(
      'invalid_input',
      `${source} is not a canvas document: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}. Files come from \`argus canvas save\`.`,
    );
  }
  const doc = parsed.data;
  const bad = (why: string): never => {
    throw new ArgusError('invalid_input', `${source} is not a consistent canvas document: ${why}.`);
  };
  const allIds = new Set<string>();
  const pageIds = new Set<string>();
  for (const page of doc.pages) {
    if (pageIds.has(page.id)) bad(`page id "${page.id}" appears twice`);
    pageIds.add(page.id);
    const byId = new Map(page.nodes.map((node) => [node.id, node]));
    for (const node of page.nodes) {
      if (allIds.has(node.id)) bad(`node id "${node.id}" appears twice`);
      allIds.add(node.id);
      if (node.childIds.length > 0 && !CONTAINER_KINDS.has(node.kind))
        bad(`"${node.id}" is a ${node.kind} with children`);
    }
    const reached = new Set<string>();
    // an explicit stack, not recursion: a file nested thousands deep is refused, not a stack overflow
    const stack: { id: string; parentId: string | null; depth: number }[] = page.rootIds
      .map((id) => ({ id, parentId: null, depth: 1 }))
      .reverse();
    for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
      const { id, parentId, depth } = entry;
      const node = byId.get(id) ?? bad(`"${id}" is listed as a child but is not on page "${page.id}"`);
      if (reached.has(id)) bad(`"${id}" is reached twice`);
      if (node.parentId !== parentId) bad(`"${id}" names parent ${node.parentId} but sits under ${parentId}`);
      if (depth > MAX_NODE_DEPTH)
        bad(`"${id}" is nested ${depth} levels deep on page "${page.id}"; a page nests at most ${MAX_NODE_DEPTH}`);
      reached.add(id);
      for (let index = node.childIds.length - 1; index >= 0; index--)
        stack.push({ id: node.childIds[index] as string, parentId: id, depth: depth + 1 });
    }
    if (reached.size !== page.nodes.length) bad(`page "${page.id}" has nodes not reachable from its roots`);
  }
  return doc;
}
