import { z } from 'zod';
import { pageFunction } from './page-function.js';

/** `read text`: the visible text (innerText) of the element, or of the page with no `this`, cut at `maxChars`. */
export const ELEMENT_TEXT = pageFunction(
  'elementText',
  z.object({ text: z.string(), truncated: z.boolean() }),
  function (this: Element | undefined, maxChars: number) {
    const root = (this && this.nodeType === 1 ? this : document.body || document.documentElement) as HTMLElement;
    const text = (root.innerText ?? root.textContent ?? '').replace(/\n{3,}/g, '\n\n').trim();
    return text.length > maxChars ? { text: text.slice(0, maxChars), truncated: true } : { text, truncated: false };
  },
);

/** `read html`: the element's outerHTML, or the document's with no `this`, cut at `maxChars`. */
export const ELEMENT_HTML = pageFunction(
  'elementHtml',
  z.object({ html: z.string(), truncated: z.boolean() }),
  function (this: Element | undefined, maxChars: number) {
    const root = this && this.nodeType === 1 ? this : document.documentElement;
    const html = root.outerHTML;
    return html.length > maxChars ? { html: html.slice(0, maxChars), truncated: true } : { html, truncated: false };
  },
);
