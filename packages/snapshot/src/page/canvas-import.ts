import { z } from 'zod';
import { pageFunctionWith } from './page-function.js';
import { isSecretField } from './secret-field.js';

/**
 * `canvas.import`: an element's rendered subtree as flat design items in paint (document) order: each
 * item's box from layout (viewport CSS px), the computed styles that draw it, its text, image source
 * or link. Text inside mixed content becomes its own item boxed by a Range. Hidden elements are left
 * out; past `maxNodes` the walk stops and says so. The daemon turns items into canvas nodes.
 */
const ImportItem = z.object({
  parent: z.number().int().min(-1),
  kind: z.enum(['frame', 'text', 'shape', 'image']),
  tag: z.string().max(32),
  name: z.string().max(256),
  rect: z.object({ x: z.number(), y: z.number(), width: z.number().min(0), height: z.number().min(0) }),
  /** Border widths left and top: children are placed from the padding box, inside them. */
  inset: z.object({ left: z.number(), top: z.number() }),
  text: z.string().max(100_000).optional(),
  src: z.string().max(1_000_000).optional(),
  alt: z.string().max(10_000).optional(),
  href: z.string().max(8192).optional(),
  style: z.record(z.string().max(64), z.string().max(4096)),
});

export const CanvasImport = z.object({
  items: z.array(ImportItem),
  truncated: z.boolean(),
  skipped: z.number().int(),
  title: z.string().max(1000),
  url: z.string().max(8192),
});
export type CanvasImportResult = z.infer<typeof CanvasImport>;

