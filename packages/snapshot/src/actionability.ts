import { CommandCancelledError, type Page, type Session } from '@argus/cdp';
import { ArgusError } from '@argus/protocol';
import type { ElementHandle } from './element-handle.js';
import { callOnElement, frameContext } from './frame-eval.js';
import {
  ARM_LANDING,
  DESCRIBE_ELEMENT,
  HIT_CHECK,
  TAKE_LANDING,
  WAIT_ACTIONABLE,
  type ActionableResult,
  type Landing,
} from './page/actionability.js';
import { type PageFunction, pageResult } from './page/page-function.js';

export type { ActionableResult, Landing };

export const DEFAULT_TIMEOUT_MS = 5_000;

export interface Point {
  x: number;
  y: number;
}

/** Calls an action page function with `this` bound to the element; its answer checked against the function's schema. */
export async function callAction<A extends unknown[], R>(
  handle: { session: Session; objectId: string },
  fn: PageFunction<'element', A, R>,
  ...args: A
): Promise<R> {
  return pageResult(fn, await callOnElement<unknown>(handle.session, handle.objectId, fn.source, args));
}

/**
 * What an action needs of its element. `commandTimeoutMs`: the command's own timeout, which its
 * errors name, when the wait's bound is only what is left of it (a pointer action trying again).
 */
export interface Needs {
  enabled?: boolean;
  editable?: boolean;
  commandTimeoutMs?: number;
}

/**
 * Scrolls the element into view and waits (bounded) until it is visible, enabled (and editable when
 * asked) and not moving. Errors name the element and say what to do next.
 */
export async function ensureActionable(
  handle: ElementHandle,
  timeoutMs: number,
  needs: Needs = {},
): Promise<ActionableResult> {
  await scrollIntoView(handle);
  let state = await callAction(
    handle,
    WAIT_ACTIONABLE,
    timeoutMs,
    needs.enabled !== false,
    needs.editable === true,
    false,
    null,
  );
  if (state.ok && !state.inViewport) {
    // it became visible only while we waited, after the first scroll
    await scrollIntoView(handle);
    state = await callAction(
      handle,
      WAIT_ACTIONABLE,
      timeoutMs,
      needs.enabled !== false,
      needs.editable === true,
      false,
      null,
    );
  }
  if (state.ok) return state;
  if (state.reason === 'inert') throw behindModal(handle, state.covering ?? 'a modal dialog');
  throw notActionable(handle, state.reason, needs.commandTimeoutMs ?? timeoutMs);
}

/** The element is outside the open modal dialog: inert, so it takes no input until the dialog closes. */
function behindModal(handle: ElementHandle, modal: string): ArgusError {
  return new ArgusError(
    'element_obscured',
    `${handle.label} is behind the open modal ${modal}: the page takes no input outside it until it closes. Answer or close the dialog first (run \`argus snapshot -i\` to find its buttons), or act inside it.`,
    { details: { element: handle.label, coveredBy: modal, reason: 'inert' } },
  );
}

/**
 * Where a click on the element lands, after checking it is actionable and that nothing covers it.
 * A top-frame element needs one round trip (scroll, wait, box and hit test all in the page); an
 * element in an iframe goes through CDP (DOM.scrollIntoViewIfNeeded, content quads, frame offsets
 * and DOM.getNodeForLocation in each session). With `guard`, the element's landing guard is armed
 * for the input that follows (see armLanding; read with `landing`): in the same round trip for a
 * top-frame element, one more for an element in an iframe.
 */
export async function actionPoint(
  page: Page,
  handle: ElementHandle,
  timeoutMs: number,
  needs: Omit<Needs, 'editable'> & { guard?: 'press' | 'move' } = {},
): Promise<ClickPoint> {
  if (handle.frameId !== page.mainFrameId || handle.session !== page.session) {
    const state = await ensureActionable(handle, timeoutMs, needs);
    const point = await clickPoint(page, handle, state);
    await assertHit(page, handle, point);
    if (needs.guard) await callAction(handle, ARM_LANDING, needs.guard);
    return point;
  }
  const state = await callAction(
    handle,
    WAIT_ACTIONABLE,
    timeoutMs,
    needs.enabled !== false,
    false,
    true,
    needs.guard ?? null,
  );
  if (state.reason === 'obscured') throw obscured(handle, state.covering ?? 'another element');
  if (!state.ok || !state.point) throw notActionable(handle, state.reason, needs.commandTimeoutMs ?? timeoutMs);
  const scroll = state.scroll ?? { x: 0, y: 0 };
  return { main: state.point, local: state.point, mainScroll: scroll, localScroll: scroll, offset: { dx: 0, dy: 0 } };
}

