import type { ItemsKit } from './page-items.js';
import type { Rgb, VisibilityKit } from './page-visibility.js';

export interface TextKit {
  /**
   * The text a person sees in `root`, in reading order: blocks on their own lines, table cells
   * separated by ` | `, adjacent controls by a space, a select's chosen option only. Each visible
   * iframe is pushed onto `frames` and marked in the text by `\u0000<index>\u0000`, which the engine
   * replaces with that frame's own text.
   */
  text(root: Element, frames: Element[]): string;
}

/**
 * Runs INSIDE the page (serialised into the walker's bundle, see frame-eval.ts): it must not refer
 * to anything outside its own body and the kits it is given. Follows `innerText`'s rules for what is rendered (display:none,
 * visibility, a closed <details> but its summary, content-visibility:hidden) and for white space
 * (<pre> and `white-space: pre*` keep theirs); unlike innerText it also reads shadow DOM and frames,
 * and leaves out text only laid out to be unseen (see page-visibility.ts). aria-hidden content is
 * kept: it hides from screen readers, not from the eye.
 */
export function textKit(vis: VisibilityKit, items: ItemsKit): TextKit {
  // what the walk skips, and form fields: their value is not text on the page
  const SKIP = new Set([...items.SKIP, 'INPUT', 'TEXTAREA']);

  // white space a `white-space: pre*` element keeps, marked so the line clean-up below leaves it be:
  // control characters no page draws (a private-use one could be an icon font's glyph)
  const SPACE = '\u0001';
  const TAB = '\u0002';
  const BREAK = '\u0003';
  /** How an element's text treats white space: 0 collapses it, 1 keeps line breaks (pre-line), 2 keeps it all. */
  const keeps = (style: CSSStyleDeclaration): 0 | 1 | 2 => {
    const collapse = style.whiteSpaceCollapse || style.whiteSpace;
    if (collapse === 'preserve' || collapse === 'break-spaces' || collapse === 'pre' || collapse === 'pre-wrap')
      return 2;
    return collapse === 'preserve-breaks' || collapse === 'pre-line' ? 1 : 0;
  };
  const runText = (value: string, keep: 0 | 1 | 2): string => {
    // eslint-disable-next-line no-control-regex -- the page's own copies of the markers are dropped
    const clean = value.replace(/[\u0001-\u0003]/g, '');
    if (keep === 0) return clean.replace(/\s+/g, ' ');
    if (keep === 1) return clean.replace(/[ \t\f\r]*\n[ \t\f\r]*/g, BREAK).replace(/[ \t\f\r]+/g, ' ');
    return clean.split(' ').join(SPACE).split('\t').join(TAB).split('\n').join(BREAK);
  };
  /** A line with its kept white space back; a kept line break at its start or end is the block's own. */
  const restore = (line: string): string => {
    let start = 0;
    let end = line.length;
    while (start < end && line[start] === BREAK) start++;
    while (end > start && line[end - 1] === BREAK) end--;
    return line.slice(start, end).split(SPACE).join(' ').split(TAB).join('\t').split(BREAK).join('\n');
  };

  function text(root: Element, frames: Element[]): string {
    vis.begin();
    const out: string[] = [];
    /** `keep`: how the parent treats white space (see keeps), for a text node's run */
    const visit = (
      node: Node,
      textHidden: boolean,
      boxHidden: boolean,
      hiddenVisibility: boolean,
      background: Rgb,
      keep: 0 | 1 | 2,
    ) => {
      if (node.nodeType === 3) {
        if (!textHidden && !boxHidden && !hiddenVisibility) out.push(runText(node.nodeValue || '', keep));
        return;
      }
      if (node.nodeType !== 1) return;
      const el = node as Element;
      const tag = el.tagName;
      if (SKIP.has(tag)) return;
      const style = getComputedStyle(el);
      const display = style.display;
      if (display === 'none') return;
      const hiddenHere = style.visibility !== 'visible';
      const boxHere = boxHidden || vis.hiddenBox(el, style, display);
      const bg = vis.background(style, background);
      if (tag === 'BR') {
        out.push('\n');
        return;
      }
      if (tag === 'IFRAME' || tag === 'FRAME') {
        if (hiddenHere || boxHere) return;
        const rect = el.getBoundingClientRect();
        if (rect.width <= 0 || rect.height <= 0) return;
        out.push(`\n\u0000${frames.length}\u0000\n`);
        frames.push(el);
        return;
      }
      if (tag === 'SELECT') {
        if (hiddenHere || boxHere) return;
        const chosen = Array.from((el as HTMLSelectElement).selectedOptions, (option) =>
          (option.label || option.text).replace(/\s+/g, ' ').trim(),
        );
        out.push(` ${chosen.join(', ')} `);
        return;
      }
      const cell = display === 'table-cell';
      const block = !cell && !display.startsWith('inline') && display !== 'contents';
      // inline boxes that are controls or blocks in a line: "Delete" "Delete" must not read "DeleteDelete"
      const spaced = display.startsWith('inline-') || tag === 'BUTTON' || tag === 'IMG' || tag === 'svg';
      if (block) out.push('\n');
      else if (spaced) out.push(' ');
      const ownTextHidden = vis.hiddenText(style, bg);
      const ownKeep = keeps(style);
      const host = el.shadowRoot ?? el;
      // content-visibility:hidden renders the box, not what is in it (also `hidden="until-found"`)
      if (style.contentVisibility === 'hidden') {
        // nothing inside is drawn
      } else if (tag === 'DETAILS' && !(el as HTMLDetailsElement).open) {
        // a closed <details> draws only its summary (the first one)
        const summary = Array.from(el.children).find((child) => child.tagName === 'SUMMARY');
        if (summary) visit(summary, ownTextHidden, boxHere, hiddenHere, bg, ownKeep);
      } else if (tag === 'SLOT') {
        const assigned = (el as HTMLSlotElement).assignedNodes();
        for (const child of assigned.length ? assigned : Array.from(el.childNodes))
          visit(child, ownTextHidden, boxHere, hiddenHere, bg, ownKeep);
      } else
        for (let child = host.firstChild; child; child = child.nextSibling)
          visit(child, ownTextHidden, boxHere, hiddenHere, bg, ownKeep);
      if (cell) out.push(' | ');
      else if (block) out.push('\n');
      else if (spaced) out.push(' ');
    };
    const rootStyle = root.parentElement ? getComputedStyle(root.parentElement) : null;
    visit(root, false, false, false, rootStyle ? vis.background(rootStyle, [255, 255, 255]) : [255, 255, 255], 0);
    return out
      .join('')
      .split('\n')
      .map((line) =>
        restore(
          line
            .replace(/\s+/g, ' ')
            .replace(/^(?:\s*\|\s*)+|(?:\s*\|\s*)+$/g, '')
            .trim(),
        ),
      )
      .filter((line) => line.trim().length > 0)
      .join('\n');
  }

  return { text };
}
