import { CommandCancelledError, type Page, PageUnresponsiveError, ProtocolError } from '@argus/cdp';
import { ArgusError } from '@argus/protocol';
import {
  DEFAULT_TIMEOUT_MS,
  type ClickPoint,
  type GoneOnPress,
  actionPoint,
  callAction,
  ensureActionable,
  goneBeforePress,
  landing,
  missedLanding,
  releasedElsewhere,
  sessionOffset,
} from './actionability.js';
import type { SnapshotEngine } from './engine.js';
import type { ElementHandle } from './element-handle.js';
import { type FrameContext, callWalker, documentContext, evalValue, frameContext } from './frame-eval.js';
import { frameIdOf } from './frame-text.js';
import { FOCUSED_FOR_TYPING } from './page/actionability.js';
import { ELEMENT_HTML, ELEMENT_TEXT } from './page/content.js';
import { FINISH_FILL, type FillEcho, PREPARE_FILL, PRESET_LINES, SET_NATIVE_VALUE, textDigest } from './page/fill.js';
import { type PageFunction, pageExpression, pageResult } from './page/page-function.js';
import { PICK_OPTIONS } from './page/select.js';

export interface ActionOptions {
  /** bound on waiting for the element to be actionable (default 5 s) */
  timeoutMs?: number;
  /**
   * Told of the element once it is found, before any input reaches it: what the caller reads of it
   * (the daemon's report reads its stable locator) then rides on the action's own resolution and
   * round trips instead of finding the element a second time.
   */
  onElement?: (handle: ElementHandle) => void;
}

function timeoutOf(options: ActionOptions | undefined): number {
  const value = options?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(value) || value < 0)
    throw new ArgusError('invalid_input', `--timeout-ms must be a non-negative number (got ${value}).`);
  return value;
}

/**
 * The element an action works on. A caller that bounds the action (the daemon's commands all do,
 * with their --timeout-ms) has a locator or selector that matches nothing yet waited for within
 * that bound (SnapshotEngine.resolveWaiting); without one (scroll, screenshot --ref) it resolves at once.
 */
async function elementFor(engine: SnapshotEngine, target: string, options: ActionOptions): Promise<ElementHandle> {
  const handle = await (options.timeoutMs === undefined
    ? engine.resolve(target)
    : engine.resolveWaiting(target, timeoutOf(options)));
  options.onElement?.(handle);
  return handle;
}

/**
 * Clicks with real mouse events at the element's centre, after checking nothing covers it.
 * `goneOnPress`: the page took the element out as it was pressed (the click is done; see GoneOnPress).
 */
export async function click(
  engine: SnapshotEngine,
  target: string,
  options: ActionOptions & { button?: 'left' | 'right' | 'middle'; double?: boolean } = {},
): Promise<{ element: string; goneOnPress?: GoneOnPress }> {
  const timeoutMs = timeoutOf(options);
  const handle = await elementFor(engine, target, options);
  const gone = await pointerAction(engine, handle, timeoutMs, 'click', (point) =>
    engine.page.mouseClick(point.main.x, point.main.y, {
      button: options.button ?? 'left',
      clickCount: options.double ? 2 : 1,
    }),
  );
  return gone ? { element: handle.label, goneOnPress: gone } : { element: handle.label };
}

export async function hover(
  engine: SnapshotEngine,
  target: string,
  options: ActionOptions = {},
): Promise<{ element: string }> {
  const timeoutMs = timeoutOf(options);
  const handle = await elementFor(engine, target, options);
  await pointerAction(engine, handle, timeoutMs, 'hover', (point) => engine.page.mouseMove(point.main.x, point.main.y));
  return { element: handle.label };
}

/** Pauses between tries of a pointer action whose input did not land (then the last one again). */
const LANDING_RETRY_MS = [0, 20, 50, 100, 250];

