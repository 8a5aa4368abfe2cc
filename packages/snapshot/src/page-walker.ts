import type { WalkNode, WalkOptions, WalkResult } from './walker-types.js';

/** What `installArgus` puts on the isolated world's `globalThis.__argus`. */
export interface ArgusPageApi {
  v: number;
  token: string;
  snapshot(options: WalkOptions): WalkResult;
  get(id: number, token: string): Element | null;
  frameAt(index: number): Element | null;
  lastIds: number[];
  label(el: Element): string;
  coverage(selector: string): { total: number; ids: number[]; missed: string[] };
  locate(kind: 'role' | 'text' | 'label', role: string, value: string | null, exact: boolean, max: number): LocateResult;
}

/** Visible elements a semantic locator matches, in document order: ids (for refs) and labels of the first few. */
export interface LocateResult {
  total: number;
  ids: number[];
  labels: string[];
}

/**
 * Runs INSIDE the page (Argus isolated world), serialized with `.toString()`: it must not refer
 * to anything outside its own body. Installs `globalThis.__argus` once per document and returns it.
 * One call walks the whole frame (light DOM, open shadow roots, slots) and returns a compact tree:
 * roles, names, states, values, and ids for interactive elements. Ids live in a WeakMap, so a DOM
 * node keeps its id for the life of the document and a re-created node gets a new one.
 */
