/**
 * `canvas import`: a live element's subtree (read by the CANVAS_IMPORT page function) as one batch of
 * `node.insert` operations, so it is validated, atomic and undoable like any patch. Boxes become
 * parent-relative rects with the imported element at the page's origin.
 */
import type { CanvasNode, PatchOpInput } from '@argus/canvas';
import type { CanvasImportResult } from '@argus/snapshot';

/** Tags a text node keeps for its semantics (margin 0 from the import's style; `li` for its bullet). */
const TEXT_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'label', 'span', 'strong', 'em', 'small', 'li']);

const round = (value: number) => Math.round(value * 100) / 100;

export interface ImportPlan {
  ops: PatchOpInput[];
  root: string;
  size: string;
}

/** The operations that insert `read.items` under `pageId`, with ids that do not clash with `taken`. */
export function importOps(read: CanvasImportResult, pageId: string, taken: ReadonlySet<string>): ImportPlan {
  let prefix = 'n';
  for (let attempt = 1; [...taken].some((id) => id.startsWith(prefix)); attempt++) prefix = `imp${attempt}-`;
  const idOf = (index: number) => `${prefix}${index + 1}`;
  const ops: PatchOpInput[] = [];
  read.items.forEach((item, index) => {
    const parent = item.parent >= 0 ? read.items[item.parent] : undefined;
    const origin = parent?.rect ?? item.rect;
    const props: CanvasNode['props'] = {};
    if (item.text !== undefined) props.text = item.text;
    if (item.src !== undefined) props.src = item.src;
    if (item.alt !== undefined) props.alt = item.alt;
    if (item.href !== undefined) props.href = item.href;
    if (item.kind === 'text' && TEXT_TAGS.has(item.tag)) props.tag = item.tag;
    // a list item's box keeps its tag, so its bullet is drawn
    if (item.kind !== 'text' && item.tag === 'li' && item.style['listStyleType'] !== undefined) props.tag = 'li';
    ops.push({
      op: 'node.insert',
      pageId,
      parentId: parent ? idOf(item.parent) : null,
      node: {
        id: idOf(index),
        kind: item.kind,
        name: item.name,
        rect: {
          // children are placed from the parent's padding box, inside its border
          x: round(item.rect.x - (parent ? origin.x + parent.inset.left : item.rect.x)),
          y: round(item.rect.y - (parent ? origin.y + parent.inset.top : item.rect.y)),
          width: round(item.rect.width),
          height: round(item.rect.height),
        },
        props,
        style: item.style,
        tokenRefs: {},
      },
    });
  });
  const first = read.items[0];
  return {
    ops,
    root: idOf(0),
    size: first ? `${Math.round(first.rect.width)}x${Math.round(first.rect.height)}` : '0x0',
  };
}
