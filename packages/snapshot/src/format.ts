import type { WalkNode } from './walker-types.js';

export interface FormatOptions {
  interactive?: boolean;
  /** deepest indentation level printed (0 = top level only) */
  depth?: number;
}

import {
  INDENT,
  TRANSPARENT,
  nodeLine,
  isGroupLabel,
  bare,
  rowLine,
  pruneContexts,
  type Item,
} from './format-lines.js';
import { type FormattedSnapshot, formatInteractive } from './format-interactive.js';

export { nodeLine } from './format-lines.js';
export { clipWords, type FormattedSnapshot } from './format-interactive.js';

/**
 * The default view: the page's structure, text clipped, every interactive element with its ref.
 * `printed.refs` counts the refs written (only nodeLine writes one).
 */
function formatFull(items: Item[], level: number, maxDepth: number, out: string[], printed: { refs: number }): void {
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
      else formatFull(kids, level, maxDepth, out, printed);
      continue;
    }
    if (item.ref) printed.refs++;
    if (kids.length === 1 && typeof kids[0] === 'string' && item.v === undefined) {
      out.push(`${pad}${nodeLine(item)}: ${kids[0]}`);
      continue;
    }
    out.push(pad + nodeLine(item));
    if (kids.length) formatFull(kids, level + 1, maxDepth, out, printed);
  }
}

export function formatSnapshot(root: WalkNode, options: FormatOptions = {}): FormattedSnapshot {
  const maxDepth = options.depth ?? Number.POSITIVE_INFINITY;
  const items = pruneContexts(root).c ?? [];
  if (options.interactive) return formatInteractive(items, maxDepth);
  const out: string[] = [];
  const printed = { refs: 0 };
  formatFull(items, 0, maxDepth, out, printed);
  return { lines: out, units: out, refs: printed.refs };
}

export function formatTree(root: WalkNode, options: FormatOptions = {}): string[] {
  return formatSnapshot(root, options).lines;
}
