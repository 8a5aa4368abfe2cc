import type { GroupsKit } from './page-groups.js';
import type { IdsKit } from './page-ids.js';
import type { ItemsKit } from './page-items.js';
import type { NamesKit } from './page-names.js';
import type { RolesKit } from './page-roles.js';
import type { Look, LookKit } from './page-look.js';
import type { VisibilityKit } from './page-visibility.js';
import type { WalkNode } from './walker-types.js';

/** One walk of a frame's document (or of the subtree under a scope) into the snapshot's tree. */
export interface WalkKit {
  /**
   * Walks `root` (its children only when `whole`: the body or the document element) and returns the
   * items (not yet finished: see ItemsKit.finish); the iframes met (by `WalkNode.f`) and the ids of the controls emitted come with them.
   */
  walk(
    root: Element,
    whole: boolean,
    textMax: number,
  ): { items: Array<WalkNode | string>; frames: Element[]; ids: number[] };
  /** Elements the engine found click-type listeners on (CDP), so the walk gives them refs. */
  markListened(els: Element[]): void;
}

/**
 * Runs INSIDE the page (serialised into the walker's bundle, see frame-eval.ts): it must not refer
 * to anything outside its own body. One call walks the whole frame (light DOM, open shadow roots,
 * slots) and returns a compact tree: roles, names, states, values, and ids for interactive elements.
 */
export function walkKit(
  vis: VisibilityKit,
  names: NamesKit,
  roles: RolesKit,
  groups: GroupsKit,
  itemKit: ItemsKit,
  ids: IdsKit,
  looks: LookKit,
): WalkKit {
  const { HIDDEN, ICON, SKIP, norm, clip, isMarker, flatText, iconText, finish, onlyInteractive } = itemKit;
  let frames: Element[] = [];
  let textMax = 100;
  let lastIds: number[] = [];
  /** elements the engine found click-type listeners on (DOMDebugger.getEventListeners) */
  let listened = new WeakSet<Element>();
  /** a field's hint from the label beside it is cut at this many characters */
  const BESIDE_MAX = 30;

  /**
   * Walks what is drawn inside `parent` (whose computed style is `style`): nothing under
   * content-visibility:hidden (also `hidden="until-found"`), only the summary of a closed <details>.
   */
  function walkChildren(
    parent: Node,
    out: Array<WalkNode | string>,
    ctx: Ctx,
    style: CSSStyleDeclaration | null,
  ): void {
    const host = parent as Element;
    if (style && style.contentVisibility === 'hidden') return;
    if (host.tagName === 'DETAILS' && !(host as HTMLDetailsElement).open) {
      const summary = Array.from(host.children).find((child) => child.tagName === 'SUMMARY');
      if (summary) walkNode(summary, out, ctx);
      return;
    }
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

  /** Where a link with the walker id `id` goes (row contexts compare destinations). */
  function hrefOf(id: number): string | undefined {
    const el = ids.element(id);
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
      } else if (ctx.boxHidden || looks.hidden(ctx.look)) out.push({ r: HIDDEN, n: ' ' + norm(value) + ' ' });
      else if (looks.icon(ctx.look)) out.push({ r: ICON, n: norm(value).trim() });
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
    // a live region marked by aria-live alone is what a status or alert role says (the format keeps its text)
    if (!role) {
      const live = el.getAttribute('aria-live');
      if (live === 'polite') role = 'status';
      else if (live === 'assertive') role = 'alert';
    }
    // a label standing in for a native checkbox, radio or file input the page hides: that control
    const look = tag === 'LABEL' ? roles.labelled(el) : null;
    const stood = explicitRole ? null : roles.standIn(el, look);
    if (stood) role = roles.implicitRole(stood, 'INPUT') || 'button';

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
      // a native <select multiple> (role listbox): its options are not walked, so the select is the control
      else if (tag === 'SELECT') interactive = true;
      else if (tag === 'A' && (el.hasAttribute('href') || el.hasAttribute('title') || hasListener || pointer))
        interactive = true;
      else if (el.hasAttribute('tabindex') || el.hasAttribute('onclick') || hasListener) interactive = true;
      else if ((role === 'gridcell' || role === 'listbox') && (el.hasAttribute('tabindex') || pointer))
        interactive = true;
      else if (roles.isEditingHost(el)) interactive = true;
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
        frameNode.id = ids.idOf(el);
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
      if (tag !== 'svg' && tag !== 'SELECT') walkChildren(el, inner, childCtx, style);
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
      if (block) out.push('\n');
      walkChildren(el, out, childCtx, style);
      // a label's text is the name its control prints with: said once, on the control's line
      if (roles.namesShownControl(look)) dropNamingText(out, start);
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
    if (tag !== 'SELECT' && tag !== 'TEXTAREA' && tag !== 'svg' && tag !== 'IMG')
      walkChildren(el, items, childCtx, style);
    if (groups.pending() > pendingAtStart) groups.settle(items, 0);
    let name = stood ? names.explicitName(stood, 'INPUT', role) : names.explicitName(el, tag, role);
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
    // a stand-in label reports its control's state and value (checked, disabled, the chosen files)
    const control = stood || el;
    const controlTag = stood ? 'INPUT' : tag;
    const st = roles.states(control, controlTag, role);
    if (st) result.s = st;
    if (interactive) {
      result.i = 1;
      const id = ids.idOf(el);
      result.id = id;
      lastIds.push(id);
      const value = roles.valueOf(control, controlTag, role, textMax);
      if (value !== undefined) result.v = value;
      if (controlTag === 'INPUT' && (control as HTMLInputElement).type === 'file') result.h = 'file';
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

  /** Drops a label's text from `out[start..]` when whole in its control's name (not clipped there). */
  function dropNamingText(out: Array<WalkNode | string>, start: number) {
    let text = '';
    for (let k = start; k < out.length; k++) if (typeof out[k] === 'string') text += out[k];
    if (norm(text).trim().length > textMax) return;
    for (let k = out.length - 1; k >= start; k--) if (typeof out[k] === 'string' && out[k] !== '\n') out.splice(k, 1);
  }

  function walk(root: Element, whole: boolean, max: number) {
    textMax = max;
    frames = [];
    lastIds = [];
    const out: Array<WalkNode | string> = [];
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
      look: { style: startStyle, parent: null, forceHidden: false, bg: looks.backgroundAt(start), icon: false },
      prose: false,
    };
    groups.reset();
    vis.begin();
    if (whole) walkChildren(root, out, ctx, startStyle);
    else walkNode(root, out, ctx);
    if (groups.pending()) groups.settle(out, 0);
    return { items: out, frames, ids: lastIds };
  }

  return {
    walk,
    markListened(els: Element[]) {
      listened = new WeakSet(els);
    },
  };
}
