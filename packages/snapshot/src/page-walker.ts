import type { GroupsKit } from './page-groups.js';
import type { NamesKit } from './page-names.js';
import type { RolesKit } from './page-roles.js';
import type { TextKit } from './page-text.js';
import type { Rgb, VisibilityKit } from './page-visibility.js';
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
  /** Elements the engine found click-type listeners on (CDP), so the walk gives them refs. */
  markListened(...els: Element[]): void;
  /** Visible text of `root` (the body by default), iframes marked for the engine to fill in (see TextKit). */
  text(root: Element | null): { text: string; frames: number };
  textFrameAt(index: number): Element | null;
  locate(
    kind: 'role' | 'text' | 'label',
    role: string,
    value: string | null,
    exact: boolean,
    max: number,
  ): LocateResult;
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
export function installArgus(
  vis: VisibilityKit,
  texts: TextKit,
  names: NamesKit,
  roles: RolesKit,
  groups: GroupsKit,
): ArgusPageApi {
  const G = globalThis as unknown as { __argus?: ArgusPageApi };
  const VERSION = 8;
  if (G.__argus && G.__argus.v === VERSION) return G.__argus;

  const ids = new WeakMap<Element, number>();
  const nodes = new Map<number, WeakRef<Element>>();
  let nextId = 1;
  let frames: Element[] = [];
  /** iframes met by the last `text` read, by index */
  let textFrames: Element[] = [];
  const token = Math.random().toString(36).slice(2, 10);

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
  ]);
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

  /** Marker items for text a person cannot see: it may name the control it is in, never page text. */
  const HIDDEN = '#hidden';
  /** Marker items for an icon font's ligature or glyph (`favorite`): a hint, not a name. */
  const ICON = '#icon';
  const isMarker = (item: WalkNode | string): boolean =>
    typeof item !== 'string' && (item.r === HIDDEN || item.r === ICON);

  /** Joins walked items into plain text (names from content); `hidden` lets visually hidden text in. */
  function flatText(items: Array<WalkNode | string>, hidden = false): string {
    let out = '';
    for (const item of items) {
      if (typeof item === 'string') out += item === '\n' ? ' ' : item;
      else if (item.r === HIDDEN) out += hidden ? item.n : '';
      else if (item.r !== ICON) out += ' ' + (item.n || (item.c ? flatText(item.c, hidden) : '')) + ' ';
    }
    return norm(out).trim();
  }

  /** The first icon-font ligature among the items (`favorite`), for a hint. */
  function iconText(items: Array<WalkNode | string>): string {
    for (const item of items) {
      if (typeof item === 'string') continue;
      if (item.r === ICON && item.n && /^[a-z][a-z0-9_ -]*$/i.test(item.n)) return item.n;
      if (item.c && !item.i) {
        const inner = iconText(item.c);
        if (inner) return inner;
      }
    }
    return '';
  }

  /** Merges adjacent text runs; '\n' marks a block boundary that must not be merged across. Markers go. */
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
      } else if (!isMarker(item)) {
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
  /** elements the engine found click-type listeners on (DOMDebugger.getEventListeners) */
  let listened = new WeakSet<Element>();
  /** a field's hint from the label beside it is cut at this many characters */
  const BESIDE_MAX = 30;

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
    /** inside a link, button or other control with real semantics: nothing in it gets a ref of its own from a cursor */
    inSemantic: boolean;
    parentPointer: boolean;
    ariaHidden: boolean;
    hiddenVisibility: boolean;
    /** laid out but not visible (opacity 0, clipped to nothing, off-screen): no page text, no controls */
    boxHidden: boolean;
    /** how the parent draws its text: worked out when a text node in it is met */
    look: Look;
    /** inside prose, a label, a heading or a control: its text never labels a group of controls */
    prose: boolean;
  }

  /**
   * How an element draws its text. Reading computed colours and fonts is most of a walk's cost, and
   * most elements hold no text of their own, so each is worked out once, when a text node asks.
   */
  interface Look {
    style: CSSStyleDeclaration | null;
    parent: Look | null;
    /** text in a control that is itself visually hidden only names it */
    forceHidden: boolean;
    /** the background text is drawn on (null: unknown, e.g. an image); undefined until asked */
    bg?: Rgb;
    hidden?: boolean;
    icon?: boolean;
  }
  const WHITE: Rgb = [255, 255, 255];
  const iconFonts = new Map<string, boolean>();

  function lookBackground(look: Look): Rgb {
    if (look.bg === undefined) {
      const under = look.parent ? lookBackground(look.parent) : WHITE;
      look.bg = look.style ? vis.background(look.style, under) : under;
    }
    return look.bg;
  }

  /** The text cannot be read: font-size 0, the colour of its background, indented away. */
  function lookHidden(look: Look): boolean {
    if (look.hidden === undefined)
      look.hidden = look.forceHidden || (look.style !== null && vis.hiddenText(look.style, lookBackground(look)));
    return look.hidden;
  }

  /** The text is drawn in an icon font: a ligature or a glyph, not words. */
  function lookIcon(look: Look): boolean {
    if (look.icon === undefined) {
      const family = look.style ? look.style.fontFamily : '';
      let icon = iconFonts.get(family);
      if (icon === undefined) {
        icon = look.style !== null && vis.iconFont(look.style);
        iconFonts.set(family, icon);
      }
      look.icon = icon;
    }
    return look.icon;
  }

  /** Where a link with the walker id `id` goes (row contexts compare destinations). */
  function hrefOf(id: number): string | undefined {
    const el = nodes.get(id)?.deref();
    return el && el.tagName === 'A' ? (el as HTMLAnchorElement).href || undefined : undefined;
  }

  /** A listener on an element that holds controls or much text is a delegation host, not a control. */
  function delegationHost(el: Element): boolean {
    if (el.querySelector('a[href], button, input, select, textarea, [role], [tabindex], [onclick]')) return true;
    return el.childElementCount > 3 || (el.textContent || '').length > 200;
  }

  const CLICK_SIGNAL =
    /(?:^|[-_\s])(?:btn|button|icon|ico|like|reply|share|close|delete|remove|destroy|edit|toggle|more|menu|star|fav|favorite|heart|vote|upvote|downvote|retweet|bookmark|follow|prev|next)(?:$|[-_\s])/i;

  function walkNode(node: Node, out: Array<WalkNode | string>, ctx: Ctx): void {
    if (node.nodeType === 3) {
      if (ctx.ariaHidden || ctx.hiddenVisibility) return;
      const value = node.nodeValue;
      if (!value) return;
      if (!value.trim()) {
        // whitespace between elements is in nearly every element: asking whether it can be seen would
        // work out the colours and fonts of every container (most of a walk's cost); a separator is harmless
        if (!ctx.boxHidden) out.push(value);
      } else if (ctx.boxHidden || lookHidden(ctx.look)) out.push({ r: HIDDEN, n: ' ' + norm(value) + ' ' });
      else if (lookIcon(ctx.look)) out.push({ r: ICON, n: norm(value).trim() });
      else {
        out.push(value);
        if (!ctx.prose) groups.textLabel(node, out);
      }
      return;
    }
    if (node.nodeType !== 1) return;
    const el = node as Element;
    const tag = el.tagName;
    if (SKIP.has(tag)) return;
    /** labels made by this element's children wait in `pending` until it is done */
    const pendingAtStart = groups.pending();
    const style = getComputedStyle(el);
    const display = style.display;
    if (display === 'none') return;
    const hiddenVisibility = style.visibility !== 'visible';
    const ownBoxHidden = !ctx.boxHidden && vis.hiddenBox(el, style, display);
    const boxHidden = ctx.boxHidden || ownBoxHidden;
    const ariaHidden = ctx.ariaHidden || el.getAttribute('aria-hidden') === 'true';
    const explicitRole = (el.getAttribute('role') || '').trim().split(/\s+/)[0] || '';
    let role = explicitRole || roles.implicitRole(el, tag) || '';
    if (role === 'presentation' || role === 'none') role = explicitRole && el.hasAttribute('tabindex') ? '' : role;

    const pointer = style.cursor === 'pointer';
    const hasListener = listened.has(el) && tag !== 'HTML' && tag !== 'BODY' && !delegationHost(el);
    let interactive = false;
    // a native checkbox or radio made transparent over a styled box is still what a click on it toggles
    const stillOperable =
      boxHidden &&
      ownBoxHidden &&
      tag === 'INPUT' &&
      parseFloat(style.opacity) < 0.05 &&
      /^(?:checkbox|radio|file)$/.test((el as HTMLInputElement).type);
    if (!hiddenVisibility && (!boxHidden || stillOperable)) {
      if (roles.INTERACTIVE_ROLES.has(role) && role !== 'gridcell' && role !== 'listbox' && role !== 'scrollbar')
        interactive = true;
      else if (tag === 'A' && (el.hasAttribute('href') || el.hasAttribute('title') || hasListener || pointer))
        interactive = true;
      else if (el.hasAttribute('tabindex') || el.hasAttribute('onclick') || hasListener) interactive = true;
      else if ((role === 'gridcell' || role === 'listbox') && (el.hasAttribute('tabindex') || pointer))
        interactive = true;
      else if (
        (el as HTMLElement).isContentEditable &&
        !(el.parentElement && (el.parentElement as HTMLElement).isContentEditable)
      )
        interactive = true;
      else if (
        pointer &&
        !ctx.parentPointer &&
        !ctx.inInteractive &&
        tag !== 'LABEL' &&
        tag !== 'HTML' &&
        tag !== 'BODY'
      )
        interactive = true;
      else if (
        pointer &&
        !ctx.inSemantic &&
        tag !== 'LABEL' &&
        (el.hasAttribute('title') ||
          el.hasAttribute('aria-label') ||
          (!(el.textContent || '').trim() && CLICK_SIGNAL.test(typeof el.className === 'string' ? el.className : '')))
      ) {
        // a control of its own inside a clickable card: an icon-only `<span class="like">` with its own cursor
        interactive = true;
      }
      if (interactive) {
        const rect = el.getBoundingClientRect();
        if (rect.width <= 0 || rect.height <= 0) interactive = false;
      }
    }
    if (interactive && !role)
      role = tag === 'A' ? 'link' : pointer || hasListener || el.hasAttribute('onclick') ? 'clickable' : 'generic';
    if (interactive && (el as HTMLElement).isContentEditable && (!role || role === 'generic' || role === 'clickable'))
      role = 'textbox';

    if (role === 'iframe') {
      if (hiddenVisibility || boxHidden) return;
      const rect = el.getBoundingClientRect();
      if (rect.width <= 0 || rect.height <= 0) return;
      const name = names.explicitName(el, tag, role);
      const frameNode: WalkNode = { r: 'iframe', f: frames.length };
      if (name) frameNode.n = clip(name, textMax);
      else frameNode.h = names.frameHint(el);
      if (el.hasAttribute('tabindex') || el.hasAttribute('onclick')) {
        frameNode.i = 1;
        frameNode.id = idOf(el);
        lastIds.push(frameNode.id);
      }
      frames.push(el);
      out.push(frameNode);
      return;
    }

    const semantic = interactive && role !== 'clickable' && role !== 'generic';
    const childCtx: Ctx = {
      inInteractive: ctx.inInteractive || interactive,
      inSemantic: ctx.inSemantic || semantic,
      parentPointer: pointer,
      // a control kept inside aria-hidden content (a menu hidden from screen readers only) still needs
      // its text as its name; an aria-hidden part inside the control (an icon glyph) hides itself
      ariaHidden: interactive ? false : ariaHidden,
      hiddenVisibility,
      // inside a control a person can see, what is only visually hidden still names it (sr-only text)
      boxHidden: interactive ? false : boxHidden,
      look: { style, parent: ctx.look, forceHidden: interactive && boxHidden },
      prose: ctx.prose || interactive || ariaHidden || groups.prose(tag, role),
    };
    const block = !display.startsWith('inline') && display !== 'contents';
    const row = groups.isRow(el, tag, role);
    const start = out.length;

    // aria-hidden content is dropped except controls inside it that can still be clicked
    if (ariaHidden && !interactive) {
      const inner: Array<WalkNode | string> = [];
      if (tag !== 'svg' && tag !== 'SELECT') walkChildren(el, inner, childCtx);
      for (const item of onlyInteractive(inner, [])) out.push(item);
      return;
    }

    if (
      !interactive &&
      (!role || roles.HOIST.has(role) || hiddenVisibility || boxHidden) &&
      !(
        role &&
        (role === 'region' || role === 'group') &&
        (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby'))
      )
    ) {
      if (tag === 'svg' || tag === 'CANVAS' || tag === 'VIDEO' || tag === 'AUDIO') return;
      if (tag === 'BR') {
        out.push('\n');
        return;
      }
      // a table's caption is its name, printed once on the table's line
      if (tag === 'CAPTION' && el.parentElement?.tagName === 'TABLE') return;
      if (tag === 'DETAILS' && !(el as HTMLDetailsElement).open) {
        const summary = el.querySelector(':scope > summary');
        if (summary) walkNode(summary, out, childCtx);
        return;
      }
      if (block) out.push('\n');
      walkChildren(el, out, childCtx);
      if (groups.pending() > pendingAtStart) groups.settle(out, start);
      // the element itself may label the group it sits in (its parent settles it)
      if (!childCtx.prose) groups.elementLabel(el, out, block ? start + 1 : start);
      if (block) out.push('\n');
      if (row) groups.markRow(out.slice(start), hrefOf);
      return;
    }
    if (role === 'img' && !interactive) {
      if (hiddenVisibility || boxHidden) return;
      const name = names.explicitName(el, tag, role) || names.lateName(el);
      if (!name) return;
      out.push({ r: 'img', n: clip(name, textMax) });
      return;
    }

    const result: WalkNode = { r: role };
    const items: Array<WalkNode | string> = [];
    if (tag !== 'SELECT' && tag !== 'TEXTAREA' && tag !== 'svg' && tag !== 'IMG') walkChildren(el, items, childCtx);
    if (groups.pending() > pendingAtStart) groups.settle(items, 0);
    let name = names.explicitName(el, tag, role);
    // a clickable wrapper around real content (a card, a whole section) keeps its content as children
    const container =
      (role === 'clickable' || role === 'generic') &&
      items.some((item) => typeof item !== 'string' && !isMarker(item) && !item.i && item.f === undefined);
    const fromContent = roles.NAME_FROM_CONTENT.has(role) && !container;
    if (!name && fromContent) {
      name = flatText(items);
      if (role === 'clickable' && name.length > textMax) name = '';
    }
    // a control whose content is empty or only visually hidden (an icon, sr-only text) is named by
    // its title first, as Chrome does, then by the hidden text
    if (!name) name = names.lateName(el);
    if (!name && fromContent && interactive) name = flatText(items, true);
    if (name) result.n = clip(name, textMax);
    if (fromContent && name) {
      const kept = onlyInteractive(items, []);
      if (kept.length) result.c = kept;
    } else {
      const kids = finish(items, textMax);
      if (kids.length) result.c = kids;
    }
    const st = roles.states(el, tag, role);
    if (st) result.s = st;
    if (interactive) {
      result.i = 1;
      const id = idOf(el);
      result.id = id;
      lastIds.push(id);
      const value = roles.valueOf(el, tag, role, textMax);
      if (value !== undefined) result.v = value;
      if (tag === 'INPUT' && (el as HTMLInputElement).type === 'file') result.h = 'file';
      else if (!result.n && (!result.c || (role !== 'clickable' && role !== 'generic'))) {
        const icon = iconText(items);
        const beside =
          role === 'textbox' || role === 'combobox' || role === 'searchbox' || role === 'spinbutton'
            ? names.besideLabel(el)
            : '';
        result.h = beside ? clip(beside, BESIDE_MAX) : icon ? 'icon: ' + icon : names.fallbackHint(el);
      }
    }
    if (block) out.push('\n');
    out.push(result);
    if (block) out.push('\n');
    // the row's own content: the row node itself would read as a row nested in it
    if (row) groups.markRow(result.c ?? [], hrefOf);
  }

  /** The background behind `el`'s content: the page's canvas (white) under every painted ancestor. */
  function backgroundAt(el: Element | null): Rgb {
    const chain: Element[] = [];
    for (let at = el; at; at = at.parentElement) chain.unshift(at);
    let bg: Rgb = [255, 255, 255];
    for (const at of chain) bg = vis.background(getComputedStyle(at), bg);
    return bg;
  }

  function label(el: Element): string {
    const role = roleOf(el);
    const name = nameOf(el, role);
    // one line, quotes escaped: a page cannot end the quoted name early in an action's report
    return name
      ? `${role} "${clip(norm(name).trim(), 60).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
      : `${role} (${names.fallbackHint(el).replace(/[()]/g, '')})`;
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
      const whole = root === document.body || root === document.documentElement;
      const start = whole ? root : root.parentElement;
      const startStyle = start ? getComputedStyle(start) : null;
      const ctx: Ctx = {
        inInteractive: false,
        inSemantic: false,
        parentPointer: false,
        ariaHidden: false,
        hiddenVisibility: false,
        boxHidden: false,
        // the start's own background is in backgroundAt already; its font is not an icon font's
        look: { style: startStyle, parent: null, forceHidden: false, bg: backgroundAt(start), icon: false },
        prose: false,
      };
      groups.reset();
      vis.begin();
      if (whole) walkChildren(root, items, ctx);
      else walkNode(root, items, ctx);
      if (groups.pending()) groups.settle(items, 0);
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
    return (el.getAttribute('role') || '').trim().split(/\s+/)[0] || roles.implicitRole(el, el.tagName) || 'generic';
  }

  /** The accessible name, as the snapshot computes it. */
  function nameOf(el: Element, role: string): string {
    let name = names.explicitName(el, el.tagName, role);
    if (!name && roles.NAME_FROM_CONTENT.has(role))
      name = norm((el as HTMLElement).innerText || el.textContent || '').trim();
    return name || names.lateName(el);
  }

  /**
   * Semantic locators (see locator.ts): `role` matches role and accessible name, `text` the
   * innermost elements whose text holds the value, `label` form fields by their label. `exact`
   * compares whole (whitespace collapsed); otherwise contains, case-insensitive.
   */
  function locate(
    kind: 'role' | 'text' | 'label',
    role: string,
    value: string | null,
    exact: boolean,
    max: number,
  ): LocateResult {
    const wanted = value === null ? null : exact ? value : value.toLowerCase();
    const matches = (text: string) =>
      wanted === null || (exact ? norm(text).trim() === wanted : norm(text).toLowerCase().includes(wanted));
    const found: Element[] = [];
    const root = document.body || document.documentElement;
    if (kind === 'text') {
      // descend only into elements whose text holds the value; keep the innermost ones
      const needle = (value ?? '').toLowerCase();
      const holds = (el: Element) =>
        norm(el.textContent || '')
          .toLowerCase()
          .includes(needle);
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
        if (
          kind === 'role'
            ? elRole !== role
            : !(
                el.tagName === 'INPUT' ||
                el.tagName === 'SELECT' ||
                el.tagName === 'TEXTAREA' ||
                (el as HTMLElement).isContentEditable ||
                elRole === 'textbox' ||
                elRole === 'combobox' ||
                elRole === 'searchbox' ||
                elRole === 'checkbox' ||
                elRole === 'radio' ||
                elRole === 'switch' ||
                elRole === 'slider' ||
                elRole === 'spinbutton'
              )
        )
          return;
        if (kind === 'label' && (el as HTMLInputElement).type === 'hidden') return;
        if (
          kind === 'role'
            ? !matches(nameOf(el, elRole))
            : ![
                names.explicitName(el, el.tagName, elRole),
                el.getAttribute('placeholder') || '',
                el.getAttribute('title') || '',
              ].some((text) => text && matches(text))
        )
          return;
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
    markListened(...els: Element[]) {
      listened = new WeakSet(els);
    },
    text(root: Element | null) {
      textFrames = [];
      const text = texts.text(root ?? document.body ?? document.documentElement, textFrames);
      return { text, frames: textFrames.length };
    },
    textFrameAt: (index: number) => textFrames[index] ?? null,
  };
  G.__argus = api;
  return api;
}
