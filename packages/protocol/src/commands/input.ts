import { z } from 'zod';
import { defineCommand } from '../define.js';
import { ActionEffects, ActionTimeout, IncludeDiff, TabId, Target } from '../common.js';

export const inputCommands = {
  click: defineCommand({
    name: 'input.click',
    cli: {
      verb: 'click',
      positionals: ['target'],
      examples: ['argus click e12', 'argus click "button[type=submit]"', 'argus click e3 --double'],
    },
    tool: 'argus_click',
    kind: 'mutation',
    scope: 'write',
    summary: 'Click an element with real mouse events.',
    input: () =>
      z.object({
        target: Target,
        button: z.enum(['left', 'right', 'middle']).default('left').describe('Mouse button'),
        double: z.boolean().default(false).describe('Double-click'),
        diff: IncludeDiff,
        tab: TabId.optional(),
        timeoutMs: ActionTimeout,
      }),
    output: () =>
      ActionEffects.extend({
        element: z.string().describe('What was clicked'),
        goneOnPress: z
          .object({
            releasedOn: z.string().describe('What the release landed on instead'),
            replaced: z
              .boolean()
              .describe('A like element (same tag, id, classes and text) took its place: a re-render on press'),
          })
          .optional()
          .describe(
            'Only when the page took the element out as it was pressed (a menu item acting on mousedown, a re-render): the press reached it and the page acted on it, so the click is done and was not sent again, but no click event reached the element',
          ),
      }),
    pageContent: ['goneOnPress'],
  }),
  hover: defineCommand({
    name: 'input.hover',
    cli: { verb: 'hover', positionals: ['target'] },
    tool: 'argus_hover',
    kind: 'mutation',
    scope: 'write',
    summary: 'Move the mouse over an element.',
    input: () => z.object({ target: Target, diff: IncludeDiff, tab: TabId.optional(), timeoutMs: ActionTimeout }),
    output: () => ActionEffects.extend({ element: z.string() }),
  }),
  fill: defineCommand({
    name: 'input.fill',
    cli: { verb: 'fill', positionals: ['target', 'text...'], examples: ['argus fill e5 "jane@example.com"'] },
    tool: 'argus_fill',
    kind: 'mutation',
    scope: 'write',
    summary: 'Replace the value of an input, textarea or contenteditable element and fire input/change events.',
    input: () =>
      z.object({
        target: Target,
        text: z.string().max(1_000_000).describe('The new value'),
        diff: IncludeDiff,
        tab: TabId.optional(),
        timeoutMs: ActionTimeout,
      }),
    output: () =>
      ActionEffects.extend({
        element: z.string(),
        value: z.string().describe('The value after filling (its first 200 characters when longer)'),
        length: z.number().int().optional().describe('With a cut value: its full length'),
        truncated: z.boolean().optional().describe('Only present, as true, when the value was cut'),
        matches: z.boolean().optional().describe('With a cut value: whether all of it is the text given'),
      }),
    // the page's own value after its input handlers ran, not only the text given
    pageContent: ['value'],
  }),
  type: defineCommand({
    name: 'input.type',
    cli: {
      verb: 'type',
      positionals: ['text...'],
      examples: ['argus type "hello world"', 'argus type "more" --target e5'],
    },
    tool: 'argus_type',
    kind: 'mutation',
    scope: 'write',
    summary: 'Type text as key presses into the focused element (or focus a target first).',
    input: () =>
      z.object({
        // every character is a keyDown and a keyUp (sent 64 characters at a time): 10,000 keeps a call within seconds
        text: z.string().min(1).max(10_000).describe('The text (fill sets long values faster)'),
        target: Target.optional().describe('Focus this element first'),
        diff: IncludeDiff,
        tab: TabId.optional(),
        timeoutMs: ActionTimeout,
      }),
    output: () =>
      ActionEffects.extend({
        typedInto: z
          .string()
          .nullable()
          .describe(
            'The element that had focus as the keys went, by its snapshot label (inside the frame chosen with `argus frame` when the focus was there); null: none, the page',
          ),
        editable: z.boolean().describe('Whether that element takes text'),
      }),
  }),
  press: defineCommand({
    name: 'input.press',
    cli: {
      verb: 'press',
      positionals: ['key'],
      examples: ['argus press Enter', 'argus press Control+a', 'argus press Shift+Tab'],
    },
    tool: 'argus_press',
    kind: 'mutation',
    scope: 'write',
    summary: 'Press a key or combo such as Enter, Tab, Control+a, Shift+ArrowDown.',
    input: () =>
      z.object({
        key: z.string().min(1).max(100).describe('Key, or a combo joined by +'),
        diff: IncludeDiff,
        tab: TabId.optional(),
      }),
    output: () =>
      ActionEffects.extend({
        element: z
          .string()
          .nullable()
          .optional()
          .describe(
            'The element that had focus as the keys went, by its snapshot label (inside the frame chosen with `argus frame` when the focus was there); null: nothing had focus, the document body got them. Absent when the page had no document to read',
          ),
      }),
  }),
  select: defineCommand({
    name: 'input.select',
    cli: {
      verb: 'select',
      positionals: ['target', 'value...'],
      examples: ['argus select e9 "Canada"', 'argus select e4 Red Blue   # a <select multiple>: exactly these'],
    },
    tool: 'argus_select',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Choose a <select> option by value or visible label. A list selects exactly those options of a <select multiple> ([] clears it).',
    input: () =>
      z.object({
        target: Target,
        value: z
          .union([z.string().max(10_000), z.array(z.string().max(10_000)).max(500)])
          .describe('Value or label; a list for a <select multiple>'),
        diff: IncludeDiff,
        tab: TabId.optional(),
        timeoutMs: ActionTimeout,
      }),
    output: () =>
      ActionEffects.extend({
        element: z.string(),
        selected: z.array(z.object({ value: z.string(), label: z.string() })).describe('Every option selected now'),
      }),
    pageContent: ['selected'],
  }),
};
