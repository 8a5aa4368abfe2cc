import { CommandCancelledError, type EventParams, type Page } from '@argus/cdp';
import { ArgusError, type Handlers } from '@argus/protocol';
import { CHECK_STATE, CLICK_LABEL, click, draggableAt, scrollIntoView } from '@argus/snapshot';
import type { BrowserManager } from '../browser-manager.js';
import { targetScrollPosition } from '../frame-scope.js';
import { callOnElement } from '../page-eval.js';
import { type Point, parsePoint, pointFor } from '../pointer-geometry.js';
import type { Services } from '../services.js';
import { actAndReport, locatorOf } from '../action-result.js';
import type { MouseButton, MouseState } from '../tab-state.js';

type Button = MouseButton;
const BUTTON_BITS: Record<Button, number> = { left: 1, right: 2, middle: 4 };

function buttonsMask(state: MouseState): number {
  let mask = 0;
  for (const button of state.pressed) mask |= BUTTON_BITS[button];
  return mask;
}

export function inputPointerHandlers(
  services: Services,
): Pick<Handlers['input'], 'check' | 'uncheck' | 'mouse' | 'drag' | 'scrollIntoView'> {
  const { manager } = services;
  return {
    check: (input) => setChecked(manager, input, true),
    uncheck: (input) => setChecked(manager, input, false),
    mouse: (input) =>
      manager.onTab(input.tab, async (page) => {
        const state = manager.tabState(page).mouse;
        const hasPoint = input.x !== undefined && input.y !== undefined;
        if ((input.x === undefined) !== (input.y === undefined))
          throw new ArgusError('invalid_input', 'Give both x and y, e.g. `argus mouse move 120 300`.');
        if (!hasPoint && (input.action === 'move' || input.action === 'click')) {
          throw new ArgusError(
            'invalid_input',
            `mouse ${input.action} needs coordinates, e.g. \`argus mouse ${input.action} 120 300\`.`,
          );
        }
        const x = input.x ?? state.x;
        const y = input.y ?? state.y;
        const send = (
          type: 'mouseMoved' | 'mousePressed' | 'mouseReleased',
          extra: { button?: Button; clickCount?: number } = {},
        ) => page.session.send('Input.dispatchMouseEvent', { type, x, y, buttons: buttonsMask(state), ...extra });
        // an action as any other: what it caused, the frame choice a navigation of the top document ended
        const { effects } = await actAndReport(manager, page, {}, async () => {
          if (x !== state.x || y !== state.y || input.action === 'move')
            await send('mouseMoved', state.pressed.size ? { button: [...state.pressed][0] as Button } : {});
          state.x = x;
          state.y = y;
          if (input.action === 'down' || input.action === 'click') {
            state.pressed.add(input.button);
            await send('mousePressed', { button: input.button, clickCount: input.clickCount });
          }
          if (input.action === 'up' || input.action === 'click') {
            state.pressed.delete(input.button);
            await send('mouseReleased', { button: input.button, clickCount: input.clickCount });
          }
        });
        return { ...effects, x, y, pressed: [...state.pressed] };
      }),
    drag: (input) =>
      manager.onTab(input.tab, async (page) => {
        const engine = manager.engine(page);
        const from = await pointFor(engine, page, input.from, input.timeoutMs);
        const to = await pointFor(engine, page, input.to, input.timeoutMs);
        // the second lookup may have scrolled: re-measure the first unless it is raw coordinates
        const start = parsePoint(input.from) ? from : await pointFor(engine, page, input.from, input.timeoutMs);
        const source = parsePoint(input.from) ? undefined : input.from;
        const toLocator = parsePoint(input.to) ? undefined : await locatorOf(engine, input.to);
        const { value: mode, effects } = await actAndReport(manager, page, { target: source, diff: input.diff }, () =>
          drag(page, start, to, input.steps),
        );
        const state = manager.tabState(page).mouse;
        state.x = to.x;
        state.y = to.y;
        state.pressed.clear();
        return { ...effects, from: start, to, mode, ...(toLocator === undefined ? {} : { toLocator }) };
      }),
    scrollIntoView: (input) =>
      manager.onTab(input.tab, async (page) => {
        const engine = manager.engine(page);
        const { element } = await scrollIntoView(engine, input.target, { timeoutMs: input.timeoutMs });
        // its document's offsets: the frame's, for an element in one
        const position = await targetScrollPosition(page, engine, input.target);
        return { element, scrollX: position.x, scrollY: position.y };
      }),
  };
}

/**
 * Press, move in steps, release. When the source is HTML5-draggable the native drag is intercepted
 * (`Input.setInterceptDrags`) and replayed with `Input.dispatchDragEvent` at the drop point, so the
 * page sees dragstart / dragenter / dragover / drop exactly as from a real mouse.
 */
