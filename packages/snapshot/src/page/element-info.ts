import { z } from 'zod';
import { pageFunction } from './page-function.js';

/** `inspect.style`: one computed style property of the element. */
export const COMPUTED_STYLE = pageFunction('computedStyle', z.string(), function (this: Element, property: string) {
  return getComputedStyle(this).getPropertyValue(property);
});

/** `inspect.attributes`: the element's tag and attributes. */
export const ATTRIBUTES = pageFunction(
  'attributes',
  z.object({ tag: z.string(), attributes: z.record(z.string(), z.string()) }),
  function (this: Element) {
    const attributes: Record<string, string> = {};
    for (const attribute of Array.from(this.attributes || [])) attributes[attribute.name] = attribute.value;
    return { tag: this.tagName ? this.tagName.toLowerCase() : this.nodeName.toLowerCase(), attributes };
  },
);

/** `dom.frame`: whether the element is an <iframe> or <frame>. */
export const IS_FRAME = pageFunction('isFrame', z.boolean(), function (this: Element) {
  return this.tagName === 'IFRAME' || this.tagName === 'FRAME';
});

const FrameOwnerShape = z.object({
  tag: z.string(),
  id: z.string(),
  name: z.string(),
  src: z.string(),
  index: z.number(),
});
export type FrameOwner = z.output<typeof FrameOwnerShape>;

/**
 * `dom.frame`: what an <iframe> (or <frame>) is known by when the page replaces it with another:
 * its tag, id, name and src attributes, and its place among the frames of its document (or shadow
 * root) that have the same four.
 */
export const FRAME_OWNER = pageFunction('frameOwner', FrameOwnerShape, function (this: Element) {
  const key = (element: Element) =>
    [
      element.localName,
      element.getAttribute('id') ?? '',
      element.getAttribute('name') ?? '',
      element.getAttribute('src') ?? '',
    ].join('\n');
  const mine = key(this);
  const root = this.getRootNode() as Document | ShadowRoot;
  const alike = Array.from(root.querySelectorAll('iframe, frame')).filter((element) => key(element) === mine);
  return {
    tag: this.localName,
    id: this.getAttribute('id') ?? '',
    name: this.getAttribute('name') ?? '',
    src: this.getAttribute('src') ?? '',
    index: alike.indexOf(this),
  };
});

const UploadTarget = z.object({
  kind: z.enum(['file', 'field', 'other']),
  multiple: z.boolean().optional(),
  disabled: z.boolean().optional(),
  type: z.string().optional(),
});

/**
 * `files.upload`: what kind of upload target an element is: a file input; a field that takes typed or
 * picked values (a text input, checkbox, select, textarea: its click never opens a file chooser); or
 * anything else, whose click may open one.
 */
export const UPLOAD_TARGET = pageFunction('uploadTarget', UploadTarget, function (this: Element) {
  const tag = this.tagName;
  const input = this as HTMLInputElement;
  if (tag === 'INPUT' && input.type === 'file')
    return { kind: 'file' as const, multiple: input.multiple, disabled: input.disabled };
  if (tag === 'INPUT' && !['button', 'submit', 'reset', 'image'].includes(input.type))
    return { kind: 'field' as const, type: 'input type=' + input.type };
  if (tag === 'TEXTAREA' || tag === 'SELECT') return { kind: 'field' as const, type: tag.toLowerCase() };
  return { kind: 'other' as const };
});

/** `canvas.nodeOf`: the id of the nearest design-canvas node (`data-canvas-node`) holding the element, or null. */
export const CANVAS_NODE = pageFunction('canvasNode', z.string().nullable(), function (this: Element) {
  const owner = this.closest ? this.closest('[data-canvas-node]') : null;
  return owner ? owner.getAttribute('data-canvas-node') : null;
});
