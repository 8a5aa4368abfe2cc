import { quoteName } from '@argus/protocol/snapshot-refs';
import type { WalkNode } from './walker-types.js';

/** Line-level pieces both snapshot views share: roles that give context, a node's line, a row's line. */

export type Item = WalkNode | string;

export const INDENT = '  ';
/** Interactive mode is read on every agent step: one space per level and shorter names keep it small. */
export const INTERACTIVE_INDENT = ' ';
/** Containers that stay as context lines in interactive mode when they hold something. */
export const CONTEXT_ROLES = new Set([
  'banner',
  'navigation',
  'main',
  'contentinfo',
  'complementary',
  'search',
  'form',
  'region',
  'dialog',
  'alertdialog',
  'tablist',
  'menu',
  'menubar',
  'listbox',
  'radiogroup',
  'tree',
  'grid',
  'treegrid',
  'toolbar',
  'table',
  'iframe',
  'group',
]);
/** Containers whose short text children label the widget (a date picker's month header, a dialog's prompt). */
export const LABELLING_CONTEXT = new Set([
  'dialog',
  'alertdialog',
  'grid',
  'tablist',
  'toolbar',
  'menu',
  'listbox',
  'group',
  'radiogroup',
]);
/** Unnamed containers that add no information of their own: their children take their place. */
export const TRANSPARENT = new Set([
  'list',
  'listitem',
  'cell',
  'rowgroup',
  'generic',
  'group',
  'root',
  'article',
  'status',
]);
/** Form fields: one per line in interactive mode, never joined into a run. */
export const FIELD_ROLES = new Set([
  'textbox',
  'searchbox',
  'combobox',
  'listbox',
  'checkbox',
  'radio',
  'switch',
  'slider',
  'spinbutton',
]);
export const CELL_ROLES = new Set(['cell', 'columnheader', 'rowheader', 'gridcell']);

/** A hint in parentheses: parentheses inside it are dropped, so the hint always ends at its `)`. */
export function hint(text: string): string {
  return `(${text.replace(/[()]/g, '')})`;
}

/**
 * A state as printed: only word characters, `=` and `-` (`aria-current` is the page's own text; a
 * space in it could otherwise plant a ref-like token before the element's ref).
 */
function stateText(state: string): string {
  return state.replace(/[^\w=-]/g, '');
}

/**
 * `role "name" [checked] e1: value` (the ref grammar: @argus/protocol/snapshot-refs). Everything
 * about an element comes before its ref, so in a run (`button "Details" [expanded=false] e2 "After"
 * e3`) the ref closes its element and a state cannot be read as the next one's.
 */
export function nodeLine(node: WalkNode): string {
  let line = node.r;
  if (node.n) line += ` ${quoteName(node.n)}`;
  // the walker sets a hint where there is no name, and beside a name only where it says what the name cannot (`file`);
  // a row context (`in "pay the gas bill"`) is left on a node only where its name does not tell it apart
  const extra = node.x ? (node.h ? `${node.h}, in ${quoteName(node.x)}` : `in ${quoteName(node.x)}`) : node.h;
  if (extra) line += ` ${hint(extra)}`;
  if (node.s) for (const state of node.s) line += ` [${stateText(state)}]`;
  if (node.ref) line += ` ${node.ref}`;
  if (node.v !== undefined) line += `: ${node.v}`;
  return line;
}

/** Short text the walker found labelling a small group of controls (a calendar's month, "page 2 of 5", a price). */
export function isGroupLabel(item: WalkNode): item is WalkNode & { n: string } {
  return item.r === 'text' && item.n !== undefined && !item.ref;
}

export function bare(node: WalkNode): boolean {
  return !node.n && !node.ref && !node.s && node.v === undefined && !node.h;
}

export function cellText(cell: WalkNode): string | undefined {
  if (cell.ref) return undefined;
  if (!cell.c) return cell.n ?? '';
  if (cell.c.length === 1 && typeof cell.c[0] === 'string') return cell.n ? `${cell.n} ${cell.c[0]}` : cell.c[0];
  return undefined;
}

/** A row of text-only cells renders as one line: `row: a | b | c`. */
export function rowLine(row: WalkNode): string | undefined {
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

/**
 * Drops row contexts that tell nothing apart: a control keeps its row context (`in "Green mug"`) only
 * where another control that reads the same (role, name, hint) sits in a different row, as the Edit
 * buttons of a table or the unnamed checkboxes of a todo list do. Returns a copy; the walker's tree is
 * left as it was.
 */
export function pruneContexts(root: WalkNode): WalkNode {
  const contexts = new Map<string, Map<string, string>>();
  const key = (node: WalkNode) => `${node.r}\u0000${node.n ?? ''}\u0000${node.n ? '' : (node.h ?? '')}`;
  // contexts seen per look-alike control, each once per destination (links to one place are one action)
  const count = (node: WalkNode) => {
    if (node.ref && node.x !== undefined) {
      const seen = contexts.get(key(node)) ?? new Map<string, string>();
      seen.set(node.u ?? `\u0000${node.x}`, node.x);
      contexts.set(key(node), seen);
    }
    for (const child of node.c ?? []) if (typeof child !== 'string') count(child);
  };
  count(root);
  const prune = (node: WalkNode): WalkNode => {
    const kids = node.c?.map((child) => (typeof child === 'string' ? child : prune(child)));
    const { x, u: _u, c: _c, ...rest } = node;
    const seen = contexts.get(key(node));
    const keep = x !== undefined && node.ref !== undefined && seen !== undefined && new Set(seen.values()).size > 1;
    return { ...rest, ...(keep ? { x } : {}), ...(kids ? { c: kids } : {}) };
  };
  return prune(root);
}

/** The open modal dialog (`[modal]`), first in document order. */
export function findModal(items: Item[]): WalkNode | undefined {
  for (const item of items) {
    if (typeof item === 'string') continue;
    if (item.s?.includes('modal')) return item;
    const inner = item.c ? findModal(item.c) : undefined;
    if (inner) return inner;
  }
  return undefined;
}
