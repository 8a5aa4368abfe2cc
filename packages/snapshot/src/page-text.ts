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
 * to anything outside its own body. Hidden text (see page-visibility.ts) is left out, as is
 * aria-hidden content, the same rules the snapshot applies.
 */
export function textKit(vis: VisibilityKit): TextKit {
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
    'INPUT',
    'TEXTAREA',
  ]);

  function text(root: Element, frames: Element[]): string {
    vis.begin();
    const out: string[] = [];
    const visit = (node: Node, textHidden: boolean, boxHidden: boolean, hiddenVisibility: boolean, background: Rgb) => {
      if (node.nodeType === 3) {
        if (!textHidden && !boxHidden && !hiddenVisibility) out.push((node.nodeValue || '').replace(/\s+/g, ' '));
        return;
      }
      if (node.nodeType !== 1) return;
      const el = node as Element;
      const tag = el.tagName;
      if (SKIP.has(tag) || el.getAttribute('aria-hidden') === 'true') return;
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
      const host = el.shadowRoot ?? el;
      if (tag === 'SLOT') {
        const assigned = (el as HTMLSlotElement).assignedNodes();
        for (const child of assigned.length ? assigned : Array.from(el.childNodes))
          visit(child, ownTextHidden, boxHere, hiddenHere, bg);
      } else
        for (let child = host.firstChild; child; child = child.nextSibling)
          visit(child, ownTextHidden, boxHere, hiddenHere, bg);
      if (cell) out.push(' | ');
      else if (block) out.push('\n');
      else if (spaced) out.push(' ');
    };
    const rootStyle = root.parentElement ? getComputedStyle(root.parentElement) : null;
    visit(root, false, false, false, rootStyle ? vis.background(rootStyle, [255, 255, 255]) : [255, 255, 255]);
    return out
      .join('')
      .split('\n')
      .map((line) =>
        line
          .replace(/\s+/g, ' ')
          .replace(/^(?:\s*\|\s*)+|(?:\s*\|\s*)+$/g, '')
          .trim(),
      )
      .filter((line) => line.length > 0)
      .join('\n');
  }

  return { text };
}
