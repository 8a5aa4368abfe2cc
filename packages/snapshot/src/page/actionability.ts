import { z } from 'zod';
import { pageFunctionWith } from './page-function.js';

/** A hit test's verdict: whether the input reaches the element, and if not what it reaches instead. */
type Verdict = { ok: boolean; covering?: string };
/** What the landing guard saw of a press (and its release), as the guard's page function and takeLanding share it (types only: nothing shipped). */
type Seen = {
  ok: boolean;
  covering?: string;
  blocked: boolean;
  release?: Verdict | null;
  moved: boolean;
};
/** The armed landing guard, kept under Symbol.for('argus.landing') in Argus's world. */
type Guard = { el: Element; kind: 'press' | 'move'; take(): Seen | undefined };

/*
 * The page functions of pointer and keyboard actions: the actionability wait with its hit test, the
 * click landing guard, where typed keys go. Helpers they share (the hit test through shadow roots,
 * what counts as a text input, how an element is named, the landing verdict) are the kit below,
 * serialised with each of them, so each exists once.
 */

/**
 * What `elementFromPoint` reaches at a frame-viewport point, through open shadow roots. `skip`: an
 * overlay of Argus's own that covers the page (the annotate picker's glass), looked through at each
 * level (a shadow root's hit test also reaches what lies over its host).
 */
