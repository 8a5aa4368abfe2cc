import type { CanvasNode } from './schema.js';

/**
 * `node.update` changes: dotted paths (`style.color`, `rect.width`, `props.text`) or a whole group
 * (`style`, `rect`). Two paths where one is the other or lies inside it (`style` and `style.color`)
 * are refused: which one wins would be an accident of key order.
 */

const GROUPS = ['rect', 'props', 'style', 'tokenRefs'] as const;
type Group = (typeof GROUPS)[number];
type ChangeValue = string | number | null | Record<string, string | number | null>;

export function overlappingPaths(paths: readonly string[]): [string, string] | undefined {
  for (const a of paths) for (const b of paths) if (a !== b && b.startsWith(`${a}.`)) return [a, b];
  return undefined;
}

function isGroup(value: string): value is Group {
  return (GROUPS as readonly string[]).includes(value);
}

export function applyNodeChanges(
  node: CanvasNode,
  changes: Record<string, ChangeValue>,
  fail: (message: string) => never,
): CanvasNode {
  const paths = Object.keys(changes);
  if (paths.length === 0) fail('changes is empty');
  const overlap = overlappingPaths(paths);
  if (overlap) fail(`paths "${overlap[0]}" and "${overlap[1]}" overlap; send one of them`);
  const next: CanvasNode = structuredClone(node);
  for (const path of paths) {
    const value = changes[path] ?? null;
    const parts = path.split('.');
    const [head, key, ...rest] = parts;
    if (rest.length > 0 || head === undefined) fail(`"${path}" is deeper than group.key`);
    if (head === 'name' && key === undefined) {
      if (typeof value !== 'string') fail('name must be a string');
      next.name = value;
      continue;
    }
    if (!isGroup(head))
      fail(`"${path}" is not a changeable path (name, rect[.x|y|width|height], props.*, style.*, tokenRefs.*)`);
    if (key === undefined) {
      if (value === null) {
        if (head === 'rect') fail('rect cannot be removed');
        next[head] = {};
        continue;
      }
      if (typeof value !== 'object') fail(`"${head}" takes an object; use "${head}.<key>" for one value`);
      const whole = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
      (next as unknown as Record<Group, unknown>)[head] = whole;
      continue;
    }
    if (typeof value === 'object' && value !== null) fail(`"${path}" takes a string or a number, not an object`);
    const group = next[head] as Record<string, unknown>;
    if (value === null) {
      if (head === 'rect') fail(`${path} cannot be removed`);
      delete group[key];
    } else {
      group[key] = value;
    }
  }
  return next;
}
