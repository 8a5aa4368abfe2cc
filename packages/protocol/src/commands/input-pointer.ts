import { z } from 'zod';
import { defineCommand } from '../define.js';
import { ActionEffects, ActionTimeout, IncludeDiff, TabId, Target } from '../common.js';

const Coordinate = z.number().min(-100_000).max(100_000);

const CheckResult = ActionEffects.extend({
  element: z.string().describe('The checkbox, radio or switch'),
  checked: z.boolean().describe('Its checked state after the command'),
  changed: z.boolean().describe('Whether the command had to click (false: it was already in that state)'),
});

const Point = z.object({ x: z.number(), y: z.number() });

/** Pointer-level and stateful interaction: check/uncheck, raw mouse, drag, scroll into view. */
export const inputPointerCommands = {
  check: defineCommand({
    name: 'input.check',
    cli: { verb: 'check', positionals: ['target'], examples: ['argus check e7', 'argus check "#terms"'] },
    tool: 'argus_check',
    kind: 'mutation',
    scope: 'write',
    summary: 'Make a checkbox, radio button or switch checked; clicks only when it is not checked yet, then verifies.',
    input: () => z.object({ target: Target, diff: IncludeDiff, tab: TabId.optional(), timeoutMs: ActionTimeout }),
    output: () => CheckResult,
  }),
  uncheck: defineCommand({
    name: 'input.uncheck',
    cli: { verb: 'uncheck', positionals: ['target'], examples: ['argus uncheck e7'] },
    tool: 'argus_uncheck',
    kind: 'mutation',
    scope: 'write',
    summary: 'Make a checkbox or switch unchecked; clicks only when it is checked, then verifies.',
    input: () => z.object({ target: Target, diff: IncludeDiff, tab: TabId.optional(), timeoutMs: ActionTimeout }),
    output: () => CheckResult,
  }),
  mouse: defineCommand({
    name: 'input.mouse',
    cli: {
      verb: 'mouse',
      positionals: ['action', 'x', 'y'],
      examples: [
        'argus mouse move 120 300',
        'argus mouse down 120 300',
        'argus mouse up',
        'argus mouse click 40 60 --button right',
      ],
    },
    tool: 'argus_mouse',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Pointer-level mouse input at viewport coordinates: move, press (down), release (up) or click; the pressed buttons are remembered per tab.',
    input: () =>
      z.object({
        action: z.enum(['move', 'down', 'up', 'click']).describe('What the mouse does'),
        x: Coordinate.optional().describe('Viewport x in CSS pixels; down/up default to the last position'),
        y: Coordinate.optional().describe('Viewport y in CSS pixels; down/up default to the last position'),
        button: z.enum(['left', 'right', 'middle']).default('left').describe('Mouse button for down, up and click'),
        clickCount: z.number().int().min(1).max(3).default(1).describe('1 for a click, 2 for a double click'),
        tab: TabId.optional(),
      }),
    output: () =>
      ActionEffects.extend({
        x: z.number().describe('Mouse x after the command'),
        y: z.number().describe('Mouse y after the command'),
        pressed: z.array(z.string()).describe('Buttons still held down'),
      }),
  }),
  drag: defineCommand({
    name: 'input.drag',
    cli: {
      verb: 'drag',
      positionals: ['from', 'to'],
      examples: ['argus drag e4 e9', 'argus drag "#card" "#done"', 'argus drag 100,200 400,200'],
    },
    tool: 'argus_drag',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Drag from one element or point to another with real mouse events; HTML5 draggable sources get real drag-and-drop events.',
    input: () =>
      z.object({
        from: z
          .string()
          .min(1)
          .max(2000)
          .describe('Where to press: a ref, a CSS selector or "x,y" viewport coordinates'),
        to: z
          .string()
          .min(1)
          .max(2000)
          .describe('Where to release: a ref, a CSS selector or "x,y" viewport coordinates'),
        steps: z.number().int().min(1).max(100).default(10).describe('Intermediate mouse moves between the two points'),
        diff: IncludeDiff,
        tab: TabId.optional(),
        timeoutMs: ActionTimeout,
      }),
    output: () =>
      ActionEffects.extend({
        from: Point.describe('Press point (viewport)'),
        to: Point.describe('Release point (viewport)'),
        mode: z
          .enum(['pointer', 'html5'])
          .describe(
            'pointer: mouse events only; html5: the page started a native drag and got dragenter/dragover/drop',
          ),
        toLocator: z.string().optional().describe('A stable locator for the drop target, like locator for the source'),
      }),
  }),
  scrollIntoView: defineCommand({
    name: 'input.scrollIntoView',
    cli: { verb: 'scroll-into-view', positionals: ['target'], examples: ['argus scroll-into-view e40'] },
    tool: 'argus_scroll_into_view',
    kind: 'mutation',
    scope: 'write',
    summary: 'Scroll the page (and any scrolling containers) until an element is visible.',
    input: () => z.object({ target: Target, tab: TabId.optional(), timeoutMs: ActionTimeout }),
    output: () =>
      z.object({
        element: z.string().describe('What was scrolled into view'),
        scrollX: z.number().describe("Scroll x afterwards of the element's document (its frame's, in a frame)"),
        scrollY: z.number().describe("Scroll y afterwards of the element's document"),
      }),
  }),
};
