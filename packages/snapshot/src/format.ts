import { quoteName } from '@argus/protocol/snapshot-refs';
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
/** Containers that stay as context lines in interactive mode when they hold something. */
const CONTEXT_ROLES = new Set([
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
const LABELLING_CONTEXT = new Set([
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
const TRANSPARENT = new Set(['list', 'listitem', 'cell', 'rowgroup', 'generic', 'group', 'root', 'article', 'status']);
/** Form fields: one per line in interactive mode, never joined into a run. */
const FIELD_ROLES = new Set([
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
const CELL_ROLES = new Set(['cell', 'columnheader', 'rowheader', 'gridcell']);

/** A hint in parentheses: parentheses inside it are dropped, so the hint always ends at its `)`. */
function hint(text: string): string {
  return `(${text.replace(/[()]/g, '')})`;
}

/** `role "name" e1 [checked]: value` (the ref grammar: @argus/protocol/snapshot-refs) */
export function nodeLine(node: WalkNode): string {
  let line = node.r;
  if (node.n) line += ` ${quoteName(node.n)}`;
  // the walker sets a hint where there is no name, and beside a name only where it says what the name cannot (`file`);
  // a row context (`in "pay the gas bill"`) is left on a node only where its name does not tell it apart
  const extra = node.x ? (node.h ? `${node.h}, in ${quoteName(node.x)}` : `in ${quoteName(node.x)}`) : node.h;
  if (extra) line += ` ${hint(extra)}`;
  if (node.ref) line += ` ${node.ref}`;
  if (node.s) for (const state of node.s) line += ` [${state}]`;
  if (node.v !== undefined) line += `: ${node.v}`;
  return line;
}

/** Short text the walker found labelling a small group of controls (a calendar's month, "page 2 of 5", a price). */
function isGroupLabel(item: WalkNode): item is WalkNode & { n: string } {
  return item.r === 'text' && item.n !== undefined && !item.ref;
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

/**
 * Drops row contexts that tell nothing apart: a control keeps its row context (`in "Green mug"`) only
 * where another control that reads the same (role, name, hint) sits in a different row, as the Edit
 * buttons of a table or the unnamed checkboxes of a todo list do. Returns a copy; the walker's tree is
 * left as it was.
 */
function pruneContexts(root: WalkNode): WalkNode {
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
function findModal(items: Item[]): WalkNode | undefined {
  for (const item of items) {
    if (typeof item === 'string') continue;
    if (item.s?.includes('modal')) return item;
    const inner = item.c ? findModal(item.c) : undefined;
    if (inner) return inner;
  }
  return undefined;
}

/** The default view: the page's structure, text clipped, every interactive element with its ref. */
function formatFull(items: Item[], level: number, maxDepth: number, out: string[]): void {
  for (const item of items) {
    if (level > maxDepth) return;
    const pad = INDENT.repeat(level);
    if (typeof item === 'string' || isGroupLabel(item)) {
      out.push(`${pad}text: ${typeof item === 'string' ? item : item.n}`);
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
      if (kids.length === 1 && typeof kids[0] === 'string' && item.r !== 'root' && item.r !== 'generic')
        out.push(`${pad}${item.r}: ${kids[0]}`);
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

/** Interactive mode: names and headings are cut at a word boundary to about this many characters. */
const INTERACTIVE_NAME_MAX = 20;
/** ...but cut longer, up to this, where the short form would not tell two names apart. */
const INTERACTIVE_NAME_LIMIT = 60;
/** A run of same-role sibling controls shares one line, wrapped after about this many characters. */
const RUN_WRAP = 400;

interface Entry {
  level: number;
  kind: 'item' | 'heading' | 'open' | 'label';
  /** context lines and text labels, already rendered */
  text?: string;
  /** an interactive item or a heading */
  node?: WalkNode;
}

/** Cuts a name to about `max` characters at a word boundary, with an ellipsis. */
export function clipWords(name: string, max: number): string {
  if (name.length <= max) return name;
  let cut = name.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  if (space >= max * 0.6) cut = cut.slice(0, space);
  return `${cut.replace(/[\s,;:.\-–—|/(]+$/, '')}…`;
}

/**
 * Short names for every node. A name is cut longer when its cut form is the start of another name
 * on the page (two "Find or Review a…" would be the same to an agent), so names stay distinguishable.
 */
function shortNames(nodes: WalkNode[]): Map<string, string> {
  const sorted = [...new Set(nodes.map((node) => node.n).filter((name): name is string => Boolean(name)))].sort();
  // an option is what the user asked for: it keeps its name up to the limit
  const options = new Set(nodes.filter((node) => node.r === 'option' && node.n).map((node) => node.n!));
  const sharedStem = (stem: string, self: string): boolean => {
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (sorted[mid]! < stem) low = mid + 1;
      else high = mid;
    }
    for (let index = low; index < sorted.length && sorted[index]!.startsWith(stem); index++)
      if (sorted[index] !== self) return true;
    return false;
  };
  const out = new Map<string, string>();
  for (const name of sorted) {
    if (options.has(name)) {
      out.set(name, clipWords(name, INTERACTIVE_NAME_LIMIT));
      continue;
    }
    let short = name;
    for (let max = INTERACTIVE_NAME_MAX; ; max = Math.ceil(max * 1.5)) {
      short = clipWords(name, Math.min(max, INTERACTIVE_NAME_LIMIT));
      if (short === name || max >= INTERACTIVE_NAME_LIMIT || !sharedStem(short.slice(0, -1), name)) break;
    }
    out.set(name, short);
  }
  return out;
}

/**
 * A control the page gives no accessible name but which holds text (a clickable `div` reading "Show
 * more") is named by that text in interactive mode, where its text lines are not printed.
 */
function contentNamed(node: WalkNode): WalkNode {
  if (node.n || !node.c) return node;
  const text = node.c
    .filter((child): child is string => typeof child === 'string')
    .join(' ')
    .trim();
  if (!text) return node;
  const { h: _hint, ...rest } = node;
  return { ...rest, n: text };
}

/** The first (or last) control in an item, in document order. */
function edgeControl(item: Item | undefined, last: boolean): WalkNode | undefined {
  if (item === undefined || typeof item === 'string') return undefined;
  if (item.ref) return item;
  const kids = item.c ?? [];
  for (let index = 0; index < kids.length; index++) {
    const found = edgeControl(kids[last ? kids.length - 1 - index : index], last);
    if (found) return found;
  }
  return undefined;
}

/** The nearest item before or after `index` that is not text. */
function neighbour(items: Item[], index: number, step: 1 | -1): Item | undefined {
  for (let at = index + step; at >= 0 && at < items.length; at += step)
    if (typeof items[at] !== 'string') return items[at];
  return undefined;
}

/**
 * A label that only repeats what the control beside it already prints (its name, its hint such as
 * `(Last name:)`, or its row context `in "pay the gas bill"`) adds nothing in interactive mode.
 */
function echoedBy(control: WalkNode | undefined, text: string): boolean {
  if (!control) return false;
  const clean = (value: string) =>
    value
      .toLowerCase()
      .replace(/…$/, '')
      .replace(/[\s:]+$/, '')
      .trim();
  const label = clean(text);
  return [control.n, control.h, control.x].some(
    (value) =>
      value !== undefined && clean(value) !== '' && (clean(value).startsWith(label) || label.startsWith(clean(value))),
  );
}

/** Interactive view: controls only, under the landmarks, widgets and headings that tell them apart. */
function collectInteractive(items: Item[], level: number, parentRole: string, out: Entry[]): void {
  for (let index = 0; index < items.length; index++) {
    const item = items[index]!;
    if (typeof item === 'string') {
      if (LABELLING_CONTEXT.has(parentRole) && item.length <= 60)
        out.push({ level, text: `text: ${item}`, kind: 'item' });
      continue;
    }
    if (isGroupLabel(item)) {
      // the walker marked it as the label of the few controls around it (see page-walker.ts, group labels)
      if (
        !echoedBy(edgeControl(neighbour(items, index, -1), true), item.n) &&
        !echoedBy(edgeControl(neighbour(items, index, 1), false), item.n)
      ) {
        out.push({ level, text: `text: ${item.n}`, kind: 'label' });
      }
      continue;
    }
    if (item.ref) {
      out.push({ level, node: contentNamed(item), kind: 'item' });
      if (item.c) collectInteractive(item.c, level + 1, item.r, out);
      continue;
    }
    if (item.r === 'heading' && item.n) {
      out.push({ level, node: item, kind: 'heading' });
      if (item.c) collectInteractive(item.c, level, parentRole, out);
      continue;
    }
    if (
      item.r === 'row' &&
      item.c?.every(
        (cell) => typeof cell !== 'string' && (cell.r === 'columnheader' || cell.r === 'rowheader') && !cell.ref,
      )
    ) {
      const line = rowLine(item);
      if (line) {
        out.push({ level, text: line, kind: 'open' });
        continue;
      }
    }
    const isContext =
      CONTEXT_ROLES.has(item.r) && (item.r !== 'group' || Boolean(item.n)) && (item.r !== 'region' || Boolean(item.n));
    if (isContext) {
      const start = out.length;
      out.push({ level, node: item, kind: 'open' });
      collectInteractive(item.c ?? [], level + 1, item.r, out);
      // a context line that ended up holding no control is dropped, with whatever it collected
      if (!out.slice(start + 1).some((entry) => entry.kind === 'item')) out.length = start;
      continue;
    }
    if (item.c) collectInteractive(item.c, level, item.r === 'generic' ? parentRole : item.r, out);
  }
}

/** Equal, or one starts with the other (a heading "Story" over a link "Story: the details"). */
function sameText(a: string, b: string): boolean {
  const clean = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();
  const x = clean(a);
  const y = clean(b);
  return x === y || (y.length >= 12 && x.startsWith(y)) || (x.length >= 12 && y.startsWith(x));
}

/** `"name" e1 [checked]` — a node's line without its role. */
function body(node: WalkNode, names: Map<string, string>): string {
  const n = node.n ? (names.get(node.n) ?? node.n) : undefined;
  const h = !n && node.h ? clipWords(node.h, INTERACTIVE_NAME_MAX + 6) : undefined;
  return nodeLine({ ...node, r: '', ...(n ? { n } : {}), ...(h ? { h } : {}) }).trimStart();
}

/** Text repeated this often (`Advertisement`, `By`, `Premium`) labels no group in particular. */
const BOILERPLATE_REPEATS = 3;

/** Drops group labels whose text recurs across the page: they tell no control apart. */
function dropBoilerplate(entries: Entry[]): void {
  const counts = new Map<string, number>();
  for (const entry of entries)
    if (entry.kind === 'label' && entry.text) counts.set(entry.text, (counts.get(entry.text) ?? 0) + 1);
  let kept = 0;
  for (const entry of entries)
    if (!(entry.kind === 'label' && entry.text && (counts.get(entry.text) ?? 0) >= BOILERPLATE_REPEATS))
      entries[kept++] = entry;
  entries.length = kept;
}

function formatInteractive(root: Item[], maxDepth: number): FormattedSnapshot {
  const entries: Entry[] = [];
  // an open modal dialog is all a person can act on: its controls first, the rest marked inert
  const modal = findModal(root);
  collectInteractive(modal ? [modal] : root, 0, 'root', entries);
  dropBoilerplate(entries);
  if (modal) entries.push({ level: 0, text: '[modal: background inert]', kind: 'label' });
  const names = shortNames(entries.flatMap((entry) => (entry.node ? [entry.node] : [])));
  const lines: string[] = [];
  /** one element a line, as if no run were joined: what `--diff` compares */
  const units: string[] = [];
  /** the line a run of same-role siblings is being appended to */
  let run: { index: number; level: number; role: string } | undefined;
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
      // a heading that only repeats the name of the control right after it (a headline link) says nothing more
      const following = entries[index + 1];
      if (following?.kind === 'item' && following.node?.n && sameText(following.node.n, entry.node?.n ?? '')) continue;
    }
    const pad = INTERACTIVE_INDENT.repeat(entry.level);
    const node = entry.node;
    if (!node) {
      lines.push(pad + entry.text);
      units.push(pad + entry.text);
      run = undefined;
      continue;
    }
    const rest = body(node, names);
    const text =
      entry.kind === 'heading'
        ? `heading ${quoteName(names.get(node.n ?? '') ?? node.n ?? '')}`
        : rest
          ? `${node.r} ${rest}`
          : node.r;
    units.push(pad + text);
    // siblings of one role share a line: `link "Home" e1 "News" e2`; form fields, which
    // carry values and are filled one at a time, keep a line each
    const joinable = entry.kind === 'item' && node.v === undefined && !FIELD_ROLES.has(node.r);
    if (
      joinable &&
      run &&
      run.level === entry.level &&
      run.role === node.r &&
      lines[run.index]!.length + text.length < RUN_WRAP
    ) {
      lines[run.index] += ` ${rest}`;
      continue;
    }
    lines.push(pad + text);
    run = joinable ? { index: lines.length - 1, level: entry.level, role: node.r } : undefined;
  }
  return { lines, units };
}

export interface FormattedSnapshot {
  /** the text, a line each */
  lines: string[];
  /**
   * One element a line (a run `link "A" e1 "B" e2` is two units, each with its role), so a diff
   * reports the one link that changed rather than its whole run. Equal to `lines` in default mode.
   */
  units: string[];
}

export function formatSnapshot(root: WalkNode, options: FormatOptions = {}): FormattedSnapshot {
  const maxDepth = options.depth ?? Number.POSITIVE_INFINITY;
  const items = pruneContexts(root).c ?? [];
  if (options.interactive) return formatInteractive(items, maxDepth);
  const out: string[] = [];
  formatFull(items, 0, maxDepth, out);
  return { lines: out, units: out };
}

export function formatTree(root: WalkNode, options: FormatOptions = {}): string[] {
  return formatSnapshot(root, options).lines;
}
