import type { CommandResult } from '@argus/cdp';

type AXNode = CommandResult<'Accessibility.getFullAXTree'>['nodes'][number];
type AXValue = NonNullable<AXNode['name']>;

export interface AxTextOptions {
  /** keep ignored nodes, unnamed generic containers, inline text boxes and repeated text */
  all?: boolean;
  depth?: number;
  maxChars: number;
}

const NAME_MAX = 200;
const FLAG_PROPERTIES = new Set([
  'checked',
  'disabled',
  'expanded',
  'focused',
  'modal',
  'multiselectable',
  'pressed',
  'readonly',
  'required',
  'selected',
  'busy',
]);
const VALUE_PROPERTIES = new Set(['level', 'invalid', 'autocomplete', 'haspopup', 'orientation', 'valuetext']);
const CONTAINERS = new Set(['generic', 'none', 'presentation', 'GenericContainer', 'Section', 'LineBreak']);

function text(value: AXValue | undefined): string {
  const raw = value?.value;
  if (raw === undefined || raw === null) return '';
  return String(raw).replace(/\s+/g, ' ').trim();
}

function clip(value: string): string {
  return value.length > NAME_MAX ? `${value.slice(0, NAME_MAX - 1)}…` : value;
}

function line(node: AXNode): string {
  const role = text(node.role) || 'unknown';
  const name = clip(text(node.name));
  const parts = [role === 'StaticText' ? 'text' : role];
  if (name) parts.push(JSON.stringify(name));
  const value = clip(text(node.value));
  if (value && value !== name) parts.push(`= ${JSON.stringify(value)}`);
  for (const property of node.properties ?? []) {
    const raw = property.value.value;
    if (FLAG_PROPERTIES.has(property.name)) {
      if (raw === true || raw === 'true') parts.push(`[${property.name}]`);
      else if (raw === 'mixed') parts.push(`[${property.name}=mixed]`);
    } else if (
      VALUE_PROPERTIES.has(property.name) &&
      raw !== undefined &&
      raw !== '' &&
      raw !== false &&
      raw !== 'false'
    ) {
      parts.push(`[${property.name}=${String(raw)}]`);
    }
  }
  return parts.join(' ');
}

/**
 * Formats Accessibility.getFullAXTree as indented text, one node a line: `role "name" = "value"
 * [states]`. By default ignored nodes and unnamed containers are skipped (their children move up),
 * as are inline text boxes and text that only repeats its parent's name.
 */
export function formatAxTree(
  nodes: readonly AXNode[],
  options: AxTextOptions,
): { text: string; nodes: number; truncated: boolean } {
  const byId = new Map(nodes.map((node) => [node.nodeId, node]));
  const roots = nodes.filter((node) => !node.parentId || !byId.has(node.parentId));
  const lines: string[] = [];
  let used = 0;
  let truncated = false;
  const maxDepth = options.depth ?? Number.POSITIVE_INFINITY;

  const visit = (node: AXNode, depth: number, parentName: string): void => {
    if (truncated) return;
    const role = text(node.role);
    const name = text(node.name);
    let shown = true;
    if (!options.all) {
      if (node.ignored || role === 'InlineTextBox') shown = false;
      else if (CONTAINERS.has(role) && !name) shown = false;
      else if (role === 'StaticText' && (!name || name === parentName)) shown = false;
    }
    let childDepth = depth;
    if (shown) {
      if (depth >= maxDepth) return;
      const entry = `${'  '.repeat(depth)}${line(node)}`;
      if (used + entry.length + 1 > options.maxChars) {
        truncated = true;
        return;
      }
      lines.push(entry);
      used += entry.length + 1;
      childDepth = depth + 1;
    }
    const nextParentName = shown && name ? name : parentName;
    for (const childId of node.childIds ?? []) {
      const child = byId.get(childId);
      if (child) visit(child, childDepth, nextParentName);
    }
  };
  for (const root of roots) visit(root, 0, '');
  return { text: lines.join('\n'), nodes: lines.length, truncated };
}
