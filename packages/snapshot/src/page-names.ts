import type { ItemsKit } from './page-items.js';

/** Accessible names and the hints that stand in for a missing one (the in-page half; see page-walker.ts). */
export interface NamesKit {
  /** the name from aria-labelledby, aria-label, labels, alt, legend, caption, svg title */
  explicitName(el: Element, tag: string, role: string): string;
  /** title, then placeholder: used when content gives no name */
  lateName(el: Element): string;
  /** a short description for a control that has no accessible name; never empty */
  fallbackHint(el: Element): string;
  /** an unnamed frame is told apart by where it comes from */
  frameHint(el: Element): string;
  /** the text label beside a field that has no name: the text before it in its line or table cell */
  besideLabel(el: Element): string;
}

/**
 * Runs INSIDE the page (serialised into the walker's bundle, see frame-eval.ts): it must not refer
 * to anything outside its own body and the kit it is given (the items kit's skipped elements and
 * white-space and clipping rules).
 */
export function namesKit(items: ItemsKit): NamesKit {
  const { SKIP, norm, clip } = items;

  function textOfIds(el: Element, attr: string): string {
    const root = el.getRootNode() as Document | ShadowRoot;
    const parts: string[] = [];
    for (const id of (el.getAttribute(attr) || '').split(/\s+/)) {
      if (!id) continue;
      const target = root.getElementById ? root.getElementById(id) : null;
      if (target)
        parts.push(target.getAttribute('aria-label') || (target as HTMLElement).innerText || target.textContent || '');
    }
    return norm(parts.join(' ')).trim();
  }

  /** Text of a label minus the control(s) it wraps (a wrapping label's textContent includes option texts). */
  function labelText(label: Element): string {
    let out = '';
    const visit = (node: Node) => {
      for (let child = node.firstChild; child; child = child.nextSibling) {
        if (child.nodeType === 3) out += child.nodeValue;
        else if (child.nodeType === 1) {
          const tag = (child as Element).tagName;
          if (tag === 'SELECT' || tag === 'TEXTAREA' || tag === 'INPUT' || tag === 'BUTTON' || SKIP.has(tag)) continue;
          // a part of the label hidden from everyone (display none, visibility hidden) is not in its name;
          // visually hidden (sr-only) text is
          const style = getComputedStyle(child as Element);
          if (style.display === 'none' || style.visibility === 'hidden') continue;
          if (tag === 'IMG') out += ' ' + ((child as Element).getAttribute('alt') || '') + ' ';
          else visit(child);
        }
      }
    };
    visit(label);
    return norm(out).trim();
  }

  function explicitName(el: Element, tag: string, role: string): string {
    let name = el.hasAttribute('aria-labelledby') ? textOfIds(el, 'aria-labelledby') : '';
    if (name) return name;
    name = (el.getAttribute('aria-label') || '').trim();
    if (name) return norm(name);
    if (
      tag === 'INPUT' ||
      tag === 'SELECT' ||
      tag === 'TEXTAREA' ||
      tag === 'METER' ||
      tag === 'PROGRESS' ||
      tag === 'OUTPUT'
    ) {
      const labels = (el as HTMLInputElement).labels;
      if (labels && labels.length) {
        name = Array.from(labels, labelText).join(' ').trim();
        if (name) return name;
      }
      if (tag === 'INPUT') {
        const input = el as HTMLInputElement;
        const type = input.type;
        if (type === 'submit' || type === 'reset' || type === 'button')
          return norm(input.value) || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '');
        if (type === 'image') return el.getAttribute('alt') || input.value || '';
      }
    }
    if (tag === 'IMG' || tag === 'AREA') return norm(el.getAttribute('alt') || '').trim();
    if (tag === 'FIELDSET') {
      const legend = el.querySelector(':scope > legend');
      if (legend) return norm(legend.textContent || '').trim();
    }
    if (tag === 'TABLE') {
      const caption = (el as HTMLTableElement).caption;
      if (caption) return norm(caption.textContent || '').trim();
    }
    if (tag === 'svg' || tag === 'SVG') {
      const title = el.querySelector(':scope > title');
      if (title) return norm(title.textContent || '').trim();
    }
    return role === 'iframe' ? (el.getAttribute('title') || '').trim() : '';
  }

  function lateName(el: Element): string {
    const title = el.getAttribute('title');
    if (title && title.trim()) return norm(title).trim();
    const placeholder = el.getAttribute('placeholder') || el.getAttribute('aria-placeholder');
    return placeholder ? norm(placeholder).trim() : '';
  }

  const ICON_CLASS =
    /(?:^|[-_])(?:icon|ico|fa|fas|far|fab|glyphicon|bi|mdi|ti|lucide|octicon|material-icons|material-symbols[a-z-]*|svg)(?:$|[-_])/i;
  const ICON_PREFIX = /^(?:fa[srlbd]?|icon|ico|glyphicon|bi|mdi|ti|lucide|octicon|svg|i)[-_]+/i;

  const GENERIC_ICON =
    /^(?:icon|ico|icons|fa[srlbd]?|solid|regular|light|lg|sm|xs|\d*x|fw|inline|small|large|wrapper|container|sprite|svg|img|image|button|btn|link|default|primary|secondary)$/i;

  function iconToken(cls: string): string {
    for (const token of cls.split(/\s+/)) {
      if (!token || !ICON_CLASS.test(token)) continue;
      const stripped = token
        .replace(ICON_PREFIX, '')
        .replace(/[-_]+(?:icon|ico)$/i, '')
        .replace(/^-+|-+$/g, '');
      if (stripped && !GENERIC_ICON.test(stripped)) return stripped;
    }
    return '';
  }

  /** A short description for a control that has no accessible name. Never empty. */
  function fallbackHint(el: Element): string {
    const candidates: Element[] = [el];
    const inner = el.querySelectorAll('svg, i, span, img, use, [class*=icon], [data-icon]');
    for (let k = 0; k < inner.length && k < 6; k++) candidates.push(inner[k]!);
    for (const candidate of candidates) {
      const title = candidate.getAttribute('title') || candidate.querySelector?.('title')?.textContent;
      if (title && title.trim()) return 'icon: ' + clip(norm(title).trim(), 40);
      const alt = candidate.tagName === 'IMG' ? candidate.getAttribute('alt') : null;
      if (alt && alt.trim()) return 'icon: ' + clip(norm(alt).trim(), 40);
      const dataIcon = candidate.getAttribute('data-icon');
      if (dataIcon) return 'icon: ' + dataIcon;
      const href =
        candidate.tagName.toLowerCase() === 'use'
          ? candidate.getAttribute('href') || candidate.getAttribute('xlink:href')
          : null;
      if (href && href.includes('#')) return 'icon: ' + href.slice(href.indexOf('#') + 1).replace(ICON_PREFIX, '');
      const cls = typeof candidate.className === 'string' ? candidate.className : candidate.getAttribute('class') || '';
      const token = cls ? iconToken(cls) : '';
      if (token) return 'icon: ' + token;
    }
    const src =
      el.tagName === 'IMG' || el.tagName === 'INPUT'
        ? el.getAttribute('src')
        : el.querySelector('img')?.getAttribute('src');
    if (src) {
      const file = src.split(/[?#]/)[0]!.split('/').pop() || '';
      if (file) return 'img: ' + clip(file.replace(/\.[a-z0-9]+$/i, ''), 40);
    }
    const href = el.getAttribute('href');
    if (href && !href.startsWith('javascript:')) {
      // the most telling part of a URL is usually its last path segment (an article slug)
      const path = href.replace(/^[a-z]+:\/\/[^/]+|^\/\/[^/]+/i, '').split(/[?#]/)[0] || '';
      const segments = path
        .split('/')
        .filter((part) => part && !/^(?:(?:index|default)(?:\.[a-z]+)?|\d+)$/i.test(part));
      const last = (segments.pop() || href).replace(/\.[a-z]+$/i, '');
      return 'href: ' + clip(last, 40);
    }
    if (el.id) return 'id: ' + clip(el.id, 40);
    const cls = (typeof el.className === 'string' ? el.className : '').trim().split(/\s+/)[0];
    if (cls) return 'class: ' + clip(cls, 40);
    const testid = el.getAttribute('data-testid');
    if (testid) return 'testid: ' + testid;
    return el.tagName.toLowerCase();
  }

  /** An unnamed frame is told apart by where it comes from: `src: ads.example/frame`. */
  function frameHint(el: Element): string {
    const src = el.getAttribute('src') || '';
    if (!src || src === 'about:blank') return el.id ? 'id: ' + clip(el.id, 40) : 'src: ' + (src || 'none');
    const short = src
      .replace(/^[a-z]+:\/\/(?:www\.)?/i, '')
      .replace(/^\/\//, '')
      .split(/[?#]/)[0]!
      .replace(/\/+$/, '');
    return 'src: ' + clip(short, 40);
  }

  const FIELD_OR_BREAK = new Set(['BR', 'INPUT', 'SELECT', 'TEXTAREA', 'BUTTON', 'HR']);
  /**
   * Short text that reads as a label: shown, no control inside, not a paragraph. innerText of an
   * element that is not rendered is its raw textContent, so what is never drawn (<noscript> while
   * scripts run, <template>, <script>, <style>, anything display:none) must be refused first.
   */
  const labelLike = (el: Element | null): string => {
    if (
      !el ||
      SKIP.has(el.tagName) ||
      !el.checkVisibility({ visibilityProperty: true }) ||
      (el as HTMLElement).isContentEditable ||
      el.matches('a[href], [role], [tabindex], [onclick]') ||
      el.querySelector('input, select, textarea, button, a[href], [contenteditable]')
    )
      return '';
    const text = norm((el as HTMLElement).innerText || '').trim();
    return text.length <= 40 ? text : '';
  };

  function besideLabel(el: Element): string {
    // the text right before the field on its line: `Last name: <input>`
    let text = '';
    for (let node = el.previousSibling; node && !text.trim(); node = node.previousSibling) {
      if (node.nodeType === 3) text = node.nodeValue || '';
      else if (node.nodeType === 1) {
        if (FIELD_OR_BREAK.has((node as Element).tagName)) break;
        text = labelLike(node as Element);
      }
    }
    text = norm(text).trim();
    if (text) return text.length <= 40 ? text : '';
    // the field alone in its table cell or wrapper: the cell or block before it
    let holder: Element | null = el;
    for (let depth = 0; depth < 3 && holder && holder.parentElement; depth++) {
      const parent: Element = holder.parentElement;
      if (norm((parent as HTMLElement).innerText || '').trim()) break;
      holder = parent;
      const previous = holder.previousElementSibling;
      const found = labelLike(previous);
      if (found) return found;
    }
    return '';
  }

  return { explicitName, lateName, fallbackHint, frameHint, besideLabel };
}