export function installArgus(): ArgusPageApi {
  const G = globalThis as unknown as { __argus?: ArgusPageApi };
  const VERSION = 6;
  if (G.__argus && G.__argus.v === VERSION) return G.__argus;

  const ids = new WeakMap<Element, number>();
  const nodes = new Map<number, WeakRef<Element>>();
  let nextId = 1;
  let frames: Element[] = [];
  const token = Math.random().toString(36).slice(2, 10);

  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'TITLE', 'DATALIST', 'SOURCE', 'TRACK', 'PARAM', 'BASE', 'OPTION', 'OPTGROUP']);
  const INTERACTIVE_ROLES = new Set([
    'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option',
    'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton', 'treeitem', 'gridcell', 'scrollbar', 'listbox',
  ]);
  const NAME_FROM_CONTENT = new Set([
    'button', 'link', 'heading', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem', 'checkbox',
    'radio', 'switch', 'columnheader', 'rowheader', 'tooltip', 'clickable', 'legend', 'caption',
  ]);
  /** roles that never get their own line unless named: their content is hoisted into the parent */
  const HOIST = new Set(['generic', 'presentation', 'none', 'paragraph', 'group', 'region', 'figure', 'blockquote', 'code', 'term', 'definition', 'legend', 'caption', 'note', 'emphasis', 'strong', 'time', 'mark', 'deletion', 'insertion', 'subscript', 'superscript']);
  const INPUT_ROLES: Record<string, string> = {
    checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton', search: 'searchbox', submit: 'button',
    reset: 'button', button: 'button', image: 'button', file: 'button', color: 'button',
  };
  const SIMPLE_ROLES: Record<string, string> = {
    BUTTON: 'button', TEXTAREA: 'textbox', NAV: 'navigation', MAIN: 'main', ASIDE: 'complementary', SEARCH: 'search',
    FORM: 'form', ARTICLE: 'article', DIALOG: 'dialog', UL: 'list', OL: 'list', MENU: 'list', LI: 'listitem', TABLE: 'table',
    TR: 'row', TD: 'cell', CAPTION: 'caption', P: 'paragraph', BLOCKQUOTE: 'blockquote', FIGURE: 'figure', HR: 'separator',
    PROGRESS: 'progressbar', METER: 'meter', OUTPUT: 'status', FIELDSET: 'group', LEGEND: 'legend', DETAILS: 'group',
    IFRAME: 'iframe', FRAME: 'iframe', H1: 'heading', H2: 'heading', H3: 'heading', H4: 'heading', H5: 'heading', H6: 'heading',
    PRE: 'code', DT: 'term', DD: 'definition', SECTION: 'region',
  };

  const norm = (s: string) => s.replace(/\s+/g, ' ');
  const clip = (s: string, max: number) => (s.length > max ? s.slice(0, max - 1).trimEnd() + '…' : s);

  function idOf(el: Element): number {
    let id = ids.get(el);
    if (id === undefined) {
      id = nextId++;
      ids.set(el, id);
      nodes.set(id, new WeakRef(el));
    }
    return id;
  }

  function implicitRole(el: Element, tag: string): string | null {
    const simple = SIMPLE_ROLES[tag];
    if (simple) return simple;
    switch (tag) {
      case 'A':
      case 'AREA':
        return el.hasAttribute('href') ? 'link' : null;
      case 'INPUT': {
        const type = ((el as HTMLInputElement).type || 'text').toLowerCase();
        if (type === 'hidden') return null;
        if (INPUT_ROLES[type]) return INPUT_ROLES[type]!;
        return el.hasAttribute('list') ? 'combobox' : 'textbox';
      }
      case 'SELECT':
        return (el as HTMLSelectElement).multiple || (el as HTMLSelectElement).size > 1 ? 'listbox' : 'combobox';
      case 'IMG':
        return el.getAttribute('alt') === '' && !el.hasAttribute('title') ? 'presentation' : 'img';
      case 'SVG':
      case 'svg':
        return 'img';
      case 'TH':
        return el.getAttribute('scope') === 'row' ? 'rowheader' : 'columnheader';
      case 'HEADER':
      case 'FOOTER':
        return el.parentElement?.closest('article,aside,main,nav,section,[role=article],[role=main],[role=region]')
          ? null
          : tag === 'HEADER'
            ? 'banner'
            : 'contentinfo';
      case 'SUMMARY':
        return el.parentElement?.tagName === 'DETAILS' ? 'button' : null;
      default:
        return null;
    }
  }

  function textOfIds(el: Element, attr: string): string {
    const root = el.getRootNode() as Document | ShadowRoot;
    const parts: string[] = [];
    for (const id of (el.getAttribute(attr) || '').split(/\s+/)) {
      if (!id) continue;
      const target = root.getElementById ? root.getElementById(id) : null;
      if (target) parts.push(target.getAttribute('aria-label') || (target as HTMLElement).innerText || target.textContent || '');
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
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || tag === 'METER' || tag === 'PROGRESS' || tag === 'OUTPUT') {
      const labels = (el as HTMLInputElement).labels;
      if (labels && labels.length) {
        name = Array.from(labels, labelText).join(' ').trim();
        if (name) return name;
      }
      if (tag === 'INPUT') {
        const input = el as HTMLInputElement;
        const type = input.type;
        if (type === 'submit' || type === 'reset' || type === 'button') return norm(input.value) || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '');
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

  const ICON_CLASS = /(?:^|[-_])(?:icon|ico|fa|fas|far|fab|glyphicon|bi|mdi|ti|lucide|octicon|material-icons|material-symbols[a-z-]*|svg)(?:$|[-_])/i;
  const ICON_PREFIX = /^(?:fa[srlbd]?|icon|ico|glyphicon|bi|mdi|ti|lucide|octicon|svg|i)[-_]+/i;

  const GENERIC_ICON = /^(?:icon|ico|icons|fa[srlbd]?|solid|regular|light|lg|sm|xs|\d*x|fw|inline|small|large|wrapper|container|sprite|svg|img|image|button|btn|link|default|primary|secondary)$/i;

  function iconToken(cls: string): string {
    for (const token of cls.split(/\s+/)) {
      if (!token || !ICON_CLASS.test(token)) continue;
      const stripped = token.replace(ICON_PREFIX, '').replace(/[-_]+(?:icon|ico)$/i, '').replace(/^-+|-+$/g, '');
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
      const href = candidate.tagName.toLowerCase() === 'use' ? candidate.getAttribute('href') || candidate.getAttribute('xlink:href') : null;
      if (href && href.includes('#')) return 'icon: ' + href.slice(href.indexOf('#') + 1).replace(ICON_PREFIX, '');
      const cls = typeof candidate.className === 'string' ? candidate.className : candidate.getAttribute('class') || '';
      const token = cls ? iconToken(cls) : '';
      if (token) return 'icon: ' + token;
    }
    const src = el.tagName === 'IMG' || el.tagName === 'INPUT' ? el.getAttribute('src') : el.querySelector('img')?.getAttribute('src');
    if (src) {
      const file = src.split(/[?#]/)[0]!.split('/').pop() || '';
      if (file) return 'img: ' + clip(file.replace(/\.[a-z0-9]+$/i, ''), 40);
    }
    const href = el.getAttribute('href');
    if (href && !href.startsWith('javascript:')) {
      // the most telling part of a URL is usually its last path segment (an article slug)
      const path = href.replace(/^[a-z]+:\/\/[^/]+|^\/\/[^/]+/i, '').split(/[?#]/)[0] || '';
      const segments = path.split('/').filter((part) => part && !/^(?:(?:index|default)(?:\.[a-z]+)?|\d+)$/i.test(part));
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
    const short = src.replace(/^[a-z]+:\/\/(?:www\.)?/i, '').replace(/^\/\//, '').split(/[?#]/)[0]!.replace(/\/+$/, '');
    return 'src: ' + clip(short, 40);
  }

  function states(el: Element, tag: string, role: string): string[] | undefined {
    const out: string[] = [];
    const attr = (name: string) => el.getAttribute(name);
    if (tag === 'INPUT' && (role === 'checkbox' || role === 'radio')) {
      const input = el as HTMLInputElement;
      if (input.indeterminate) out.push('checked=mixed');
      else if (input.checked) out.push('checked');
    } else {
      const checked = attr('aria-checked');
      if (checked === 'true') out.push('checked');
      else if (checked === 'mixed') out.push('checked=mixed');
    }
    if (attr('aria-selected') === 'true') out.push('selected');
    const pressed = attr('aria-pressed');
    if (pressed === 'true') out.push('pressed');
    else if (pressed === 'mixed') out.push('pressed=mixed');
    const expanded = attr('aria-expanded');
    if (expanded === 'true' || expanded === 'false') out.push(expanded === 'true' ? 'expanded' : 'expanded=false');
    else if (tag === 'SUMMARY' && role === 'button') out.push((el.parentElement as HTMLDetailsElement).open ? 'expanded' : 'expanded=false');
    if (attr('aria-disabled') === 'true' || ((tag === 'BUTTON' || tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') && el.matches(':disabled'))) out.push('disabled');
    if (attr('aria-required') === 'true' || (el as HTMLInputElement).required === true) out.push('required');
    const invalid = attr('aria-invalid');
    if ((invalid && invalid !== 'false') || ((tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') && el.matches(':user-invalid'))) out.push('invalid');
    if (role === 'heading') out.push('level=' + (attr('aria-level') || (/^H[1-6]$/.test(tag) ? tag[1] : '2')));
    const current = attr('aria-current');
    if (current && current !== 'false') out.push(current === 'true' ? 'current' : 'current=' + current);
    return out.length ? out : undefined;
  }

  function valueOf(el: Element, tag: string, role: string, max: number): string | undefined {
    if (tag === 'INPUT') {
      const input = el as HTMLInputElement;
      const type = input.type;
      if (type === 'checkbox' || type === 'radio' || type === 'submit' || type === 'reset' || type === 'button' || type === 'image') return undefined;
      if (type === 'file') return input.files && input.files.length ? Array.from(input.files, (f) => f.name).join(', ') : undefined;
      if (!input.value) return undefined;
      return type === 'password' ? '••••' : clip(norm(input.value), max);
    }
    if (tag === 'TEXTAREA') return (el as HTMLTextAreaElement).value ? clip(norm((el as HTMLTextAreaElement).value), max) : undefined;
    if (tag === 'SELECT') {
      const selected = Array.from((el as HTMLSelectElement).selectedOptions, (o) => norm(o.label || o.text).trim());
      return selected.length ? clip(selected.join(', '), max) : undefined;
    }
    const now = el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow');
    if (now && (role === 'slider' || role === 'spinbutton' || role === 'progressbar' || role === 'meter' || role === 'scrollbar')) return now;
    if (tag === 'PROGRESS' || tag === 'METER') return String((el as HTMLProgressElement).value);
    if ((role === 'textbox' || role === 'searchbox' || role === 'combobox') && (el as HTMLElement).isContentEditable) {
      const text = norm(el.textContent || '').trim();
      return text ? clip(text, max) : undefined;
    }
    return undefined;
  }

  /** Joins walked items into plain text (names from content). */
  function flatText(items: Array<WalkNode | string>): string {
    let out = '';
    for (const item of items) {
      if (typeof item === 'string') out += item === '\n' ? ' ' : item;
      else out += ' ' + (item.n || (item.c ? flatText(item.c) : '')) + ' ';
    }
    return norm(out).trim();
  }

  /** Merges adjacent text runs; '\n' marks a block boundary that must not be merged across. */
  function finish(items: Array<WalkNode | string>, max: number): Array<WalkNode | string> {
    const out: Array<WalkNode | string> = [];
    let text = '';
    const flush = () => {
      const t = norm(text).trim();
      if (t) out.push(clip(t, max));
      text = '';
    };
    for (const item of items) {
      if (typeof item === 'string') {
        if (item === '\n') flush();
        else text += item;
      } else {
        flush();
        out.push(item);
      }
    }
    flush();
    return out;
  }

  function onlyInteractive(items: Array<WalkNode | string>, into: WalkNode[]): WalkNode[] {
    for (const item of items) {
      if (typeof item === 'string') continue;
      if (item.i || item.f !== undefined) into.push(item);
      else if (item.c) onlyInteractive(item.c, into);
    }
    return into;
  }

  let textMax = 100;
  let lastIds: number[] = [];

  function walkChildren(parent: Node, out: Array<WalkNode | string>, ctx: Ctx): void {
    const host = parent as Element;
    if (host.shadowRoot) parent = host.shadowRoot;
    else if (host.tagName === 'SLOT') {
      const assigned = (host as HTMLSlotElement).assignedNodes();
      if (assigned.length) {
        for (const node of assigned) walkNode(node, out, ctx);
        return;
      }
    }
    for (let child = parent.firstChild; child; child = child.nextSibling) walkNode(child, out, ctx);
  }

  interface Ctx {
    /** inside an element that already is interactive (a pointer cursor there is inherited) */
    inInteractive: boolean;
    parentPointer: boolean;
    ariaHidden: boolean;
    hiddenVisibility: boolean;
  }

  function walkNode(node: Node, out: Array<WalkNode | string>, ctx: Ctx): void {
    if (node.nodeType === 3) {
      if (!ctx.ariaHidden && !ctx.hiddenVisibility) {
        const value = node.nodeValue;
        if (value) out.push(value);
      }
      return;
    }
    if (node.nodeType !== 1) return;
    const el = node as Element;
    const tag = el.tagName;
    if (SKIP.has(tag)) return;
    const style = getComputedStyle(el);
    const display = style.display;
    if (display === 'none') return;
    const hiddenVisibility = style.visibility !== 'visible';
    const ariaHidden = ctx.ariaHidden || el.getAttribute('aria-hidden') === 'true';
    const explicitRole = (el.getAttribute('role') || '').trim().split(/\s+/)[0] || '';
    let role = explicitRole || implicitRole(el, tag) || '';
    if (role === 'presentation' || role === 'none') role = explicitRole && el.hasAttribute('tabindex') ? '' : role;

    const pointer = style.cursor === 'pointer';
    let interactive = false;
    if (!hiddenVisibility) {
      if (INTERACTIVE_ROLES.has(role) && role !== 'gridcell' && role !== 'listbox' && role !== 'scrollbar') interactive = true;
      else if (tag === 'A' && el.hasAttribute('href')) interactive = true;
      else if (el.hasAttribute('tabindex') || el.hasAttribute('onclick')) interactive = true;
      else if ((role === 'gridcell' || role === 'listbox') && (el.hasAttribute('tabindex') || pointer)) interactive = true;
      else if ((el as HTMLElement).isContentEditable && !(el.parentElement && (el.parentElement as HTMLElement).isContentEditable)) interactive = true;
      else if (pointer && !ctx.parentPointer && !ctx.inInteractive && tag !== 'LABEL' && tag !== 'HTML' && tag !== 'BODY') interactive = true;
      if (interactive) {
        const rect = el.getBoundingClientRect();
        if (rect.width <= 0 || rect.height <= 0) interactive = false;
      }
    }
    if (interactive && !role) role = pointer || el.hasAttribute('onclick') ? 'clickable' : 'generic';
    if (interactive && (el as HTMLElement).isContentEditable && (!role || role === 'generic' || role === 'clickable')) role = 'textbox';

    if (role === 'iframe') {
      if (hiddenVisibility) return;
      const rect = el.getBoundingClientRect();
      if (rect.width <= 0 || rect.height <= 0) return;
      const name = explicitName(el, tag, role);
      const frameNode: WalkNode = { r: 'iframe', f: frames.length };
      if (name) frameNode.n = clip(name, textMax);
      else frameNode.h = frameHint(el);
      if (el.hasAttribute('tabindex') || el.hasAttribute('onclick')) {
        frameNode.i = 1;
        frameNode.id = idOf(el);
        lastIds.push(frameNode.id);
      }
      frames.push(el);
      out.push(frameNode);
      return;
    }

    const childCtx: Ctx = {
      inInteractive: ctx.inInteractive || interactive,
      parentPointer: pointer,
      // a control kept inside aria-hidden content (a menu hidden from screen readers only) still needs
      // its text as its name; an aria-hidden part inside the control (an icon glyph) hides itself
      ariaHidden: interactive ? false : ariaHidden,
      hiddenVisibility,
    };
    const block = !display.startsWith('inline') && display !== 'contents';

    // aria-hidden content is dropped except controls inside it that can still be clicked
    if (ariaHidden && !interactive) {
      const inner: Array<WalkNode | string> = [];
      if (tag !== 'svg' && tag !== 'SELECT') walkChildren(el, inner, childCtx);
      for (const item of onlyInteractive(inner, [])) out.push(item);
      return;
    }

    if (!interactive && (!role || HOIST.has(role) || hiddenVisibility) && !(role && (role === 'region' || role === 'group') && (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby')))) {
      if (tag === 'svg' || tag === 'CANVAS' || tag === 'VIDEO' || tag === 'AUDIO') return;
      if (tag === 'BR') {
        out.push('\n');
        return;
      }
      if (tag === 'DETAILS' && !(el as HTMLDetailsElement).open) {
        const summary = el.querySelector(':scope > summary');
        if (summary) walkNode(summary, out, childCtx);
        return;
      }
      if (block) out.push('\n');
      walkChildren(el, out, childCtx);
      if (block) out.push('\n');
      return;
    }
    if (role === 'img' && !interactive) {
      if (hiddenVisibility) return;
      const name = explicitName(el, tag, role) || lateName(el);
      if (!name) return;
      out.push({ r: 'img', n: clip(name, textMax) });
      return;
    }

    const result: WalkNode = { r: role };
    const items: Array<WalkNode | string> = [];
    if (tag !== 'SELECT' && tag !== 'TEXTAREA' && tag !== 'svg' && tag !== 'IMG') walkChildren(el, items, childCtx);
    let name = explicitName(el, tag, role);
    // a clickable wrapper around real content (a card, a whole section) keeps its content as children
    const container = (role === 'clickable' || role === 'generic') && items.some((item) => typeof item !== 'string' && !item.i && item.f === undefined);
    const fromContent = NAME_FROM_CONTENT.has(role) && !container;
    if (!name && fromContent) {
      name = flatText(items);
      if (role === 'clickable' && name.length > textMax) name = '';
    }
    if (!name) name = lateName(el);
    if (name) result.n = clip(name, textMax);
    if (fromContent && name && role !== 'columnheader' && role !== 'rowheader') {
      const kept = onlyInteractive(items, []);
      if (kept.length) result.c = kept;
    } else {
      const kids = finish(items, textMax);
      if (kids.length) result.c = kids;
    }
    const st = states(el, tag, role);
    if (st) result.s = st;
    if (interactive) {
      result.i = 1;
      const id = idOf(el);
      result.id = id;
      lastIds.push(id);
      const value = valueOf(el, tag, role, textMax);
      if (value !== undefined) result.v = value;
      if (!result.n && (!result.c || (role !== 'clickable' && role !== 'generic'))) result.h = fallbackHint(el);
    }
    if (block) out.push('\n');
    out.push(result);
    if (block) out.push('\n');
  }

  function label(el: Element): string {
    const role = roleOf(el);
    const name = nameOf(el, role);
    // one line, quotes escaped: a page cannot end the quoted name early in an action's report
    return name ? `${role} "${clip(norm(name).trim(), 60).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : `${role} (${fallbackHint(el).replace(/[()]/g, '')})`;
  }

  function snapshot(options: WalkOptions): WalkResult {
    textMax = options.textMax;
    frames = [];
    lastIds = [];
    if (nodes.size > 20000) for (const [id, ref] of nodes) if (!ref.deref()) nodes.delete(id);
    let root: Element | null = document.body || document.documentElement;
    if (options.rootId !== undefined) {
      root = api.get(options.rootId, token);
      if (!root) return { token, title: document.title, tree: null, frames: 0, error: 'scope_not_found' };
    } else if (options.rootSelector) {
      try {
        root = document.querySelector(options.rootSelector);
      } catch {
        return { token, title: document.title, tree: null, frames: 0, error: 'bad_selector' };
      }
      if (!root) return { token, title: document.title, tree: null, frames: 0, error: 'scope_not_found' };
    }
    const items: Array<WalkNode | string> = [];
    if (root) {
      const ctx: Ctx = { inInteractive: false, parentPointer: false, ariaHidden: false, hiddenVisibility: false };
      if (root === document.body || root === document.documentElement) walkChildren(root, items, ctx);
      else walkNode(root, items, ctx);
    }
    const kids = finish(items, textMax);
    const tree: WalkNode = { r: 'root' };
    if (kids.length) tree.c = kids;
    api.lastIds = lastIds;
    return { token, title: document.title, tree, frames: frames.length };
  }

  /** Bench/diagnostics: visible elements matching `selector`, and the ids of those the last walk emitted. */
  function coverage(selector: string): { total: number; ids: number[]; missed: string[] } {
    const emitted = new Set(api.lastIds);
    let total = 0;
    const found: number[] = [];
    const missed: string[] = [];
    for (const el of Array.from(document.querySelectorAll(selector))) {
      if (!shown(el)) continue;
      total++;
      const id = ids.get(el);
      if (id !== undefined && emitted.has(id)) found.push(id);
      else if (missed.length < 10) missed.push(el.outerHTML.slice(0, 160));
    }
    return { total, ids: found, missed };
  }

  /** Every element below `root` in document order, through open shadow roots. */
  function eachElement(root: Element | ShadowRoot, visit: (el: Element) => boolean | void): void {
    for (let child = root.firstElementChild; child; child = child.nextElementSibling) {
      if (SKIP.has(child.tagName)) continue;
      // visit returns false to skip the element's subtree
      if (visit(child) === false) continue;
      if (child.shadowRoot) eachElement(child.shadowRoot, visit);
      eachElement(child, visit);
    }
  }

  function shown(el: Element): boolean {
    if (!el.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions)) return false;
    const rect = el.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0;
  }

  function roleOf(el: Element): string {
    return (el.getAttribute('role') || '').trim().split(/\s+/)[0] || implicitRole(el, el.tagName) || 'generic';
  }

  /** The accessible name, as the snapshot computes it. */
  function nameOf(el: Element, role: string): string {
    let name = explicitName(el, el.tagName, role);
    if (!name && NAME_FROM_CONTENT.has(role)) name = norm((el as HTMLElement).innerText || el.textContent || '').trim();
    return name || lateName(el);
  }

  /**
   * Semantic locators (see locator.ts): `role` matches role and accessible name, `text` the
   * innermost elements whose text holds the value, `label` form fields by their label. `exact`
   * compares whole (whitespace collapsed); otherwise contains, case-insensitive.
   */
  function locate(kind: 'role' | 'text' | 'label', role: string, value: string | null, exact: boolean, max: number): LocateResult {
    const wanted = value === null ? null : exact ? value : value.toLowerCase();
    const matches = (text: string) => wanted === null || (exact ? norm(text).trim() === wanted : norm(text).toLowerCase().includes(wanted));
    const found: Element[] = [];
    const root = document.body || document.documentElement;
    if (kind === 'text') {
      // descend only into elements whose text holds the value; keep the innermost ones
      const needle = (value ?? '').toLowerCase();
      const holds = (el: Element) => norm(el.textContent || '').toLowerCase().includes(needle);
      const visit = (el: Element) => {
        let inner = false;
        const children = [...Array.from(el.children), ...(el.shadowRoot ? Array.from(el.shadowRoot.children) : [])];
        for (const child of children) if (!SKIP.has(child.tagName) && holds(child)) inner = visit(child) || inner;
        if (inner) return true;
        const text = (el as HTMLElement).innerText ?? el.textContent ?? '';
        if (!shown(el) || !matches(text)) return false;
        found.push(el);
        return true;
      };
      if (root && holds(root)) visit(root);
    } else {
      eachElement(root, (el) => {
        const elRole = roleOf(el);
        if (kind === 'role' ? elRole !== role : !(el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA' || (el as HTMLElement).isContentEditable || elRole === 'textbox' || elRole === 'combobox' || elRole === 'searchbox' || elRole === 'checkbox' || elRole === 'radio' || elRole === 'switch' || elRole === 'slider' || elRole === 'spinbutton')) return;
        if (kind === 'label' && (el as HTMLInputElement).type === 'hidden') return;
        if (kind === 'role' ? !matches(nameOf(el, elRole)) : ![explicitName(el, el.tagName, elRole), el.getAttribute('placeholder') || '', el.getAttribute('title') || ''].some((text) => text && matches(text))) return;
        if (shown(el)) found.push(el);
      });
    }
    return { total: found.length, ids: found.slice(0, max).map(idOf), labels: found.slice(0, max).map(label) };
  }

  const api: ArgusPageApi = {
    v: VERSION,
    token,
    snapshot,
    get(id: number, expected: string): Element | null {
      if (expected !== token) return null;
      const el = nodes.get(id)?.deref();
      return el && el.isConnected ? el : null;
    },
    frameAt: (index: number) => frames[index] ?? null,
    lastIds,
    label,
    coverage,
    locate,
  };
  G.__argus = api;
  return api;
}