/**
 * What became of the input sent after actionPoint armed the element's guard: whether it reached the
 * element (null: no event seen and nothing else at the point, or no way to tell). One round trip.
 * A page that went away with the input (a click that navigates) counts as reached.
 */
export async function landing(page: Page, handle: ElementHandle, point: ClickPoint): Promise<Landing> {
  const topFrame = handle.frameId === page.mainFrameId && handle.session === page.session;
  try {
    return await callAction(handle, TAKE_LANDING, topFrame ? point.main : null);
  } catch (error) {
    if (error instanceof CommandCancelledError) throw error;
    return { landed: null };
  }
}

/**
 * The input never reached the element: it moved or was covered as the mouse came to it (a hover
 * effect), within the whole action timeout. A press stopped by the guard did nothing to the page;
 * one that went into another frame did, and is not tried again.
 */
export function missedLanding(
  handle: ElementHandle,
  landing: Landing,
  action: 'click' | 'hover',
  timeoutMs: number,
): ArgusError {
  const covering = landing.covering ?? 'another element';
  const details = { element: handle.label, coveredBy: covering, reason: 'moved_on_hover', timeoutMs };
  if (action === 'hover')
    return new ArgusError(
      'element_obscured',
      `${handle.label} moved or was covered as the mouse reached it (a hover effect?): the mouse is over ${covering} instead. Run \`argus snapshot -i\` to see the page now.`,
      { details },
    );
  if (landing.blocked)
    return new ArgusError(
      'element_obscured',
      `${handle.label} moved or was covered as the mouse reached it (a hover effect?), for ${timeoutMs} ms: the click would have landed on ${covering}, so it was not let through. Run \`argus snapshot -i\` to see the page now (hover another element first, or dismiss what covers it), then click again.`,
      { details },
    );
  return new ArgusError(
    'element_obscured',
    `${handle.label} moved or was covered as the mouse reached it (a hover effect?): the click may have gone to ${covering} instead (it could not be stopped there: another frame?). Run \`argus snapshot -i\` to see what it did before clicking again.`,
    { details: { ...details, clickedElsewhere: true } },
  );
}

/**
 * The press reached the element and the element is still in the page, but its release did not: it
 * moved or was covered as it was pressed, so the page's click went to a common ancestor or nowhere.
 * The page saw the press (it may have acted on it), so it is not sent again. (An element that left
 * the page as it was pressed is a click done: see GoneOnPress.)
 */
export function releasedElsewhere(handle: ElementHandle, release: NonNullable<Landing['release']>): ArgusError {
  const details = { element: handle.label, reason: 'released_elsewhere', releasedOn: release.on };
  return new ArgusError(
    'element_obscured',
    `${handle.label} was pressed, but the release landed on ${release.on}: it moved or was covered as it was pressed, so the page got no click on it. The press did reach it (the page may have acted on the press), so it was not pressed again. Run \`argus snapshot -i\` to see the page now, then click again only if it is still needed.`,
    { details },
  );
}

/**
 * A click whose element the page took out as it was pressed (a menu item that acts on mousedown and
 * closes its menu, a re-render on press): the press reached it and the page acted on it, so the click
 * is done, not failed (failing it would have an agent press again, and the page act twice). No click
 * event reached the element (the browser sends none to an element gone from the page), and the
 * release landed on `releasedOn`; `replaced`: that is a like element in its place (same tag, id,
 * classes and text), which the click event did not reach either.
 */
export interface GoneOnPress {
  releasedOn: string;
  replaced: boolean;
}

/**
 * The element left the page as the mouse came to it, after a press that would have landed elsewhere
 * was kept from the page: nothing was clicked.
 */
export function goneBeforePress(handle: ElementHandle, cause: ArgusError, timeoutMs: number): ArgusError {
  return new ArgusError(
    'ref_stale',
    `${handle.label} left the page as the mouse reached it (a hover effect?), before it was pressed: nothing was clicked (the press that would have landed elsewhere was kept from the page). Run \`argus snapshot -i\` to see the page now and act on what is there.`,
    { details: { ...cause.details, element: handle.label, reason: 'detached', clicked: false, timeoutMs }, cause },
  );
}

