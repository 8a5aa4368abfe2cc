import { quoteName } from '@argus/protocol/snapshot-refs';
import type { WalkNode } from './walker-types.js';
import {
  INTERACTIVE_INDENT,
  CONTEXT_ROLES,
  LABELLING_CONTEXT,
  FIELD_ROLES,
  nodeLine,
  isGroupLabel,
  rowLine,
  findModal,
  type Item,
} from './format-lines.js';

export interface FormattedSnapshot {
  /** the text, a line each */
  lines: string[];
  /**
   * One element a line (a run `link "A" e1 "B" e2` is two units, each with its role), so a diff
   * reports the one link that changed rather than its whole run. Equal to `lines` in default mode.
   */
  units: string[];
  /**
   * Refs printed, counted as the lines are written (what a scan of `lines` with refsInLine finds):
   * the reply's `refs` without reading the text again, character by character, on every snapshot.
   */
  refs: number;
}

/** Interactive mode: names and headings are cut at a word boundary to about this many characters. */
const INTERACTIVE_NAME_MAX = 20;
/** ...but cut longer, up to this, where the short form would not tell two names apart. */
const INTERACTIVE_NAME_LIMIT = 60;
/** A run of same-role sibling controls shares one line, wrapped after about this many characters. */
const RUN_WRAP = 400;

/** Roles whose text the page announces as it changes: what an action's result says ("Saved", an error). */
export const LIVE_ROLES = new Set(['status', 'alert', 'log']);
/** A live region's text is cut to about this many characters (a log keeps its newest end)... */
const LIVE_TEXT_MAX = 100;
/** ...and at most this many of them are printed, so a page of many regions stays small. */
const LIVE_REGIONS_MAX = 5;

interface Entry {
  level: number;
  kind: 'item' | 'heading' | 'open' | 'label' | 'live';
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
  return `${cut.replace(/[\s,;:.\-\u2013\u2014|/(]+$/, '')}…`;
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
      .replace(/\u2026$/, '')
      .replace(/[\s:]+$/, '')
      .trim();
  const label = clean(text);
  return [control.n, control.h, control.x].some(
    (value) =>
      value !== undefined && clean(value) !== '' && (clean(value).startsWith(label) || label.startsWith(clean(value))),
  );
}

/** The text a live region holds, outside the controls in it (they print as controls), cut to size. */
function liveText(region: WalkNode): string {
  const parts: string[] = [];
  const visit = (items: Item[]) => {
    for (const item of items) {
      if (typeof item === 'string') parts.push(item);
      else if (!item.ref && item.c) visit(item.c);
      else if (!item.ref && item.n && item.r !== 'img') parts.push(item.n);
    }
  };
  visit(region.c ?? []);
  const text = parts.join(' ').replace(/\s+/g, ' ').trim();
  if (region.r !== 'log' || text.length <= LIVE_TEXT_MAX) return clipWords(text, LIVE_TEXT_MAX);
  // a log grows at its end: its newest entries are what changed
  const tail = text.slice(-(LIVE_TEXT_MAX - 1));
  const space = tail.indexOf(' ');
  return `…${space >= 0 && space < LIVE_TEXT_MAX * 0.4 ? tail.slice(space + 1) : tail}`;
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
    if (item.ref && item.d) {
      // the same action as a link printed before it in its card (see WalkNode.d)
      if (item.c) collectInteractive(item.c, level, parentRole, out);
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
    if (LIVE_ROLES.has(item.r)) {
      // a status or alert is what the page says after an action ("Saved", an error): its text is kept
      const text = liveText(item);
      if (text) out.push({ level, text: `${item.r}: ${text}`, kind: 'live' });
      if (item.c) collectInteractive(item.c, level, parentRole, out);
      continue;
    }
    const isContext =
      CONTEXT_ROLES.has(item.r) && (item.r !== 'group' || Boolean(item.n)) && (item.r !== 'region' || Boolean(item.n));
    if (isContext) {
      const start = out.length;
      out.push({ level, node: item, kind: 'open' });
      collectInteractive(item.c ?? [], level + 1, item.r, out);
      // a context line that ended up holding no control (nor a live region's text) is dropped, with whatever it collected
      if (!out.slice(start + 1).some((entry) => entry.kind === 'item' || entry.kind === 'live')) out.length = start;
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

/** `"name" [checked] e1` — a node's line without its role. */
function body(node: WalkNode, names: Map<string, string>): string {
  const n = node.n ? (names.get(node.n) ?? node.n) : undefined;
  const h = !n && node.h ? clipWords(node.h, INTERACTIVE_NAME_MAX + 6) : undefined;
  return nodeLine({ ...node, r: '', ...(n ? { n } : {}), ...(h ? { h } : {}) }).trimStart();
}

/** Text repeated this often (`Advertisement`, `By`, `Premium`) labels no group in particular. */
const BOILERPLATE_REPEATS = 3;

/**
 * Drops group labels whose text recurs across the page (they tell no control apart), and live regions
 * past the first few.
 */
function dropBoilerplate(entries: Entry[]): void {
  const counts = new Map<string, number>();
  for (const entry of entries)
    if (entry.kind === 'label' && entry.text) counts.set(entry.text, (counts.get(entry.text) ?? 0) + 1);
  let kept = 0;
  let live = 0;
  for (const entry of entries) {
    if (entry.kind === 'label' && entry.text && (counts.get(entry.text) ?? 0) >= BOILERPLATE_REPEATS) continue;
    if (entry.kind === 'live' && ++live > LIVE_REGIONS_MAX) continue;
    entries[kept++] = entry;
  }
  entries.length = kept;
}

export function formatInteractive(root: Item[], maxDepth: number): FormattedSnapshot {
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
  let refs = 0;
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
    if (node.ref && entry.kind === 'item') refs++;
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
  return { lines, units, refs };
}
