import { pageFunctionWith } from './page-function.js';

/** Every element under `root` matching `selector`, through open shadow roots, in document order. */
function deepAll(root: Node, selector: string): Element[] {
  const out: Element[] = [];
  const visit = (node: Node) => {
    if (node.nodeType === 1 && (node as Element).matches(selector)) out.push(node as Element);
    const shadow = (node as Element).shadowRoot;
    if (shadow) visit(shadow);
    for (let child = (node as ParentNode).firstElementChild; child; child = child.nextElementSibling) visit(child);
  };
  if (root.nodeType === 9) {
    const html = (root as Document).documentElement;
    if (html) visit(html);
  } else visit(root);
  return out;
}

/** Whitespace collapsed and trimmed; null and undefined read as ''. */
function norm(text: string | null | undefined): string {
  return String(text || '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Helpers the reading page functions share (serialised with each of them). */
export const readKit = { deepAll, norm };
export type ReadKit = typeof readKit;

/** Defines a reading page function: `this` is the document or a scoping element, `kit` the helpers above. */
export const readFunction = pageFunctionWith(readKit);