export function notActionable(
  handle: ElementHandle,
  reason: ActionableResult['reason'],
  timeoutMs: number,
): ArgusError {
  const details = { element: handle.label, reason, timeoutMs };
  switch (reason) {
    case 'detached':
      return new ArgusError(
        'ref_stale',
        `${handle.label} was removed from the page. Run \`argus snapshot\` and use the new ref.`,
        { details },
      );
    case 'disabled':
      return new ArgusError(
        'element_not_interactable',
        `${handle.label} stayed disabled for ${timeoutMs} ms. Do what enables it first (fill required fields), or wait longer with --timeout-ms.`,
        { details },
      );
    case 'readonly':
      return new ArgusError(
        'element_not_interactable',
        `${handle.label} stayed read-only for ${timeoutMs} ms. Do what makes it editable first, or target another field.`,
        { details },
      );
    case 'not_text':
      return new ArgusError(
        'element_not_interactable',
        `${handle.label} is not a text field (an input, textarea or contenteditable): it takes no typed text. ${notTextHint(handle.label)}`,
        { details },
      );
    case 'offscreen':
      return new ArgusError(
        'element_not_interactable',
        `${handle.label} is outside the viewport and scrolling does not bring it in (positioned off-screen?). Run \`argus snapshot\` to check it is still there.`,
        { details },
      );
    case 'moving':
      return new ArgusError(
        'timeout',
        `${handle.label} kept moving for ${timeoutMs} ms (an animation?). Retry, or wait for the page to settle.`,
        { details },
      );
    default:
      return new ArgusError(
        'element_not_interactable',
        `${handle.label} is not visible (hidden or zero-size) after ${timeoutMs} ms. Open the menu or section that contains it, then run \`argus snapshot\` again.`,
        { details },
      );
  }
}

/** What to do instead of typing into an element that takes no text, by what it is (its label starts with its role). */
function notTextHint(label: string): string {
  if (/^(combobox|listbox)\b/.test(label)) return 'For a <select>, use `argus select` with the option.';
  if (/^(checkbox|radio|switch)\b/.test(label)) return 'Use `argus check` or `argus uncheck` (or click it).';
  if (/^(button|link)\b/.test(label))
    return 'Click it, or target the text field itself (its ref from `argus snapshot -i`).';
  return 'Target the text field itself (its ref from `argus snapshot -i`).';
}

async function scrollIntoView(handle: ElementHandle): Promise<void> {
  // fails for elements without a layout box; the wait that follows reports that properly
  await handle.session.send('DOM.scrollIntoViewIfNeeded', { objectId: handle.objectId }).catch(() => undefined);
}

/** Offset of a session's root frame inside the main frame's viewport (non-zero for OOPIFs). */
export async function sessionOffset(
  page: Page,
  frameId: string,
): Promise<{ dx: number; dy: number; ownerBackendNodeId?: number; ownerSession?: Session }> {
  let dx = 0;
  let dy = 0;
  let current = page.frames.get(frameId);
  let first: { ownerBackendNodeId: number; ownerSession: Session } | undefined;
  while (current?.parentId) {
    const parent = page.frames.get(current.parentId);
    if (!parent) break;
    if (parent.session !== current.session) {
      const owner = await parent.session.send('DOM.getFrameOwner', { frameId: current.id });
      const { model } = await parent.session.send('DOM.getBoxModel', { backendNodeId: owner.backendNodeId });
      dx += model.content[0] ?? 0;
      dy += model.content[1] ?? 0;
      first ??= { ownerBackendNodeId: owner.backendNodeId, ownerSession: parent.session };
    }
    current = parent;
  }
  return { dx, dy, ...first };
}

export interface ClickPoint {
  /** viewport coordinates of the main frame (what Input.dispatchMouseEvent takes) */
  main: Point;
  /** viewport coordinates inside the root frame of the element's session */
  local: Point;
  /** scroll offsets of the main frame and of the element session's root frame (hit tests take document coordinates) */
  mainScroll: Point;
  localScroll: Point;
  offset: Awaited<ReturnType<typeof sessionOffset>>;
}

function isSessionRoot(page: Page, frameId: string): boolean {
  const frame = page.frames.get(frameId);
  const parent = frame?.parentId ? page.frames.get(frame.parentId) : undefined;
  return !parent || parent.session !== frame?.session;
}

async function scrollOf(session: Session): Promise<Point> {
  const { cssLayoutViewport } = await session.send('Page.getLayoutMetrics');
  return { x: cssLayoutViewport.pageX, y: cssLayoutViewport.pageY };
}