async function drag(page: Page, from: Point, to: Point, steps: number): Promise<'pointer' | 'html5'> {
  const session = page.session;
  // in whichever document the press lands: the top one or a frame's, in or out of process
  const draggable = await draggableAt(page, from).catch((error: unknown) => {
    if (error instanceof CommandCancelledError) throw error;
    return false;
  });
  let intercepted: Promise<EventParams<'Input.dragIntercepted'> | undefined> = Promise.resolve(undefined);
  if (draggable) {
    await session.send('Input.setInterceptDrags', { enabled: true });
    intercepted = session.waitFor('Input.dragIntercepted', { timeoutMs: 2_000 }).catch(() => undefined);
  }
  try {
    await session.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: from.x, y: from.y, buttons: 0 });
    await session.send('Input.dispatchMouseEvent', {
      type: 'mousePressed',
      x: from.x,
      y: from.y,
      button: 'left',
      buttons: 1,
      clickCount: 1,
    });
    for (let step = 1; step <= steps; step++) {
      const x = from.x + ((to.x - from.x) * step) / steps;
      const y = from.y + ((to.y - from.y) * step) / steps;
      await session.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, button: 'left', buttons: 1 });
    }
    const drop = draggable ? await intercepted : undefined;
    if (drop) {
      for (const type of ['dragEnter', 'dragOver', 'drop'] as const)
        await session.send('Input.dispatchDragEvent', { type, x: to.x, y: to.y, data: drop.data });
    }
    await session.send('Input.dispatchMouseEvent', {
      type: 'mouseReleased',
      x: to.x,
      y: to.y,
      button: 'left',
      buttons: 0,
      clickCount: 1,
    });
    return drop ? 'html5' : 'pointer';
  } finally {
    if (draggable) await session.send('Input.setInterceptDrags', { enabled: false }).catch(() => undefined);
  }
}

async function setChecked(
  manager: BrowserManager,
  input: { target: string; diff: boolean; tab?: string | undefined; timeoutMs: number },
  want: boolean,
) {
  return manager.onTab(input.tab, async (page) => {
    const engine = manager.engine(page);
    const read = async () => {
      const handle = await engine.resolveWaiting(input.target, input.timeoutMs);
      return { handle, state: await callOnElement(page, handle, CHECK_STATE) };
    };
    const { handle, state } = await read();
    const verb = want ? 'check' : 'uncheck';
    if (state.kind === 'none') {
      throw new ArgusError(
        'invalid_input',
        `${handle.label} is not a checkbox, radio button or switch. Target the control itself (or its label); \`argus snapshot -i\` shows them as checkbox/radio/switch.`,
        {
          details: { element: handle.label },
        },
      );
    }
    if (state.checked === want) {
      const locator = await locatorOf(engine, input.target);
      const unchanged = {
        navigated: false,
        url: page.url,
        // nothing was done, but dialogs since the previous reply are still news to the caller
        dialogs: page.capture.takeUnreported(),
        consoleErrors: [],
        element: handle.label,
        checked: want,
        changed: false,
      };
      return {
        ...unchanged,
        ...(locator === undefined ? {} : { locator }),
        ...(input.diff ? { diff: '(no changes: it already was)' } : {}),
      };
    }
    if (!want && state.kind === 'radio') {
      throw new ArgusError(
        'invalid_input',
        `${handle.label} is a radio button: clicking never unchecks it. Check another option of the group instead.`,
        { details: { element: handle.label } },
      );
    }
    if (state.disabled)
      throw new ArgusError(
        'element_not_interactable',
        `${handle.label} is disabled; it cannot be ${verb}ed until the page enables it.`,
        { details: { element: handle.label } },
      );
    const { effects } = await actAndReport(manager, page, input, async () => {
      // the report's snapshot released the handle's object: resolve again
      const current = await engine.resolve(input.target);
      if (state.visible || !state.hasLabel) await click(engine, input.target, { timeoutMs: input.timeoutMs });
      else await callOnElement(page, current, CLICK_LABEL);
    });
    const after = await read().catch(() => undefined);
    if (!effects.navigated && after && after.state.checked !== want) {
      throw new ArgusError(
        'element_not_interactable',
        `Clicked ${handle.label} but it is still ${want ? 'unchecked' : 'checked'}: the page kept it from changing. Check with \`argus snapshot -i\` what it expects.`,
        {
          details: { element: handle.label },
        },
      );
    }
    return { ...effects, element: handle.label, checked: after ? after.state.checked : want, changed: true };
  });
}
