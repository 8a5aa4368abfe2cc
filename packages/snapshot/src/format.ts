import type { WalkNode } from './walker-types.js';

export interface FormatOptions {
  interactive?: boolean;
  /** deepest indentation level printed (0 = top level only) */
  depth?: number;
}

type Item = WalkNode | string;

const INDENT = '  ';
/** Interactive mode is read on every agent step: one space per level and shorter names keep it small. */
const INTERACTIVE_INDENT = ' ';
const INTERACTIVE_NAME_MAX = 40;

function clipName(name: string): string {
  return name.length > INTERACTIVE_NAME_MAX ? `${name.slice(0, INTERACTIVE_NAME_MAX - 1).trimEnd()}…` : name;
}
/** Containers that stay as context lines in interactive mode when they hold something. */
const CONTEXT_ROLES = new Set([
  'banner', 'navigation', 'main', 'contentinfo', 'complementary', 'search', 'form', 'region', 'dialog', 'alertdialog',
  'tablist', 'menu', 'menubar', 'listbox', 'radiogroup', 'tree', 'grid', 'treegrid', 'toolbar', 'table', 'iframe', 'group',
]);
/** Containers whose short text children label the widget (a date picker's month header, a dialog's prompt). */
const LABELLING_CONTEXT = new Set(['dialog', 'alertdialog', 'grid', 'tablist', 'toolbar', 'menu', 'listbox', 'group', 'radiogroup']);
/** Unnamed containers that add no information of their own: their children take their place. */
const TRANSPARENT = new Set(['list', 'listitem', 'cell', 'rowgroup', 'generic', 'group', 'root', 'article', 'status']);
const CELL_ROLES = new Set(['cell', 'columnheader', 'rowheader', 'gridcell']);

function quote(text: string): string {
  return `"${text.replace(/"/g, '\\"')}"`;
}

/** `role "name" [ref=e1] [checked]: value` */
export function nodeLine(node: WalkNode): string {
  let line = node.r;
  if (node.n) line += ` ${quote(node.n)}`;
  else if (node.h) line += ` (${node.h})`;
  if (node.ref) line += ` [ref=${node.ref}]`;
  if (node.s) for (const state of node.s) line += ` [${state}]`;
  if (node.v !== undefined) line += `: ${node.v}`;
  return line;
}

function bare(node: WalkNode): boolean {
  return !node.n && !node.ref && !node.s && node.v === undefined && !node.h;
}

function cellText(cell: WalkNode): string | undefined {
  if (cell.ref) return undefined;
  if (!cell.c) return cell.n ?? '';
  if (cell.c.length === 1 && typeof cell.c[0] === 'string') return cell.n ? `${cell.n} ${cell.c[0]}` : cell.c[0];
  return undefined;
}

/** A row of text-only cells renders as one line: `row: a | b | c`. */
function rowLine(row: WalkNode): string | undefined {
  if (!row.c || row.ref) return undefined;
  const texts: string[] = [];
  for (const child of row.c) {
    if (typeof child === 'string') texts.push(child);
    else if (CELL_ROLES.has(child.r)) {
      const text = cellText(child);
      if (text === undefined) return undefined;
      texts.push(text);
    } else return undefined;
  }
  return `row: ${texts.join(' | ')}`;
}

/** The default view: the page's structure, text clipped, every interactive element with its ref. */
function formatFull(items: Item[], level: number, maxDepth: number, out: string[]): void {
  for (const item of items) {
    if (level > maxDepth) return;
    const pad = INDENT.repeat(level);
    if (typeof item === 'string') {
      out.push(`${pad}text: ${item}`);
      continue;
    }
    if (item.r === 'row') {
      const line = rowLine(item);
      if (line) {
        out.push(pad + line);
        continue;
      }
    }
    const kids = item.c ?? [];
    if (bare(item) && TRANSPARENT.has(item.r)) {
      if (kids.length === 1 && typeof kids[0] === 'string' && item.r !== 'root' && item.r !== 'generic') out.push(`${pad}${item.r}: ${kids[0]}`);
      else formatFull(kids, level, maxDepth, out);
      continue;
    }
    if (kids.length === 1 && typeof kids[0] === 'string' && item.v === undefined) {
      out.push(`${pad}${nodeLine(item)}: ${kids[0]}`);
      continue;
    }
    out.push(pad + nodeLine(item));
    if (kids.length) formatFull(kids, level + 1, maxDepth, out);
  }
}

interface Entry {
  level: number;
  text: string;
  kind: 'item' | 'heading' | 'open';
}

/** Interactive view: controls only, under the landmarks, widgets and headings that tell them apart. */
function collectInteractive(items: Item[], level: number, parentRole: string, out: Entry[]): void {
  for (const item of items) {
    if (typeof item === 'string') {
      if (LABELLING_CONTEXT.has(parentRole) && item.length <= 60) out.push({ level, text: `text: ${item}`, kind: 'item' });
      continue;
    }
    if (item.ref) {
      out.push({ level, text: nodeLine(item.n ? { ...item, n: clipName(item.n) } : item), kind: 'item' });
      if (item.c) collectInteractive(item.c, level + 1, item.r, out);
      continue;
    }
    if (item.r === 'heading' && item.n) {
      out.push({ level, text: `heading ${quote(clipName(item.n))}`, kind: 'heading' });
      if (item.c) collectInteractive(item.c, level, parentRole, out);
      continue;
    }
    if (item.r === 'row' && item.c?.every((cell) => typeof cell !== 'string' && (cell.r === 'columnheader' || cell.r === 'rowheader') && !cell.ref)) {
      const line = rowLine(item);
      if (line) {
        out.push({ level, text: line, kind: 'open' });
        continue;
      }
    }
    const isContext = CONTEXT_ROLES.has(item.r) && (item.r !== 'group' || Boolean(item.n)) && (item.r !== 'region' || Boolean(item.n));
    if (isContext) {
      const start = out.length;
      out.push({ level, text: nodeLine(item.n ? { ...item, n: clipName(item.n) } : item), kind: 'open' });
      collectInteractive(item.c ?? [], level + 1, item.r, out);
      // a context line that ended up holding no control is dropped, with whatever it collected
      if (!out.slice(start + 1).some((entry) => entry.kind === 'item')) out.length = start;
      continue;
    }
    if (item.c) collectInteractive(item.c, level, item.r === 'generic' ? parentRole : item.r, out);
  }
}

function formatInteractive(root: Item[], maxDepth: number): string[] {
  const entries: Entry[] = [];
  collectInteractive(root, 0, 'root', entries);
  const lines: string[] = [];
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index]!;
    if (entry.level > maxDepth) continue;
    if (entry.kind === 'heading') {
      // a heading is context only when a control follows it before the next heading
      let useful = false;
      for (let next = index + 1; next < entries.length; next++) {
        const kind = entries[next]!.kind;
        if (kind === 'heading') break;
        if (kind === 'item') {
          useful = true;
          break;
        }
      }
      if (!useful) continue;
    }
    lines.push(INTERACTIVE_INDENT.repeat(entry.level) + entry.text);
  }
  return lines;
}

export function formatTree(root: WalkNode, options: FormatOptions = {}): string[] {
  const maxDepth = options.depth ?? Number.POSITIVE_INFINITY;
  const items = root.c ?? [];
  if (options.interactive) return formatInteractive(items, maxDepth);
  const out: string[] = [];
  formatFull(items, 0, maxDepth, out);
  return out;
}