/** Where to click, in the main frame's viewport: the centre of the element's first visible quad. */
export async function clickPoint(page: Page, handle: ElementHandle, state: ActionableResult): Promise<ClickPoint> {
  const ownScroll = state.scroll ?? { x: 0, y: 0 };
  if (handle.frameId === page.mainFrameId && state.rect) {
    const local = { x: state.rect.x + state.rect.width / 2, y: state.rect.y + state.rect.height / 2 };
    return { main: local, local, mainScroll: ownScroll, localScroll: ownScroll, offset: { dx: 0, dy: 0 } };
  }
  const { quads } = await handle.session.send('DOM.getContentQuads', { objectId: handle.objectId });
  const quad = quads.find((q) => area(q) >= 1);
  if (!quad)
    throw new ArgusError(
      'element_not_interactable',
      `${handle.label} has no visible box to click. Run \`argus snapshot\` again.`,
      { details: { element: handle.label } },
    );
  const local = {
    x: (quad[0]! + quad[2]! + quad[4]! + quad[6]!) / 4,
    y: (quad[1]! + quad[3]! + quad[5]! + quad[7]!) / 4,
  };
  const oopif = handle.session !== page.session;
  const [offset, mainScroll, localScroll] = await Promise.all([
    oopif ? sessionOffset(page, handle.frameId) : Promise.resolve({ dx: 0, dy: 0 }),
    scrollOf(page.session),
    oopif
      ? isSessionRoot(page, handle.frameId)
        ? Promise.resolve(ownScroll)
        : scrollOf(handle.session)
      : Promise.resolve({ x: 0, y: 0 }),
  ]);
  return {
    main: { x: local.x + offset.dx, y: local.y + offset.dy },
    local,
    mainScroll,
    localScroll: oopif ? localScroll : mainScroll,
    offset,
  };
}

function area(quad: number[]): number {
  let sum = 0;
  for (let i = 0; i < 8; i += 2) sum += quad[i]! * quad[(i + 3) % 8]! - quad[(i + 2) % 8]! * quad[i + 1]!;
  return Math.abs(sum / 2);
}

/**
 * Hit-tests the point with DOM.getNodeForLocation and fails with `element_obscured`, naming what
 * covers the element, when a click there would land on something else.
 */
export async function assertHit(page: Page, handle: ElementHandle, point: ClickPoint): Promise<void> {
  const oopif = handle.session !== page.session;
  if (oopif && point.offset.ownerBackendNodeId !== undefined && point.offset.ownerSession) {
    // first: is the iframe itself reachable at that point in the page around it?
    const outer = await hitAt(page.session, point.main, point.mainScroll);
    const ownerFrame = page.frames.get(handle.frameId)?.parentId;
    if (outer.backendNodeId !== point.offset.ownerBackendNodeId && outer.frameId !== handle.frameId) {
      await failObscured(
        page,
        handle,
        page.session,
        outer.backendNodeId,
        outer.frameId ?? ownerFrame ?? page.mainFrameId,
      );
    }
  }
  const session = oopif ? handle.session : page.session;
  const hit = oopif
    ? await hitAt(session, point.local, point.localScroll)
    : await hitAt(session, point.main, point.mainScroll);
  if (hit.backendNodeId === handle.backendNodeId) return;
  if (hit.frameId && hit.frameId !== handle.frameId) {
    await failObscured(page, handle, session, hit.backendNodeId, hit.frameId);
    return;
  }
  const ctx = await frameContext(page, handle.frameId);
  if (!ctx)
    throw new ArgusError('ref_stale', `${handle.label} is gone: its frame went away. Run \`argus snapshot\`.`, {
      details: { element: handle.label },
    });
  const { object } = await ctx.session.send('DOM.resolveNode', {
    backendNodeId: hit.backendNodeId,
    executionContextId: ctx.contextId,
  });
  const { result } = await ctx.session.send('Runtime.callFunctionOn', {
    objectId: handle.objectId,
    functionDeclaration: HIT_CHECK.source,
    arguments: [{ objectId: object.objectId }],
    returnByValue: true,
  });
  const verdict = pageResult(HIT_CHECK, result.value);
  if (!verdict.ok) throw obscured(handle, verdict.covering ?? 'another element');
}

/** DOM.getNodeForLocation takes document coordinates: viewport point plus the frame's scroll. */
function hitAt(session: Session, at: Point, scroll: Point) {
  return session.send('DOM.getNodeForLocation', {
    x: Math.round(at.x + scroll.x),
    y: Math.round(at.y + scroll.y),
    ignorePointerEventsNone: true,
  });
}

async function failObscured(
  page: Page,
  handle: ElementHandle,
  session: Session,
  backendNodeId: number,
  frameId: string,
): Promise<never> {
  let covering = 'an element of another frame';
  const ctx = await frameContext(page, frameId);
  if (ctx && ctx.session === session) {
    try {
      const { object } = await session.send('DOM.resolveNode', { backendNodeId, executionContextId: ctx.contextId });
      if (object.objectId) covering = await callAction({ session, objectId: object.objectId }, DESCRIBE_ELEMENT);
    } catch {
      // keep the generic description
    }
  }
  throw obscured(handle, covering);
}

function obscured(handle: ElementHandle, covering: string): ArgusError {
  return new ArgusError(
    'element_obscured',
    `${handle.label} is covered by ${covering}, so a click would hit that instead. Close or dismiss it first (run \`argus snapshot -i\` to find its close button).`,
    {
      details: { element: handle.label, coveredBy: covering },
    },
  );
}
