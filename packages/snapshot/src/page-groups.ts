import type { WalkNode } from './walker-types.js';

type Items = Array<WalkNode | string>;

/** Group labels and row context: how the walker gives controls the context a person reads beside them. */
export interface GroupsKit {
  /** text inside this element never labels a group: prose, a label, a heading, a caption, code */
  prose(tag: string, role: string): boolean;
  /** how many labels wait for their group to be done (compare before and after an element's children) */
  pending(): number;
  /** forgets labels left from a walk that did not finish */
  reset(): void;
  /** the text node just pushed at the end of `items` may label the controls on either side of it */
  textLabel(node: Node, items: Items): void;
  /** `el`'s whole content, items[from..], may label the group it sits in */
  elementLabel(el: Element, items: Items, from: number): void;
  /** settles the labels waiting among items[from..], the content of the element that is their group */
  settle(items: Items, from: number): void;
  /** one entry of a repeated collection (a todo item, a post in a feed, a table row) */
  isRow(el: Element, tag: string, role: string): boolean;
  /** gives the row's controls its first text as context; `hrefOf` tells where a link goes */
  markRow(items: Items, hrefOf: (id: number) => string | undefined): void;
}

/**
 * Runs INSIDE the page (serialised into the walker's bundle, see frame-eval.ts): it must not refer
 * to anything outside its own body.
 */
