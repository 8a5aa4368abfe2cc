import type { DiffLine } from './diff.js';
import { LIVE_ROLES, clipWords } from './format-interactive.js';
import { type Item, findModal, isGroupLabel, rowLine } from './format-lines.js';
import type { WalkNode } from './walker-types.js';

/** An action's diff shows at most this many texts that appeared... */
const APPEARED_MAX = 3;
/** ...each cut at a word to about this many characters (the walker already cut each run at 100)... */
const APPEARED_TEXT_MAX = 100;
/** ...short ones (a toast, a message) before longer runs (content the action loaded). */
const SHORT_TEXT = 80;

/**
 * The page's own text in a walk's tree, in document order, as an action's diff compares it: text
 * runs, a table row of text cells as one (`a | b | c`), and headings. Left out: what `-i` already
 * prints, i.e. anything inside a control (its name says it), live regions (`status: Saved`) and group
 * labels (`text: May 2026`); and, with a modal dialog open, everything outside it (as `-i` shows).
 * Text the walker found hidden is not in the tree at all.
 */
export function pageTexts(root: WalkNode): string[] {
  const out: string[] = [];
  const push = (text: string) => {
    const clean = text.replace(/\s+/g, ' ').trim();
    // separators and bullets (`|`, `·`) say nothing on their own
    if (/[\p{L}\p{N}]/u.test(clean)) out.push(clean);
  };
  const visit = (items: Item[]) => {
    for (const item of items) {
      if (typeof item === 'string') {
        push(item);
        continue;
      }
      // a frame with a ref (tabindex) still holds its document's text
      if ((item.ref !== undefined || item.i) && item.f === undefined) continue;
      if (LIVE_ROLES.has(item.r) || isGroupLabel(item) || item.r === 'img') continue;
      if (item.r === 'heading' && item.n) push(item.n);
      const row = item.r === 'row' ? rowLine(item) : undefined;
      if (row !== undefined) push(row.slice('row: '.length));
      else if (item.c) visit(item.c);
    }
  };
  const top = root.c ?? [];
  const modal = findModal(top);
  visit(modal ? [modal] : top);
  return out;
}

/** The name in an `-i` heading line (`heading "Order placed…"`), its cut marker dropped. */
function headingName(unit: string): string | undefined {
  const line = unit.trim();
  if (!line.startsWith('heading "') || !line.endsWith('"')) return undefined;
  return line
    .slice('heading "'.length, -1)
    .replace(/\\(["\\])/g, '$1')
    .replace(/\u2026$/, '');
}

/**
 * The `+ text: …` lines an action's diff gains: text on the page after the action (`after`, from
 * pageTexts) that was nowhere on it before (`before`), so a bare toast or message the action made
 * appear (`<p>Saved!</p>`, a `div.toast`) is in the same reply as the controls it brought. Compared as
 * text, not as nodes: a list the page re-rendered with the same text adds nothing, while text shown
 * (`display: none` lifted), added, or changed in place does. Text `-i` prints already (an exact
 * `text: …` line, a heading line) is not said twice. Bounded whatever the page does: at most
 * APPEARED_MAX lines of about APPEARED_TEXT_MAX characters, then a count of the rest.
 */
export function appearedText(
  before: ReadonlySet<string>,
  after: readonly string[],
  units: readonly string[],
): DiffLine[] {
  const printed = new Set(units.map((unit) => unit.trim()));
  const headings = units.flatMap((unit) => headingName(unit) ?? []).filter(Boolean);
  const seen = new Set<string>();
  const fresh: string[] = [];
  for (const text of after) {
    if (before.has(text) || seen.has(text)) continue;
    seen.add(text);
    if (printed.has(`text: ${text}`) || headings.some((name) => text.startsWith(name))) continue;
    fresh.push(text);
  }
  const ordered = [
    ...fresh.filter((text) => text.length <= SHORT_TEXT),
    ...fresh.filter((text) => text.length > SHORT_TEXT),
  ];
  const lines: DiffLine[] = ordered
    .slice(0, APPEARED_MAX)
    .map((text) => ({ op: '+', line: `text: ${clipWords(text, APPEARED_TEXT_MAX)}` }));
  const more = ordered.length - APPEARED_MAX;
  if (more > 0) lines.push({ op: '+', line: `(${more} more new text${more === 1 ? '' : 's'})` });
  return lines;
}
