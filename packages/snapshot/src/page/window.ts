import { z } from 'zod';
import { deepHit } from './actionability.js';
import { pageFunction, pageFunctionWith } from './page-function.js';

/** The window's scroll offsets, reported after a scroll. */
export const SCROLL_POSITION = pageFunction(
  'scrollPosition',
  z.object({ x: z.number(), y: z.number() }),
  function (this: unknown) {
    return { x: window.scrollX, y: window.scrollY };
  },
);

/** The layout viewport in CSS pixels and the device pixel ratio. */
export const VIEWPORT_SIZE = pageFunction(
  'viewportSize',
  z.object({ width: z.number(), height: z.number(), dpr: z.number() }),
  function (this: unknown) {
    return { width: window.innerWidth, height: window.innerHeight, dpr: window.devicePixelRatio };
  },
);

/** Resolves on the renderer's next frame (true), or after a second without one (false). */
export const NEXT_FRAME = pageFunction('nextFrame', z.boolean(), function (this: unknown) {
  return new Promise<boolean>((resolve) => {
    requestAnimationFrame(() => resolve(true));
    setTimeout(() => resolve(false), 1000);
  });
});

/**
 * Whether a press on `node` starts an HTML5 drag: the nearest draggable element, link or image from it
 * up the flat tree (slots, shadow hosts), so an element of a shadow root is not seen as its host;
 * `draggable="false"` stops the walk. Self-contained (serialised as a kit helper).
 */
function draggableFrom(node: Node | null): boolean {
  let el: Element | null = node && node.nodeType === 1 ? (node as Element) : (node?.parentElement ?? null);
  for (; el; el = el.assignedSlot || el.parentElement || ((el.parentNode as ShadowRoot | null)?.host ?? null)) {
    const draggable = el.getAttribute('draggable');
    if (draggable === 'true') return true;
    if (draggable === 'false') return false;
    if (el.matches('a[href], img')) return true;
  }
  return false;
}

/**
 * Whether a press at (x, y) starts an HTML5 drag (draggableFrom), from what the press reaches through
 * open shadow roots (the actions' deepHit). `'frame'` when that is an <iframe> or <frame>: the press
 * lands in the frame's document, which this one cannot see into (draggableAt in ../drag-source.ts
 * asks the element at the point there).
 */
export const DRAGGABLE_AT = pageFunctionWith({ deepHit, draggableFrom })(
  'draggableAt',
  z.union([z.boolean(), z.literal('frame')]),
  function (this: unknown, kit, x: number, y: number) {
    const hit = kit.deepHit(x, y);
    if (hit && (hit.tagName === 'IFRAME' || hit.tagName === 'FRAME')) return 'frame' as const;
    return kit.draggableFrom(hit);
  },
);

/** Whether a press on this node (the one a hit test found in a frame's document) starts an HTML5 drag. */
export const DRAGGABLE_NODE = pageFunctionWith({ draggableFrom })(
  'draggableNode',
  z.boolean(),
  function (this: Node, kit) {
    return kit.draggableFrom(this);
  },
);

/** Clicks a same-origin URL as `<a download>` (keeps the page's cookies and referrer). */
export const CLICK_DOWNLOAD_LINK = pageFunction(
  'clickDownloadLink',
  z.literal(true),
  function (this: unknown, url: string) {
    const a = document.createElement('a');
    a.href = url;
    a.download = '';
    a.style.display = 'none';
    document.documentElement.appendChild(a);
    a.click();
    a.remove();
    return true as const;
  },
);

/** The document's visible text (`innerText` of the body). */
export const BODY_TEXT = pageFunction('bodyText', z.string(), function (this: unknown) {
  return document.body ? document.body.innerText : '';
});

/** The document's title (`read.title` of a frame chosen with `argus frame`: the tab's title is the top document's). */
export const DOCUMENT_TITLE = pageFunction('documentTitle', z.string(), function (this: unknown) {
  return document.title;
});

/** The document's readyState. */
export const READY_STATE = pageFunction('readyState', z.string(), function (this: unknown) {
  return document.readyState;
});

/**
 * Scrolls the window by (dx, dy); a null dy is one screen down. Instantly, even where the page asks
 * for smooth scrolling (`scroll-behavior: smooth`): the position reported next is where it went.
 */
export const SCROLL_BY = pageFunction(
  'scrollBy',
  z.literal(true),
  function (this: unknown, dx: number, dy: number | null) {
    window.scrollBy({ left: dx, top: dy === null ? window.innerHeight : dy, behavior: 'instant' });
    return true as const;
  },
);