export function deepHit(x: number, y: number, skip?: Element): Element | null {
  const at = (root: Document | ShadowRoot) =>
    skip ? (root.elementsFromPoint(x, y).find((el) => el !== skip) ?? null) : root.elementFromPoint(x, y);
  let hit = at(document);
  for (let depth = 0; hit && hit.shadowRoot && depth < 32; depth++) {
    const inner = at(hit.shadowRoot);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

/**
 * An <input> of a type that takes typed text (not a button, checkbox, file, range, colour or hidden
 * input): the one list of them, also what `inspect.is editable` reads (page/element-state.ts).
 */
export function textInput(el: Element): boolean {
  const NOT_TEXT = ['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'image', 'range', 'color', 'hidden'];
  return el.tagName === 'INPUT' && !NOT_TEXT.includes((el as HTMLInputElement).type);
}

/**
 * Names an element a message points at that is not the target (what covers it, where a release
 * landed): `tag#id.class.class ("the start of its text")`, in whichever frame it is. A target itself
 * is named by the walker's label (`role "name"`, elementLabel in element-handle.ts), as in snapshots.
 */
function describeNode(node: Element): string {
  let out = node.tagName.toLowerCase();
  if (node.id) out += '#' + node.id;
  const cls = typeof node.className === 'string' ? node.className.trim().split(/\s+/).slice(0, 2).filter(Boolean) : [];
  if (cls.length) out += '.' + cls.join('.');
  const text = ((node as HTMLElement).innerText || '').replace(/\s+/g, ' ').trim();
  if (text) out += ` ("${text.length > 40 ? text.slice(0, 39) + '…' : text}")`;
  return out;
}

/** Is `hit` (what a click at the point would reach) this element, inside it, or its label? (`describe`: kit.describeNode) */
function hitCheck(this: Element, hit: Element | null, describe: (node: Element) => string): Verdict {
  const el = this;
  if (!hit) return { ok: false, covering: 'nothing (the point is outside the page)' };
  for (let node: Node | null = hit; node; node = node.parentNode || (node as ShadowRoot).host || null) {
    if (node === el) return { ok: true };
  }
  const label = hit.closest('label');
  if (label && (label as HTMLLabelElement).control === el) return { ok: true };
  // name the outermost ancestor that still sits at this point: the modal, not its inner span
  let cover: Element = hit;
  // (an element no longer in the page names what is at the point itself)
  while (
    el.isConnected &&
    cover.parentElement &&
    cover.parentElement !== document.body &&
    cover.parentElement !== document.documentElement &&
    !cover.parentElement.contains(el)
  ) {
    cover = cover.parentElement;
  }
  return { ok: false, covering: describe(cover) };
}

/**
 * Arms a guard for the pointer input about to be sent at the element (the idea of Playwright's hit
 * target interceptor). Capture listeners on the window, in this isolated world, judge the first
 * trusted event of the kind by what it reached (`judge`, hitCheck bound in by the caller): that is
 * after the mouse move and whatever it set off ran, so a hover effect that moves the element (a
 * tooltip that collapses, a menu that opens and shifts the layout) is seen. A press that would land
 * elsewhere is stopped here, so none of its events reach the page. A press that reached the element
 * has its release judged too (the first pointerup or mouseup): the page may move or replace the
 * element on mousedown, and then the click goes to a common ancestor or nowhere. That release is not
 * stopped (the page saw the press), only reported (`moved`: whether the element is still where it
 * was pressed). A release the page itself took (pointer capture) and that of a right press (the
 * contextmenu fires on the press) count as reached. Read and ended by
 * takeLanding; one never read ends by itself after a few seconds, or when the next one is armed.
 */
function armLanding(this: Element, kind: 'press' | 'move', judge: (hit: Element | null) => Verdict): void {
  const el = this;
  // one guard at a time in this world: one left armed (its command cancelled before reading it)
  // would otherwise stop the next action's press on another element
  const key = Symbol.for('argus.landing');
  const scope = globalThis as unknown as Record<symbol, Guard | undefined>;
  scope[key]?.take();
  const types =
    kind === 'press'
      ? ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'auxclick', 'dblclick', 'contextmenu']
      : ['pointermove', 'mousemove', 'pointerover', 'mouseover'];
  let verdict: Verdict | undefined;
  // the element's box as the press reached it (before the page's own listeners ran)
  let pressed: DOMRect | undefined;
  // the press's release, once seen (null: not judged, a move or a right press)
  let release: Verdict | null | undefined = kind === 'press' ? undefined : null;
  const listener = (event: Event) => {
    if (!event.isTrusted) return;
    // not `instanceof Element`: a frame's element may come from another realm
    const hit = event.composedPath()[0] as Node | undefined;
    const target = hit && hit.nodeType === 1 ? (hit as Element) : null;
    if (!verdict) {
      verdict = judge(target);
      if (kind === 'press') pressed = el.getBoundingClientRect();
      if (kind === 'press' && (event as MouseEvent).button === 2) release = null;
    } else if (
      kind === 'press' &&
      verdict.ok &&
      release === undefined &&
      (event.type === 'pointerup' || event.type === 'mouseup')
    ) {
      const pointerId = (event as PointerEvent).pointerId;
      const captured = event.type === 'pointerup' && target !== null && target.hasPointerCapture(pointerId);
      release = captured ? { ok: true } : judge(target);
    }
    if (!verdict.ok && kind === 'press') {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  };
  const take = () => {
    for (const type of types) removeEventListener(type, listener, true);
    clearTimeout(timer);
    if (scope[key] === guard) scope[key] = undefined;
    const box = el.isConnected ? el.getBoundingClientRect() : undefined;
    const moved =
      !box ||
      !pressed ||
      Math.abs(box.x - pressed.x) >= 1 ||
      Math.abs(box.y - pressed.y) >= 1 ||
      Math.abs(box.width - pressed.width) >= 1 ||
      Math.abs(box.height - pressed.height) >= 1;
    return verdict && { ...verdict, blocked: kind === 'press' && !verdict.ok, release, moved };
  };
  const guard: Guard = { el, kind, take };
  const timer = setTimeout(take, 3_000);
  for (const type of types) addEventListener(type, listener, true);
  scope[key] = guard;
}

/** Helpers the action page functions share (serialised with each of them). */
export const actionKit = { deepHit, textInput, describeNode, hitCheck, armLanding };
export type ActionKit = typeof actionKit;

/** Defines an action page function: `kit` the helpers above. */
const actionFunction = pageFunctionWith(actionKit);

const Point = z.object({ x: z.number(), y: z.number() });

export const ActionableResult = z.object({
  ok: z.boolean(),
  reason: z
    .enum(['detached', 'hidden', 'disabled', 'readonly', 'not_text', 'moving', 'offscreen', 'obscured', 'inert'])
    .optional(),
  /** frame-viewport rect once ok */
  rect: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).optional(),
  inViewport: z.boolean().optional(),
  /** the frame's scroll offset: DOM.getNodeForLocation takes document coordinates */
  scroll: Point.optional(),
  /** with a hit test: the frame-viewport point that was tested (the centre of the element's visible part) */
  point: Point.optional(),
  /** with a failed hit test: what a click at the point would hit instead; `inert`: the modal dialog it is behind */
  covering: z.string().optional(),
});
export type ActionableResult = z.infer<typeof ActionableResult>;

/** What the landing guard saw of the pointer input sent after it was armed (see armLanding). */
export const Landing = z.object({
  /** true: the input reached the element (inside it, or its label); false: something else; null: no event seen */
  landed: z.boolean().nullable(),
  /** what it reached instead */
  covering: z.string().optional(),
  /** the events were kept from the page (a press that would land elsewhere); a mouse move is not stopped */
  blocked: z.boolean().optional(),
  /**
   * a press that reached the element whose release did not (it moved, or left the page, as it was
   * pressed): what the release reached; whether the element is still in the page; and, when it is
   * not, whether what the release reached is named as it was (a like element in its place: a re-render)
   */
  release: z.object({ on: z.string(), elementGone: z.boolean(), replaced: z.boolean() }).optional(),
});
export type Landing = z.infer<typeof Landing>;

/**
 * Resolves once the element is connected, visible, enabled (and editable when asked) and its box is
 * the same on two consecutive animation frames, or when the time is up. rAF-driven, with a timer
 * fallback for pages that do not paint (background tabs): never a fixed sleep.
 *
 * With `hitTest` (for elements of the top frame) it also scrolls the element into view itself and
 * hit-tests the centre of its visible part (kit.deepHit, judged by kit.hitCheck), so one round trip
 * answers "where to click, and would the click land there"; with a `guard` kind as well, the element
 * ready, it arms the landing guard for the input that follows (kit.armLanding).
 */
export const WAIT_ACTIONABLE = actionFunction(
  'waitActionable',
  ActionableResult,
  function (
    this: Element,
    kit,
    timeoutMs: number,
    needEnabled: boolean,
    needEditable: boolean,
    hitTest: boolean,
    guard: 'press' | 'move' | null,
  ): Promise<ActionableResult> {
    const el = this;
    const deadline = performance.now() + timeoutMs;
    let scrolls = 0;
    const disabled = () =>
      el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true' || el.closest('[inert]') !== null;
    const editable = () => {
      if ((el as HTMLElement).isContentEditable) return true;
      if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') return !(el as HTMLInputElement).readOnly;
      return false;
    };
    // no running CSS animation or transition on the element or an ancestor: its box cannot be moving
    // by CSS, so one sample is enough (saves a frame); otherwise compare boxes across animation frames
    const animated = () => {
      for (const animation of document.getAnimations()) {
        if (animation.playState !== 'running') continue;
        const target = (animation.effect as KeyframeEffect | null)?.target;
        if (!target) continue;
        for (let node: Node | null = el; node; node = node.parentNode || (node as ShadowRoot).host || null)
          if (node === target) return true;
      }
      return false;
    };
    // The layout viewport without scrollbars. In quirks mode documentElement.clientHeight is the
    // document's height, not the viewport's: body.clientWidth/Height give the viewport there.
    const viewport = () => {
      const root =
        document.compatMode === 'BackCompat' ? document.body || document.documentElement : document.documentElement;
      return {
        width: Math.min(root.clientWidth || innerWidth, innerWidth),
        height: Math.min(root.clientHeight || innerHeight, innerHeight),
      };
    };
    /**
     * The part of the viewport the element can be seen through: the viewport cut by the padding box of
     * every ancestor that clips its overflow (a scroll box, overflow:hidden/clip), through open shadow
     * roots. A target below the visible part of an inbox list is inside the viewport but not in this.
     */
    const clip = () => {
      const { width, height } = viewport();
      const out = { left: 0, top: 0, right: width, bottom: height };
      const root = document.documentElement;
      // body's overflow is the viewport's unless the root clips its own
      const rootStyle = getComputedStyle(root);
      const bodyOwnsOverflow = rootStyle.overflowX !== 'visible' || rootStyle.overflowY !== 'visible';
      for (
        let node: Element | null =
          el.assignedSlot || el.parentElement || ((el.parentNode as ShadowRoot | null)?.host ?? null);
        node;

      ) {
        if (node !== root && (node !== document.body || bodyOwnsOverflow)) {
          const style = getComputedStyle(node);
          const clipsX = style.overflowX !== 'visible';
          const clipsY = style.overflowY !== 'visible';
          if (clipsX || clipsY) {
            const box = node.getBoundingClientRect();
            const left = box.left + node.clientLeft;
            const top = box.top + node.clientTop;
            if (clipsX) {
              out.left = Math.max(out.left, left);
              out.right = Math.min(out.right, left + node.clientWidth);
            }
            if (clipsY) {
              out.top = Math.max(out.top, top);
              out.bottom = Math.min(out.bottom, top + node.clientHeight);
            }
          }
        }
        node = node.assignedSlot || node.parentElement || ((node.parentNode as ShadowRoot | null)?.host ?? null);
      }
      return out;
    };
    /** The centre of the visible part of a rect (in the clip area, else in the viewport), or null when none of it is in view. */
    const visiblePart = (rect: DOMRect, area: { left: number; top: number; right: number; bottom: number }) => {
      const left = Math.max(rect.left, area.left);
      const top = Math.max(rect.top, area.top);
      const right = Math.min(rect.right, area.right);
      const bottom = Math.min(rect.bottom, area.bottom);
      return right - left >= 1 && bottom - top >= 1 ? { x: (left + right) / 2, y: (top + bottom) / 2 } : null;
    };
    const waited = new Promise<ActionableResult>((resolve) => {
      let last: DOMRect | null = null;
      let reason: ActionableResult['reason'] = 'hidden';
      const next = (fn: () => void) => {
        let done = false;
        const once = () => {
          if (done) return;
          done = true;
          fn();
        };
        requestAnimationFrame(once);
        setTimeout(once, 100);
      };
      const finish = (rect: DOMRect): ActionableResult => {
        const inViewport = rect.right > 0 && rect.bottom > 0 && rect.left < innerWidth && rect.top < innerHeight;
        const result: ActionableResult = {
          ok: true,
          rect: { x: rect.x, y: rect.y, width: rect.width, height: rect.height },
          inViewport,
          scroll: { x: scrollX, y: scrollY },
        };
        if (!hitTest) return result;
        // the first box of the element with a part in view: a link wrapped over two lines has two boxes,
        // and the centre of their union can be on neither
        // in the area its scroll boxes show; then the viewport alone (an absolutely positioned element
        // escapes a clipping ancestor that is not its containing block: the hit test decides)
        let point: { x: number; y: number } | null = null;
        const { width, height } = viewport();
        for (const area of [clip(), { left: 0, top: 0, right: width, bottom: height }]) {
          for (const box of el.getClientRects())
            if (box.width >= 1 && box.height >= 1 && (point = visiblePart(box, area))) break;
          point ??= visiblePart(rect, area);
          if (point) break;
        }
        if (!point) return { ok: false, reason: 'offscreen' };
        const verdict = kit.hitCheck.call(el, kit.deepHit(point.x, point.y), kit.describeNode);
        return verdict.ok
          ? { ...result, point }
          : { ok: false, reason: 'obscured', covering: verdict.covering ?? 'another element' };
      };
      /**
       * The open modal dialog (showModal, or a fullscreen element) the element is outside of, described:
       * everything outside it is inert, so input sent to the element does nothing and a value set on it
       * is one the person at the page cannot see or change. Pointer actions find it with the hit test.
       */
      const modalOver = (): string | null => {
        const modal = document.querySelector(':modal');
        if (!modal) return null;
        for (let node: Node | null = el; node; node = node.parentNode || (node as ShadowRoot).host || null)
          if (node === modal) return null;
        return kit.describeNode(modal);
      };
      // a button, a checkbox or a plain div never becomes a text field: no wait for that (read-only may end)
      const textKind = () => (el as HTMLElement).isContentEditable || el.tagName === 'TEXTAREA' || kit.textInput(el);
      const check = () => {
        if (!el.isConnected) return resolve({ ok: false, reason: 'detached' });
        if (needEditable && !textKind()) return resolve({ ok: false, reason: 'not_text' });
        let rect = el.getBoundingClientRect();
        const visible =
          el.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions) &&
          rect.width > 0 &&
          rect.height > 0;
        if (visible && hitTest && scrolls < 3) {
          // centre it when its centre is out of view, in the viewport or in a scroll box around it (what
          // DOM.scrollIntoViewIfNeeded does; scrollIntoView scrolls every scrollable ancestor), without smooth scrolling
          const cx = rect.left + rect.width / 2;
          const cy = rect.top + rect.height / 2;
          const view = clip();
          if (cx < view.left || cy < view.top || cx >= view.right || cy >= view.bottom) {
            scrolls++;
            el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
            rect = el.getBoundingClientRect();
            last = null;
          }
        }
        const modal = visible && !hitTest ? modalOver() : null;
        if (modal) return resolve({ ok: false, reason: 'inert', covering: modal });
        if (!visible) {
          reason = 'hidden';
          last = null;
        } else if (needEnabled && disabled()) {
          reason = 'disabled';
          last = null;
        } else if (needEditable && !editable()) {
          reason = 'readonly';
          last = null;
        } else if (
          (last &&
            last.x === rect.x &&
            last.y === rect.y &&
            last.width === rect.width &&
            last.height === rect.height) ||
          (!last && !animated())
        ) {
          return resolve(finish(rect));
        } else {
          reason = 'moving';
          last = rect;
        }
        if (performance.now() >= deadline) return resolve({ ok: false, reason });
        next(check);
      };
      check();
    });
    return waited.then((state) => {
      if (state.ok && guard) kit.armLanding.call(el, guard, (hit) => kit.hitCheck.call(el, hit, kit.describeNode));
      return state;
    });
  },
);

/** Arms the element's landing guard (an element in an iframe: its wait ran without the hit test). */
export const ARM_LANDING = actionFunction(
  'armLanding',
  z.undefined(),
  function (this: Element, kit, guard: 'press' | 'move'): undefined {
    const el = this;
    kit.armLanding.call(el, guard, (hit) => kit.hitCheck.call(el, hit, kit.describeNode));
    return undefined;
  },
);

/** Is `hit` (a remote object: what DOM.getNodeForLocation found at the point) this element, inside it, or its label? */
export const HIT_CHECK = actionFunction(
  'hitCheck',
  z.object({ ok: z.boolean(), covering: z.string().optional() }),
  function (this: Element, kit, hit: Element | null): Verdict {
    return kit.hitCheck.call(this, hit, kit.describeNode);
  },
);

/** Names what covers an element, found in another frame, as kit.describeNode names a cover in the same frame. */
export const DESCRIBE_ELEMENT = actionFunction('describeElement', z.string(), function (this: Element, kit): string {
  return kit.describeNode(this);
});

/**
 * Ends the element's landing guard and says what it saw. When it saw no event (the input went into
 * another frame, or a listener of the page stopped it before ours), the point (frame viewport, when
 * known) is hit-tested now instead; so is a press that landed and whose release was not seen.
 */
export const TAKE_LANDING = actionFunction(
  'takeLanding',
  Landing,
  function (this: Element, kit, point: { x: number; y: number } | null): Landing {
    const el = this;
    const guard = (globalThis as unknown as Record<symbol, Guard | undefined>)[Symbol.for('argus.landing')];
    const armed = guard?.el === el ? guard : undefined;
    const seen = armed?.take();
    const now = () => (point ? kit.hitCheck.call(el, kit.deepHit(point.x, point.y), kit.describeNode) : { ok: true });
    if (seen && !seen.ok) return { landed: false, covering: seen.covering, blocked: seen.blocked };
    if (seen) {
      // a press's release: judged when seen, else where the point is now (into a frame?). Missed
      // only when the element moved or was replaced since the press: one still in place that the
      // release did not reach was covered by what the page put up in answer to the press (a select
      // widget opening its menu over itself on mousedown), the page's own doing
      if (!seen.moved) return { landed: true };
      const release = seen.release === undefined ? now() : seen.release;
      if (!release || release.ok) return { landed: true };
      const on = release.covering ?? 'another element';
      const elementGone = !el.isConnected;
      // (an element no longer in the page is named by its own tag, id, classes and text still)
      return { landed: true, release: { on, elementGone, replaced: elementGone && on === kit.describeNode(el) } };
    }
    // a press into a frame that its page never saw: it went to the parent (Chromium routes input to an
    // out-of-process frame only once the frame has drawn; about one click in thirty on a frame just
    // loaded was lost so, and reported done). Nothing reached the frame's page: sent again
    if (!point && armed?.kind === 'press' && el.isConnected)
      return { landed: false, covering: 'the page around its frame', blocked: true };
    if (!point || !el.isConnected) return { landed: null };
    const there = now();
    return there.ok ? { landed: null } : { landed: false, covering: there.covering, blocked: false };
  },
);

/**
 * Where typed keys go now (run through the walker, `a`: callWalker): the focused element (through open shadow
 * roots) by the snapshot's label, and whether it takes text. An iframe counts as taking it (the keys
 * go into its document; `frame`). Nothing focused: `element` null, the page itself gets the keys.
 * `hasFocus`: the document has the focus (it, or a frame in it): of two documents asked, the one the
 * keys went into.
 */
export const FOCUSED_FOR_TYPING = actionFunction(
  'focusedForTyping',
  z.object({ element: z.string().nullable(), editable: z.boolean(), frame: z.boolean(), hasFocus: z.boolean() }),
  function (
    this: unknown,
    kit,
    a: { label(el: Element): string },
  ): { element: string | null; editable: boolean; frame: boolean; hasFocus: boolean } {
    const hasFocus = document.hasFocus();
    let el = document.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    if (!el || el === document.body || el === document.documentElement)
      return { element: null, editable: false, frame: false, hasFocus };
    const role = el.getAttribute('role') || '';
    const frame = el.tagName === 'IFRAME' || el.tagName === 'FRAME';
    const editable =
      frame ||
      (el as HTMLElement).isContentEditable ||
      el.tagName === 'TEXTAREA' ||
      el.tagName === 'SELECT' ||
      kit.textInput(el) ||
      ['textbox', 'searchbox', 'combobox', 'spinbutton'].includes(role);
    return { element: a.label(el), editable, frame, hasFocus };
  },
);
