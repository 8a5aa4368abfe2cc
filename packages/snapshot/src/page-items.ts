import type { WalkNode } from './walker-types.js';

type Items = Array<WalkNode | string>;

/** The walk's output list (text runs and nodes) and the text helpers every walker module shares. */
export interface ItemsKit {
  /** Marker items for text a person cannot see: it may name the control it is in, never page text. */
  HIDDEN: string;
  /** Marker items for an icon font's ligature or glyph (`favorite`): a hint, not a name. */
  ICON: string;
  /** Elements the walk never enters (and the locators never look into). */
  SKIP: Set<string>;
  norm(s: string): string;
  /** cuts `s` to `max` characters, ending in … */
  clip(s: string, max: number): string;
  isMarker(item: WalkNode | string): boolean;
  /** Joins walked items into plain text (names from content); `hidden` lets visually hidden text in. */
  flatText(items: Items, hidden?: boolean): string;
  /** The first icon-font ligature among the items (`favorite`), for a hint. */
  iconText(items: Items): string;
  /** Merges adjacent text runs; '\n' marks a block boundary that must not be merged across. Markers go. */
  finish(items: Items, max: number): Items;
  /** The interactive nodes (and frames) among the items, flattened into `into`. */
  onlyInteractive(items: Items, into: WalkNode[]): WalkNode[];
}

/**
 * Runs INSIDE the page (serialised into the walker's bundle, see frame-eval.ts): it must not refer
 * to anything outside its own body.
 */
export function itemsKit(): ItemsKit {
  const HIDDEN = '#hidden';
  const ICON = '#icon';
  const SKIP = new Set([
    'SCRIPT',
    'STYLE',
    'NOSCRIPT',
    'TEMPLATE',
    'HEAD',
    'META',
    'LINK',
    'TITLE',
    'DATALIST',
    'SOURCE',
    'TRACK',
    'PARAM',
    'BASE',
    'OPTION',
    'OPTGROUP',
  ]);
  const norm = (s: string) => s.replace(/\s+/g, ' ');
  const clip = (s: string, max: number) => (s.length > max ? s.slice(0, max - 1).trimEnd() + '…' : s);
  const isMarker = (item: WalkNode | string): boolean =>
    typeof item !== 'string' && (item.r === HIDDEN || item.r === ICON);

  function flatText(items: Items, hidden = false): string {
    let out = '';
    for (const item of items) {
      if (typeof item === 'string') out += item === '\n' ? ' ' : item;
      else if (item.r === HIDDEN) out += hidden ? item.n : '';
      else if (item.r !== ICON) out += ' ' + (item.n || (item.c ? flatText(item.c, hidden) : '')) + ' ';
    }
    return norm(out).trim();
  }

  function iconText(items: Items): string {
    for (const item of items) {
      if (typeof item === 'string') continue;
      if (item.r === ICON && item.n && /^[a-z][a-z0-9_ -]*$/i.test(item.n)) return item.n;
      if (item.c && !item.i) {
        const inner = iconText(item.c);
        if (inner) return inner;
      }
    }
    return '';
  }

  function finish(items: Items, max: number): Items {
    const out: Items = [];
    let text = '';
    const flush = () => {
      const t = norm(text).trim();
      if (t) out.push(clip(t, max));
      text = '';
    };
    for (const item of items) {
      if (typeof item === 'string') {
        if (item === '\n') flush();
        else text += item;
      } else if (!isMarker(item)) {
        flush();
        out.push(item);
      }
    }
    flush();
    return out;
  }

  function onlyInteractive(items: Items, into: WalkNode[]): WalkNode[] {
    for (const item of items) {
      if (typeof item === 'string') continue;
      if (item.i || item.f !== undefined) into.push(item);
      else if (item.c) onlyInteractive(item.c, into);
    }
    return into;
  }

  return { HIDDEN, ICON, SKIP, norm, clip, isMarker, flatText, iconText, finish, onlyInteractive };
}