export function groupsKit(): GroupsKit {
  const norm = (s: string) => s.replace(/\s+/g, ' ');
  const clip = (s: string, max: number) => (s.length > max ? s.slice(0, max - 1).trimEnd() + '…' : s);
  /** walker markers (`#hidden`, `#icon`): text a person cannot read, never context */
  const isMarker = (item: WalkNode): boolean => item.r.startsWith('#');
  const ROW_CONTEXT_MAX = 30;
  /** A todo has two or three controls, a post in a feed five or six; a menu or a page section has more. */
  const ROW_CONTROLS_MAX = 6;
  const NESTED_ROWS = new Set(['listitem', 'row', 'article']);

  /** One entry of a repeated collection (a todo item, a post in a feed, a table row). */
  function isRow(el: Element, tag: string, role: string): boolean {
    if (
      tag === 'TR' ||
      tag === 'LI' ||
      tag === 'ARTICLE' ||
      role === 'row' ||
      role === 'listitem' ||
      role === 'article'
    )
      return true;
    const cls = typeof el.className === 'string' ? el.className : '';
    if (!cls) return false;
    const same = (other: Element | null) => other !== null && other.tagName === tag && other.className === cls;
    return same(el.previousElementSibling) || same(el.nextElementSibling);
  }

  /**
   * Gives each control in a row that has no context yet the row's first text that is not the
   * control's own name (`pay the gas bill`, `@maria`), so same-named or unnamed controls in repeated
   * rows can be told apart. The format prints it only where it is needed.
   */
  function markRow(items: Items, hrefOf: (id: number) => string | undefined): void {
    const texts: Array<{ text: string; from: WalkNode | null }> = [];
    const controls: WalkNode[] = [];
    const links: WalkNode[] = [];
    let all = 0;
    const visit = (list: Items, owner: WalkNode | null, nested: boolean) => {
      for (const item of list) {
        if (all > ROW_CONTROLS_MAX) return;
        if (typeof item === 'string') {
          const text = norm(item).trim();
          if (!nested && text.length > 1 && /[\p{L}\p{N}]/u.test(text)) texts.push({ text, from: owner });
          continue;
        }
        if (isMarker(item)) continue;
        if (item.i) all++;
        if (item.i && item.x === undefined) controls.push(item);
        if (item.i && item.r === 'link' && item.n && item.id !== undefined) links.push(item);
        // the text of a row nested in this one (an item of a submenu) is its own, never this row's context
        if (item.n && item.r !== 'img' && !nested) texts.push({ text: item.n, from: item.i ? item : owner });
        if (item.c) visit(item.c, item.i ? item : owner, nested || (!item.i && NESTED_ROWS.has(item.r)));
      }
    };
    visit(items, null, false);
    // a "row" holding many controls is a page section or a menu, not one entry of a collection
    if (all > ROW_CONTROLS_MAX) return;
    // a card's second link to the same place under the same name (its headline and an overlay link
    // over the whole card) is one action: the later one is marked, interactive mode leaves it out
    const destinations = new Set<string>();
    for (const link of links) {
      const href = hrefOf(link.id!);
      if (!href) continue;
      const key = `${link.n}\u0000${href}`;
      if (destinations.has(key)) link.d = 1;
      else destinations.add(key);
    }
    for (const control of controls) {
      const found = texts.find(
        (entry) => entry.from !== control && entry.text !== control.n && entry.text !== control.h,
      );
      if (!found) continue;
      control.x = clip(found.text, ROW_CONTEXT_MAX);
      // two links to the same place need no telling apart: the format compares destinations
      const href = control.id !== undefined ? hrefOf(control.id) : undefined;
      if (href) control.u = href;
    }
  }

  /**
   * Group labels: short text that gives the controls beside it their context (a calendar's "May 2026"
   * between its prev/next links, "page 2 of 5" in a pager, a price beside its Buy button). Decided by
   * structure, in two steps: an element whose whole visible text is short, that is not prose (no <p>,
   * label, heading, caption, code) and not a fragment of running text (no text beside it in its parent),
   * becomes a pending `text` node; its parent then keeps it if the parent holds a few controls, or
   * turns it back into plain text (and may become a candidate itself, so "May" + "2026" read as one).
   */
  const GROUP_LABEL_MAX = 30;
  /** A group with more controls than this is a page section, not a widget: its short texts are not labels. */
  const GROUP_CONTROLS_MAX = 8;
  const PROSE_TAGS = new Set([
    'P',
    'LABEL',
    'LEGEND',
    'CAPTION',
    'FIGCAPTION',
    'SUMMARY',
    'BLOCKQUOTE',
    'PRE',
    'CODE',
    'H1',
    'H2',
    'H3',
    'H4',
    'H5',
    'H6',
  ]);
  const PROSE_ROLES = new Set(['paragraph', 'heading', 'caption', 'legend', 'code', 'blockquote', 'option', 'tooltip']);
  /** pending label node -> the items it replaced (put back when its group holds no control) */
  const pending = new Map<WalkNode, Items>();
  const CONTROL_SELECTOR = 'a[href], button, input, select, textarea, [role], [tabindex], [onclick]';

  /** A sibling that is text with words: the candidate is part of a sentence, not a label. */
  function besideText(node: Node): boolean {
    for (const step of ['previousSibling', 'nextSibling'] as const) {
      for (let at = node[step]; at; at = at[step]) {
        if (at.nodeType === 8) continue;
        if (at.nodeType === 3) {
          if (!(at.nodeValue || '').trim()) continue;
          return true;
        }
        break;
      }
    }
    return false;
  }

  /** A sibling element that is or holds a control (by markup: the walk has not reached it yet). */
  function controlLike(el: Element | null): boolean {
    return el !== null && (el.matches(CONTROL_SELECTOR) || el.querySelector(CONTROL_SELECTOR) !== null);
  }

  /**
   * Bare text between controls (`<nav><a>Prev</a> page 2 of 5 <a>Next</a></nav>`): the only text of
   * its parent, with a control on either side.
   */
  function betweenControls(node: Node): boolean {
    const parent = node.parentNode;
    if (!parent || parent.nodeType !== 1) return false;
    for (let at = parent.firstChild; at; at = at.nextSibling)
      if (at !== node && at.nodeType === 3 && (at.nodeValue || '').trim()) return false;
    let prev: Node | null = node.previousSibling;
    while (prev && prev.nodeType !== 1) prev = prev.previousSibling;
    let next: Node | null = node.nextSibling;
    while (next && next.nodeType !== 1) next = next.nextSibling;
    // text that opens or closes a sentence (`, including`, `Main article:`) is running text
    return prev !== null && next !== null && controlLike(prev as Element) && controlLike(next as Element);
  }

  /** Counts controls in the items, stopping past `max`. */
  function countControls(items: Items, max: number, seen = 0): number {
    for (const item of items) {
      if (seen > max) return seen;
      if (typeof item === 'string') continue;
      if (item.i || item.f !== undefined) seen++;
      if (item.c) seen = countControls(item.c, max, seen);
    }
    return seen;
  }

  /** Short words of a run of items that are text only; '' when anything else is among them. */
  function labelText(items: Items, from: number): string {
    let text = '';
    for (let index = from; index < items.length; index++) {
      const item = items[index]!;
      if (typeof item !== 'string') return '';
      text += item === '\n' ? ' ' : item;
      if (text.length > GROUP_LABEL_MAX * 4) return '';
    }
    text = norm(text).trim();
    // a piece of a sentence (`, including`, `and the`) is running text, not a label
    if (/^[,.;:!?)\]]|[,;]$/.test(text)) return '';
    return text.length <= GROUP_LABEL_MAX && /[\p{L}\p{N}]/u.test(text) ? text : '';
  }

  /** Replaces items[from..] by one pending label reading `text`. */
  function makeLabel(items: Items, from: number, text: string): void {
    const node: WalkNode = { r: 'text', n: text };
    pending.set(node, items.splice(from, items.length - from, node));
  }

  /**
   * Settles the labels pending among items[from..] (made by the element's children): kept when the
   * element holds between one and GROUP_CONTROLS_MAX controls and the label comes before one of them
   * (a price before its Buy button) or heads a widget of several (a month title beside prev/next);
   * plain text again otherwise (a date after a lone headline link is metadata, not a label).
   */
  function settleLabels(items: Items, from: number): void {
    const total = countControls(items.slice(from), GROUP_CONTROLS_MAX);
    const small = total > 0 && total <= GROUP_CONTROLS_MAX;
    let after = false;
    for (let index = items.length - 1; index >= from; index--) {
      const item = items[index]!;
      if (typeof item === 'string') continue;
      const original = pending.get(item);
      if (!original) {
        if (!after && countControls([item], 0) > 0) after = true;
        continue;
      }
      pending.delete(item);
      if (!small || (!after && total < 2)) items.splice(index, 1, ...original);
    }
  }

  return {
    prose: (tag, role) => PROSE_TAGS.has(tag) || PROSE_ROLES.has(role),
    pending: () => pending.size,
    reset: () => pending.clear(),
    textLabel(node: Node, items: Items): void {
      if ((node.nodeValue || '').length > GROUP_LABEL_MAX * 2 || !betweenControls(node)) return;
      const text = labelText(items, items.length - 1);
      if (text) makeLabel(items, items.length - 1, text);
    },
    elementLabel(el: Element, items: Items, from: number): void {
      if (items.length <= from || besideText(el)) return;
      const text = labelText(items, from);
      if (text) makeLabel(items, from, text);
    },
    settle: settleLabels,
    isRow,
    markRow,
  };
}