/**
 * Sends pointer input at the element and makes sure it reached it. The point is checked before the
 * mouse moves (actionPoint), but moving there can set off a hover effect that moves or covers the
 * element; the landing guard armed with that check judges the input by what it really reached, and
 * a press that would land elsewhere is stopped before the page sees it. Then the element is found
 * again and the input sent again, within the action's timeout, after which it fails with
 * `element_obscured` naming what was hit instead; if the element left the page meanwhile, with
 * `ref_stale` saying nothing was clicked. A landing costs one round trip (reading the guard).
 * A press that reached the element but whose release did not is never sent again (the page saw it):
 * when the element moved on mousedown (the page's click went to a common ancestor or nowhere) it
 * fails at once, saying where the release went; when the page took the element out as it was pressed
 * (removed or re-rendered it) the click is done, and what became of it is returned (GoneOnPress).
 */
async function pointerAction(
  engine: SnapshotEngine,
  handle: ElementHandle,
  timeoutMs: number,
  action: 'click' | 'hover',
  send: (point: ClickPoint) => Promise<void>,
): Promise<GoneOnPress | undefined> {
  const deadline = performance.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    // bounded by what is left of the timeout; its errors name the command's own
    const point = await actionPoint(engine.page, handle, Math.max(0, deadline - performance.now()), {
      enabled: action === 'click',
      guard: action === 'click' ? 'press' : 'move',
      commandTimeoutMs: timeoutMs,
    }).catch((error: unknown) => {
      // gone after a press the guard kept from the page (a hover effect removed it): nothing was clicked
      if (attempt > 0 && action === 'click' && error instanceof ArgusError && error.details?.['reason'] === 'detached')
        throw goneBeforePress(handle, error, timeoutMs);
      throw error;
    });
    await send(point);
    const landed = await landing(engine.page, handle, point);
    // the press reached the page: never pressed again
    if (landed.release?.elementGone) return { releasedOn: landed.release.on, replaced: landed.release.replaced };
    if (landed.release) throw releasedElsewhere(handle, landed.release);
    if (landed.landed !== false) return undefined;
    // a press that went elsewhere unstopped (another frame) is not sent again
    if (action === 'click' && !landed.blocked) throw missedLanding(handle, landed, action, timeoutMs);
    const pause = LANDING_RETRY_MS[Math.min(attempt, LANDING_RETRY_MS.length - 1)] ?? 0;
    if (performance.now() + pause >= deadline) throw missedLanding(handle, landed, action, timeoutMs);
    if (pause) await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/**
 * How much of the value `fill` echoes. The caller knows its own text: a long value echoed whole only
 * costs tokens (a 50,000-character fill returned 50,000 characters). A longer value is cut, with its
 * full length, and whether all of it is the text given, said beside it.
 */
export const FILL_ECHO_CHARS = 200;

/** What `fill` reports: the field's value (cut to FILL_ECHO_CHARS), masked for a password field. */
export interface FillResult {
  element: string;
  value: string;
  /** with a cut value: the value's full length, and whether the whole value is exactly the text given */
  length?: number;
  truncated?: true;
  matches?: boolean;
}

/** Replaces the content of an input, textarea or contenteditable; fires input and change. */
export async function fill(
  engine: SnapshotEngine,
  target: string,
  text: string,
  options: ActionOptions = {},
): Promise<FillResult> {
  if (typeof text !== 'string') throw new ArgusError('invalid_input', 'fill needs the text to put in the field.');
  const timeoutMs = timeoutOf(options);
  const handle = await elementFor(engine, target, options);
  await ensureActionable(handle, timeoutMs, { editable: true });
  const prepared = await callAction(handle, PREPARE_FILL);
  // the echo is cut in the page: a long value does not come back whole
  const expected = { length: text.length, digest: textDigest(text) };
  let echo: FillEcho;
  if (prepared.kind === 'native' || (text === '' && prepared.kind === 'input')) {
    echo = await callAction(handle, SET_NATIVE_VALUE, text, FILL_ECHO_CHARS, expected);
  } else {
    let insert = text;
    const lastBreak = prepared.type === 'textarea' ? text.lastIndexOf('\n') : -1;
    if (lastBreak > 0 && (await callAction(handle, PRESET_LINES, text.slice(0, lastBreak))))
      insert = text.slice(lastBreak);
    if (text === '')
      await handle.session.send('Input.dispatchKeyEvent', {
        type: 'rawKeyDown',
        key: 'Delete',
        code: 'Delete',
        windowsVirtualKeyCode: 46,
      });
    else await handle.session.send('Input.insertText', { text: insert });
    echo = await callAction(handle, FINISH_FILL, FILL_ECHO_CHARS, expected);
  }
  if (prepared.type === 'password') return { element: handle.label, value: '••••' };
  if (!echo.truncated) return { element: handle.label, value: echo.value };
  return { element: handle.label, value: echo.value, length: echo.length, truncated: true, matches: echo.matches };
}

/** An option as `select` reports it. */
export interface SelectedOption {
  value: string;
  label: string;
}

/**
 * Selects `wanted` (one value or label, or a list of them for a <select multiple>, which then holds
 * exactly those) in a native <select>. See PICK_OPTIONS for the matching.
 */
export async function selectOption(
  engine: SnapshotEngine,
  target: string,
  wanted: string | readonly string[],
  options: ActionOptions = {},
): Promise<{ element: string; selected: SelectedOption[] }> {
  const timeoutMs = timeoutOf(options);
  const handle = await elementFor(engine, target, options);
  await ensureActionable(handle, timeoutMs);
  const values = typeof wanted === 'string' ? [wanted] : [...wanted];
  const picked = await callAction(handle, PICK_OPTIONS, values);
  if (picked.notSelect) {
    throw new ArgusError(
      'element_not_interactable',
      /^(combobox|listbox|button)\b/.test(handle.label)
        ? `${handle.label} is not a native <select>. Click it to open the list, then click the option's ref.`
        : `${handle.label} is not a <select>: \`select\` chooses the options of one. To put text in a field use \`argus fill\`; to find the list, run \`argus snapshot -i\`.`,
      { details: { element: handle.label } },
    );
  }
  if (picked.single) {
    throw new ArgusError(
      'invalid_input',
      `${handle.label} takes one option, and ${values.length} were given. Give one value; only a <select multiple> takes several.`,
      { details: { element: handle.label, given: values.length } },
    );
  }
  if (picked.disabled !== undefined) {
    throw new ArgusError(
      'element_not_interactable',
      `The option "${picked.disabled}" of ${handle.label} is disabled.`,
      {
        details: { element: handle.label, option: picked.disabled },
      },
    );
  }
  if (!picked.ok) {
    throw new ArgusError(
      'invalid_input',
      `${handle.label} has no option "${picked.missing ?? ''}". Options: ${(picked.options ?? []).join('; ') || '(none)'}.`,
      { details: { element: handle.label, options: picked.options ?? [] } },
    );
  }
  return { element: handle.label, selected: picked.chosen ?? [] };
}

export async function focus(
  engine: SnapshotEngine,
  target: string,
  options: ActionOptions = {},
): Promise<{ element: string }> {
  const timeoutMs = timeoutOf(options);
  const handle = await elementFor(engine, target, options);
  await ensureActionable(handle, timeoutMs, { enabled: false });
  await handle.session.send('DOM.focus', { objectId: handle.objectId }).catch((error: unknown) => {
    throw error instanceof ProtocolError && /not focusable/i.test(error.message) ? cannotFocus(handle.label) : error;
  });
  return { element: handle.label };
}

/** `type` into an element that does not take (or keep) the focus: refused, before any key goes to the page. */
export function cannotFocus(label: string): ArgusError {
  return new ArgusError(
    'element_not_interactable',
    `${label} cannot take the focus (not a field, nor focusable), so nothing was typed. Type into a text field (run \`argus snapshot -i\` to find one), or click it first when the page listens for keys there and use \`argus type\` without a target.`,
    { details: { element: label } },
  );
}

/** Where keys go: the focused element's label (null: nothing, the document body gets them) and whether it takes text. */
export interface TypingTarget {
  element: string | null;
  editable: boolean;
}

/**
 * Where keys typed now would go: the focused element's label (null: nothing, the page gets them) and
 * whether it takes text, inside a frame when the focus is there (see sendKeys). Fails when the top
 * document cannot be read, before any key is sent (`type`: a call that would type blind is refused
 * rather than sent).
 */
export async function typingTarget(engine: SnapshotEngine): Promise<TypingTarget> {
  const page = engine.page;
  const ctx = await documentContext(page, page.mainFrameId);
  return targetOf(await followFocus(page, { ctx, focus: await focusIn(ctx) }, 0));
}

/**
 * Sends keys (`send`) and says where they went, as typingTarget would: the focus is read, then the
 * keys sent. The read is awaited first: a Runtime call sent along with the key events is not ordered
 * with them (Chrome takes input to the renderer on a channel of its own, and the renderer runs input
 * first), and a read sent just before a Tab was seen answering with the focus after it. It is one
 * round trip unless the top document's focus is on a frame: then the keys go into that frame's
 * document, and an iframe is no answer, so the focus is followed down (followFocus), whether a frame
 * was chosen with `argus frame` or not. `target` is absent when the top document could not be read
 * (none now); the keys are sent anyway.
 */
export async function sendKeys<T>(
  engine: SnapshotEngine,
  send: () => Promise<T>,
): Promise<{ value: T; target?: TypingTarget }> {
  const page = engine.page;
  const outer = await readFocus(page, page.mainFrameId);
  const inner = outer && (await followFocus(page, outer, 0));
  const value = await send();
  if (!inner) return { value };
  return { value, target: targetOf(inner) };
}

/**
 * Frames the focus is followed down through from the top document: a field is rarely more than a
 * frame or two deep, and each level costs round trips before the keys go.
 */
const MAX_FOCUS_NESTING = 4;

/**
 * The innermost focused element: while a document's focus is on an iframe, that frame's document's
 * focused element (its child frame found as snapshots find it: the iframe element's frame id). A
 * page that has not had input yet (a field focused with DOM.focus, no key or click) has the focus
 * in no document, yet each parent's focus is on the frame holding the field, so it is followed too.
 * A frame whose document cannot be read, or whose focus is on its body, leaves the iframe named:
 * the keys go into it all the same.
 */
async function followFocus(page: Page, read: FocusRead, nesting: number): Promise<Focus> {
  if (!read.focus.frame || nesting >= MAX_FOCUS_NESTING) return read.focus;
  const childId = await focusedFrameId(read.ctx);
  const inner = childId === undefined ? undefined : await readFocus(page, childId);
  if (!inner || inner.focus.element === null) return read.focus;
  return followFocus(page, inner, nesting + 1);
}

/** The frame id of the document's focused iframe (through open shadow roots, as FOCUSED_FOR_TYPING reads it). */
async function focusedFrameId(ctx: FrameContext): Promise<string | undefined> {
  try {
    return await frameIdOf(
      ctx,
      '(() => { let el = document.activeElement; while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement; return el; })()',
    );
  } catch (error) {
    if (error instanceof CommandCancelledError || error instanceof PageUnresponsiveError) throw error;
    return undefined;
  }
}

function targetOf(focus: Focus): TypingTarget {
  return { element: focus.element, editable: focus.editable };
}

interface FocusRead {
  ctx: FrameContext;
  focus: Focus;
}

/** The focus in a frame's document (FOCUSED_FOR_TYPING); undefined when it has no document to read now. */
async function readFocus(page: Page, frameId: string): Promise<FocusRead | undefined> {
  const ctx = await frameContext(page, frameId);
  if (!ctx) return undefined;
  try {
    return { ctx, focus: await focusIn(ctx) };
  } catch (error) {
    // a page that does not answer, or a caller that left, is not a page without a document
    if (error instanceof CommandCancelledError || error instanceof PageUnresponsiveError) throw error;
    return undefined;
  }
}

/** The focus in one document: FOCUSED_FOR_TYPING run by its walker. */
async function focusIn(ctx: FrameContext): Promise<Focus> {
  return pageResult(FOCUSED_FOR_TYPING, await callWalker<unknown>(ctx, FOCUSED_FOR_TYPING.source, null, []));
}

/** FOCUSED_FOR_TYPING's answer: also whether the focus is on a frame, and whether the document has it. */
interface Focus extends TypingTarget {
  frame: boolean;
  hasFocus: boolean;
}

export async function scrollIntoView(
  engine: SnapshotEngine,
  target: string,
  options: ActionOptions = {},
): Promise<{ element: string }> {
  const timeoutMs = timeoutOf(options);
  const handle = await elementFor(engine, target, options);
  await ensureActionable(handle, timeoutMs, { enabled: false });
  return { element: handle.label };
}

/** Visible text (innerText) of an element, or of the whole page when no target is given. */
export async function elementText(
  engine: SnapshotEngine,
  target: string | undefined,
  maxChars: number,
): Promise<{ text: string; truncated: boolean }> {
  return read(engine, target, ELEMENT_TEXT, maxChars);
}

export async function elementHtml(
  engine: SnapshotEngine,
  target: string | undefined,
  maxChars: number,
): Promise<{ html: string; truncated: boolean }> {
  return read(engine, target, ELEMENT_HTML, maxChars);
}

async function read<T>(
  engine: SnapshotEngine,
  target: string | undefined,
  fn: PageFunction<'element' | 'none', [maxChars: number], T>,
  maxChars: number,
): Promise<T> {
  if (!Number.isFinite(maxChars) || maxChars < 1)
    throw new ArgusError('invalid_input', `maxChars must be a positive number (got ${maxChars}).`);
  if (target !== undefined && target.trim()) {
    const handle = await engine.resolve(target);
    return callAction(handle, fn, maxChars);
  }
  const ctx = await documentContext(engine.page, engine.page.mainFrameId);
  return pageResult(fn, await evalValue<unknown>(ctx, pageExpression(fn, 'undefined', [maxChars])));
}

/** The element's box in page (document) coordinates, for `screenshot --ref`; scrolls it into view. */
export async function elementBox(
  engine: SnapshotEngine,
  target: string,
  options: ActionOptions = {},
): Promise<{ x: number; y: number; width: number; height: number }> {
  const timeoutMs = timeoutOf(options);
  const handle = await elementFor(engine, target, options);
  const state = await ensureActionable(handle, timeoutMs, { enabled: false });
  const { quads } = await handle.session
    .send('DOM.getContentQuads', { objectId: handle.objectId })
    .catch(() => ({ quads: [] as number[][] }));
  let box = state.rect ?? { x: 0, y: 0, width: 0, height: 0 };
  if (quads.length) {
    const xs = quads.flatMap((q) => [q[0]!, q[2]!, q[4]!, q[6]!]);
    const ys = quads.flatMap((q) => [q[1]!, q[3]!, q[5]!, q[7]!]);
    box = {
      x: Math.min(...xs),
      y: Math.min(...ys),
      width: Math.max(...xs) - Math.min(...xs),
      height: Math.max(...ys) - Math.min(...ys),
    };
  }
  if (handle.session !== engine.page.session) {
    const offset = await sessionOffset(engine.page, handle.frameId);
    box = { ...box, x: box.x + offset.dx, y: box.y + offset.dy };
  }
  const metrics = await engine.page.session.send('Page.getLayoutMetrics');
  const { pageX, pageY } = metrics.cssVisualViewport;
  return { x: box.x + pageX, y: box.y + pageY, width: box.width, height: box.height };
}