export const CANVAS_IMPORT = pageFunctionWith({ isSecretField })(
  'canvasImport',
  CanvasImport,
  function (this: Element, kit, maxNodes: number) {
    type Item = z.infer<typeof ImportItem>;
    const items: Item[] = [];
    let truncated = false;
    let skipped = 0;
    const TRANSPARENT = 'rgba(0, 0, 0, 0)';
    const TEXT_STYLE = [
      'color',
      'fontFamily',
      'fontSize',
      'fontWeight',
      'fontStyle',
      'lineHeight',
      'letterSpacing',
      'textAlign',
      'textTransform',
      'textDecorationLine',
      'whiteSpace',
    ];
    const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
    const rectOf = (box: DOMRect) => ({ x: box.left, y: box.top, width: box.width, height: box.height });
    const textStyle = (css: CSSStyleDeclaration, style: Record<string, string>) => {
      for (const name of TEXT_STYLE) {
        const value = css.getPropertyValue(kebab(name));
        if (
          value &&
          !(name === 'textDecorationLine' && value === 'none') &&
          !(name === 'letterSpacing' && value === 'normal')
        )
          style[name] = value;
      }
      style.margin = '0';
    };
    const boxStyle = (css: CSSStyleDeclaration, style: Record<string, string>) => {
      if (css.backgroundColor && css.backgroundColor !== TRANSPARENT) style.backgroundColor = css.backgroundColor;
      if (css.backgroundImage && css.backgroundImage !== 'none' && css.backgroundImage.length < 4000) {
        style.backgroundImage = css.backgroundImage;
        style.backgroundSize = css.backgroundSize;
        style.backgroundPosition = css.backgroundPosition;
        style.backgroundRepeat = css.backgroundRepeat;
      }
      const sides = ['Top', 'Right', 'Bottom', 'Left'].map((side) => {
        const width = css.getPropertyValue('border-' + side.toLowerCase() + '-width');
        const line = css.getPropertyValue('border-' + side.toLowerCase() + '-style');
        const colour = css.getPropertyValue('border-' + side.toLowerCase() + '-color');
        return { side, value: line === 'none' || parseFloat(width) === 0 ? '' : width + ' ' + line + ' ' + colour };
      });
      if (sides.every((entry) => entry.value === sides[0]?.value)) {
        if (sides[0]?.value) style.border = sides[0].value;
      } else for (const entry of sides) if (entry.value) style['border' + entry.side] = entry.value;
      const corners = [
        css.borderTopLeftRadius,
        css.borderTopRightRadius,
        css.borderBottomRightRadius,
        css.borderBottomLeftRadius,
      ];
      if (corners.some((corner) => corner && parseFloat(corner) !== 0))
        style.borderRadius = corners.every((corner) => corner === corners[0]) ? corners[0] || '0' : corners.join(' ');
      if (css.boxShadow && css.boxShadow !== 'none') style.boxShadow = css.boxShadow;
      if (css.opacity && css.opacity !== '1') style.opacity = css.opacity;
      if (css.overflow === 'hidden' || css.overflow === 'clip') style.overflow = 'hidden';
    };
    const padding = (css: CSSStyleDeclaration, style: Record<string, string>) => {
      const value = [css.paddingTop, css.paddingRight, css.paddingBottom, css.paddingLeft].join(' ');
      if (value !== '0px 0px 0px 0px') style.padding = value;
    };
    const listItem = (css: CSSStyleDeclaration, style: Record<string, string>) => {
      if (css.display !== 'list-item') return;
      // its marker: kept for bullets; a numbered list's counters do not survive absolute boxes
      const type = css.listStyleType;
      style.listStyleType = ['disc', 'circle', 'square', 'none'].includes(type) ? type : 'none';
      style.listStylePosition = css.listStylePosition;
    };
    const nameOf = (el: Element) => {
      const tag = el.tagName.toLowerCase();
      const cls = typeof el.className === 'string' ? el.className.trim().split(/\s+/)[0] : '';
      return (tag + (el.id ? '#' + el.id : cls ? '.' + cls : '')).slice(0, 256);
    };
    const push = (item: Item): number => {
      if (items.length >= maxNodes) {
        truncated = true;
        return -2;
      }
      items.push(item);
      return items.length - 1;
    };
    const visible = (css: CSSStyleDeclaration) =>
      css.display !== 'none' && css.visibility !== 'hidden' && css.visibility !== 'collapse' && css.opacity !== '0';
    const hasElementChildren = (el: Element) => Array.from(el.children).some((child) => child.tagName !== 'BR');
    const ownText = (el: Element) =>
      Array.from(el.childNodes).some((node) => node.nodeType === 3 && (node.textContent || '').trim() !== '');

    /** What a form field shows: its value (a fixed mask for secrets, so not even the length is kept), else its placeholder. */
    const fieldText = (el: Element): string => {
      if (el instanceof HTMLSelectElement) return el.selectedOptions[0]?.textContent || '';
      const input = el as HTMLInputElement | HTMLTextAreaElement;
      if (input.value && kit.isSecretField(el)) return '••••••••';
      return input.value || input.placeholder || '';
    };
    /** A checkbox or radio: its box drawn as the page draws it, its state as a mark (its value, "on", means nothing). */
    const toggle = (
      el: HTMLInputElement,
      css: CSSStyleDeclaration,
      parent: number,
      rect: Item['rect'],
      inset: Item['inset'],
    ) => {
      const radio = el.type === 'radio';
      // Chromium's own blue unless the page sets accent-color
      const accent = css.getPropertyValue('accent-color');
      const mark = accent && accent !== 'auto' ? accent : '#0075ff';
      const size = Math.min(rect.width, rect.height);
      push({
        parent,
        kind: 'text',
        tag: 'input',
        name: (nameOf(el) + (el.checked ? ' (checked)' : ' (unchecked)')).slice(0, 256),
        rect,
        inset,
        text: el.checked ? (radio ? '●' : '✓') : '',
        style: {
          boxSizing: 'border-box',
          border: '1px solid #767676',
          borderRadius: radio ? '50%' : '2px',
          backgroundColor: el.checked && !radio ? mark : '#ffffff',
          color: el.checked && !radio ? '#ffffff' : mark,
          fontSize: Math.max(6, Math.round(size * 0.8)) + 'px',
          lineHeight: rect.height + 'px',
          textAlign: 'center',
          margin: '0',
        },
      });
    };

    const walk = (el: Element, parent: number): void => {
      if (truncated) return;
      const css = getComputedStyle(el);
      if (!visible(css)) {
        skipped++;
        return;
      }
      const tag = el.tagName.toLowerCase();
      if (['script', 'style', 'noscript', 'template', 'head', 'meta', 'link'].includes(tag)) return;
      const style: Record<string, string> = {};
      const rect = rectOf(el.getBoundingClientRect());
      const inset = { left: el.clientLeft || 0, top: el.clientTop || 0 };
      boxStyle(css, style);
      if (parent === -1 && !style.backgroundColor) {
        // the root shows what is behind it: the nearest painted ancestor's colour, else white
        for (let at = el.parentElement; at; at = at.parentElement) {
          const fill = getComputedStyle(at).backgroundColor;
          if (fill && fill !== TRANSPARENT) {
            style.backgroundColor = fill;
            break;
          }
        }
        if (!style.backgroundColor) style.backgroundColor = '#ffffff';
      }
      if (tag === 'img') {
        const img = el as HTMLImageElement;
        push({
          parent,
          kind: 'image',
          tag,
          name: nameOf(el),
          rect,
          inset,
          src: img.currentSrc || img.src,
          alt: img.alt,
          style,
        });
        return;
      }
      if (tag === 'svg') {
        const clone = el.cloneNode(true) as Element;
        clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
        clone.setAttribute('width', String(rect.width));
        clone.setAttribute('height', String(rect.height));
        if (!clone.getAttribute('fill') && css.fill) clone.setAttribute('fill', css.fill);
        if (!clone.getAttribute('color')) clone.setAttribute('color', css.color);
        const markup = new XMLSerializer().serializeToString(clone);
        if (markup.length <= 50_000) {
          const src = 'data:image/svg+xml;base64,' + btoa(unescape(encodeURIComponent(markup)));
          push({
            parent,
            kind: 'image',
            tag,
            name: nameOf(el),
            rect,
            inset,
            src,
            alt: el.getAttribute('aria-label') || '',
            style,
          });
        } else skipped++;
        return;
      }
      if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
        toggle(el, css, parent, rect, inset);
        return;
      }
      const href = tag === 'a' ? (el as HTMLAnchorElement).href : undefined;
      const field = tag === 'input' || tag === 'textarea' || tag === 'select';
      if (field || (!hasElementChildren(el) && ownText(el))) {
        // a leaf of text (or a form field showing its value): laid out inside its own box
        const text = field ? fieldText(el) : (el as HTMLElement).innerText || el.textContent || '';
        const textOnly: Record<string, string> = {};
        textStyle(css, textOnly);
        if (text.includes('\n') && !/^pre/.test(css.whiteSpace)) textOnly.whiteSpace = 'pre-line';
        listItem(css, textOnly);
        if (css.display === 'inline' && el.getClientRects().length === 1) {
          // one inline fragment: its box is the font's content area, so the line is exactly that tall
          textOnly.lineHeight = rect.height + 'px';
          textOnly.whiteSpace = 'pre';
        }
        const link = href ? { href } : {};
        // where the text really sits: a table cell or a flex box may centre it vertically
        const contentTop = rect.y + inset.top + parseFloat(css.paddingTop);
        const contents = document.createRange();
        contents.selectNodeContents(el);
        const drawn = field ? undefined : contents.getBoundingClientRect();
        if (!drawn || drawn.height === 0 || Math.abs(drawn.top - contentTop) <= 1) {
          padding(css, style);
          push({
            parent,
            kind: 'text',
            tag,
            name: nameOf(el),
            rect,
            inset,
            text,
            ...link,
            style: { ...style, ...textOnly },
          });
          return;
        }
        // the box (when it draws anything) as a frame, the text boxed across its content width at its real height
        const left = rect.x + inset.left + parseFloat(css.paddingLeft);
        const width = el.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight);
        const textRect = { x: left, y: drawn.top, width: Math.max(0, width), height: drawn.height };
        let holder = parent;
        if (Object.keys(style).length > 0) {
          holder = push({ parent, kind: 'frame', tag, name: nameOf(el), rect, inset, style });
          if (holder < 0) return;
        }
        push({
          parent: holder,
          kind: 'text',
          tag,
          name: nameOf(el),
          rect: textRect,
          inset: { left: 0, top: 0 },
          text,
          ...link,
          style: textOnly,
        });
        return;
      }
      listItem(css, style);
      const index = push({
        parent,
        kind: el.children.length || ownText(el) ? 'frame' : 'shape',
        tag,
        name: nameOf(el),
        rect,
        inset,
        ...(href ? { href } : {}),
        style,
      });
      if (index < 0) return;
      for (const child of Array.from(el.childNodes)) {
        if (truncated) return;
        if (child.nodeType === 1) walk(child as Element, index);
        else if (child.nodeType === 3 && (child.textContent || '').trim() !== '') {
          // text among elements: its own item, boxed by a Range, in its parent's font
          // the Range spans the visible glyphs only: edge whitespace may or may not be drawn
          const raw = child.textContent || '';
          const start = raw.search(/\S/);
          const end = raw.length - (raw.length - raw.trimEnd().length);
          const range = document.createRange();
          range.setStart(child, start);
          range.setEnd(child, end);
          const box = range.getBoundingClientRect();
          if (box.width === 0 || box.height === 0) continue;
          const runStyle: Record<string, string> = {};
          textStyle(css, runStyle);
          const text = raw.slice(start, end).replace(/\s+/g, ' ');
          // one line: drawn exactly in its box (no wrap, no edge trimming); several: wrapped again
          if (range.getClientRects().length <= 1) {
            runStyle.whiteSpace = 'pre';
            runStyle.lineHeight = box.height + 'px'; // the run's box is the font's content area
          }
          const item = {
            parent: index,
            kind: 'text' as const,
            tag: '#text',
            name: text.slice(0, 40),
            rect: rectOf(box),
            inset: { left: 0, top: 0 },
            text,
            style: runStyle,
          };
          if (push(item) < 0) return;
        }
      }
    };
    walk(this, -1);
    return { items, truncated, skipped, title: document.title.slice(0, 1000), url: location.href.slice(0, 8192) };
  },
);
