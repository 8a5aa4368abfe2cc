import { z } from 'zod';
import { defineCommand } from '../define.js';
import {
  Challenge,
  FilePath,
  FrameCleared,
  HttpUrl,
  Overwrite,
  PageInfo,
  TabId,
  Target,
  TimeoutMs,
  UnreportedDialogs,
} from '../common.js';

/**
 * Screenshot budget for agents: Claude's vision guidance (and Playwright MCP's image scaling) keep
 * images within 1568 px a side and about 1.15 megapixels; anything larger is downscaled by the model
 * API anyway, so sending more only costs tokens and bytes.
 */
export const SCREENSHOT_MAX_EDGE = 1568;
export const AGENT_SCREENSHOT_PIXELS = Math.round(1.15 * 1024 * 1024);
/** JPEG quality of agent screenshots: text stays legible, a viewport is typically 50-150 KB. */
export const AGENT_SCREENSHOT_QUALITY = 70;

const NavResult = PageInfo.extend({
  status: z.number().nullable().describe('HTTP status of the main document, when known'),
  challenge: Challenge,
  dialogs: UnreportedDialogs,
  frameCleared: FrameCleared,
});

/** The largest script `eval` runs, inline or from a file. */
export const EVAL_SOURCE_MAX = 1_000_000;
/** How much JSON an `eval` answers with unless told more (its maxChars): cut in the page. */
export const EVAL_MAX_CHARS = 100_000;

export const pageCommands = {
  goto: defineCommand({
    name: 'page.goto',
    cli: {
      verb: 'goto',
      verbAliases: ['open', 'navigate'],
      positionals: ['url'],
      examples: ['argus goto https://example.com', 'argus goto localhost:3000 --wait-until domcontentloaded'],
    },
    tool: 'argus_goto',
    kind: 'mutation',
    scope: 'write',
    summary: 'Navigate a tab to a URL and wait for it to load.',
    input: () =>
      z.object({
        url: HttpUrl,
        tab: TabId.optional(),
        waitUntil: z.enum(['load', 'domcontentloaded', 'none']).default('load').describe('Which event ends the wait'),
        timeoutMs: TimeoutMs.default(30_000),
      }),
    output: () => NavResult,
  }),
  back: defineCommand({
    name: 'page.back',
    cli: { verb: 'back' },
    tool: 'argus_back',
    kind: 'mutation',
    scope: 'write',
    summary: 'Go back in the tab history.',
    input: () => z.object({ tab: TabId.optional(), timeoutMs: TimeoutMs.default(30_000) }),
    output: () => NavResult,
  }),
  forward: defineCommand({
    name: 'page.forward',
    cli: { verb: 'forward' },
    tool: false,
    kind: 'mutation',
    scope: 'write',
    summary: 'Go forward in the tab history.',
    input: () => z.object({ tab: TabId.optional(), timeoutMs: TimeoutMs.default(30_000) }),
    output: () => NavResult,
  }),
  reload: defineCommand({
    name: 'page.reload',
    cli: { verb: 'reload' },
    tool: 'argus_reload',
    kind: 'mutation',
    scope: 'write',
    summary: 'Reload the page and wait for it to load.',
    input: () => z.object({ tab: TabId.optional(), timeoutMs: TimeoutMs.default(30_000) }),
    output: () => NavResult,
  }),
  focus: defineCommand({
    name: 'page.focus',
    cli: { verb: 'focus', positionals: ['tab'], examples: ['argus focus', 'argus focus 37F0'] },
    tool: false,
    kind: 'mutation',
    scope: 'write',
    summary:
      "Bring a tab to the front and make it the active tab (a headed window, or the user's own tab and window through the extension).",
    input: () => z.object({ tab: TabId.optional() }),
    output: () => PageInfo.extend({ id: z.string().describe('The tab brought to the front') }),
  }),
  url: defineCommand({
    name: 'page.url',
    cli: { verb: 'url' },
    tool: false,
    kind: 'query',
    scope: 'read',
    summary:
      "Print the URL of a tab (--json: with its title): the top document's, also while a frame is chosen with `argus frame`.",
    input: () => z.object({ tab: TabId.optional() }),
    output: () => PageInfo.extend({ dialogs: UnreportedDialogs }),
  }),
  wait: defineCommand({
    name: 'page.wait',
    cli: {
      verb: 'wait',
      positionals: ['selector'],
      examples: [
        'argus wait "#results"',
        'argus wait --text "Saved"',
        'argus wait --idle',
        'argus wait --download',
        'argus wait --ms 500',
      ],
    },
    tool: 'argus_wait',
    kind: 'mutation',
    scope: 'read',
    summary:
      "Wait for a selector, a text, the load event, network idle or a fixed time. With a frame chosen (`argus frame`), a selector, a text and the load event are the frame's; network idle is the whole tab's.",
    input: () =>
      z.object({
        selector: Target.optional().describe('Until this selector, locator or ref is visible'),
        text: z.string().min(1).max(2000).optional().describe('Until this text appears'),
        load: z.boolean().optional().describe('Wait for the load event'),
        idle: z.boolean().optional().describe('Until no request is in flight for 500 ms'),
        download: z.boolean().optional().describe('Until a download has finished'),
        ms: z.number().int().min(0).max(60_000).optional().describe('Milliseconds'),
        tab: TabId.optional(),
        timeoutMs: TimeoutMs.default(10_000),
      }),
    output: () =>
      z.object({
        waitedMs: z.number(),
        matched: z.string().describe('What ended the wait'),
        dialogs: UnreportedDialogs,
      }),
  }),
  eval: defineCommand({
    name: 'page.eval',
    cli: {
      verb: 'eval',
      positionals: ['js...'],
      examples: [
        'argus eval "document.title"',
        'argus eval "await fetch(\'/api\').then(r => r.status)"',
        'argus eval --file ./scripts/collect.js',
        'argus eval --target e3 "el => el.value"',
      ],
    },
    tool: 'argus_eval',
    kind: 'mutation',
    scope: 'write',
    summary: 'Evaluate JavaScript in the page (await supported) and return its JSON value.',
    input: () =>
      z.object({
        js: z
          .string()
          .min(1)
          .max(EVAL_SOURCE_MAX)
          .optional()
          .describe('Expression or statements; the value of the last expression is returned'),
        // short: argus_eval is in the MCP core profile, which has a token budget
        file: FilePath.optional().describe('Script file to run instead of js (max 1 MB)'),
        target: Target.optional().describe('Element passed to the code as `el`'),
        maxChars: z
          .number()
          .int()
          .min(100)
          .max(10_000_000)
          .default(EVAL_MAX_CHARS)
          .describe('Cut the JSON value after about this many characters'),
        tab: TabId.optional(),
        timeoutMs: TimeoutMs.default(30_000),
      }),
    output: () =>
      z.object({
        value: z
          .unknown()
          .describe(
            'JSON value of the result. Not JSON: NaN, Infinity, -0 and BigInt as strings ("NaN", "-0", "10n"), a Date as its ISO string, a RegExp as "/re/g", Map and Set as arrays of entries and values, an Error as {name, message, stack}, a function as "[function name]", a Symbol as "Symbol(desc)", a DOM node as "<input#id.class type=text>", a node list as an array of those, a cycle as "[Circular]"; undefined properties are left out as in JSON',
          ),
        type: z.string().describe('typeof the result'),
        truncated: z.boolean().optional().describe('Only present, as true, when the value was cut at maxChars'),
        length: z.number().optional().describe('Full length of a string result that was cut'),
        dialogs: UnreportedDialogs,
      }),
    pageContent: ['value'],
  }),
  screenshot: defineCommand({
    name: 'page.screenshot',
    cli: {
      verb: 'screenshot',
      verbAliases: ['shot'],
      positionals: ['path'],
      aliases: { f: 'full' },
      examples: [
        'argus screenshot',
        'argus screenshot shot.png --full',
        'argus screenshot --ref e12',
        'argus screenshot --clip 0,0,400,300 --format jpeg --quality 70',
        'argus screenshot --base64',
        'argus screenshot --annotate',
      ],
    },
    tool: 'argus_screenshot',
    kind: 'mutation',
    scope: 'read',
    summary:
      'Capture the viewport, full page, an element or a clip as PNG, JPEG or WebP, to a file and/or as base64. The viewport and a clip are what the tab shows, a frame chosen with `argus frame` in it as laid out; --full is the whole top document and fails with frame_chosen while a frame is chosen.',
    input: () =>
      z.object({
        path: FilePath.optional().describe('Image file, relative to your directory; default: <state dir>/captures/'),
        overwrite: Overwrite,
        full: z.boolean().default(false).describe('Capture the full scrollable page'),
        ref: Target.optional().describe('Only this element (ref or selector)'),
        clip: z
          .string()
          .max(200)
          .regex(/^\s*-?\d+(\.\d+)?\s*(,\s*-?\d+(\.\d+)?\s*){3}$/, 'four numbers x,y,w,h such as 0,0,800,600')
          .optional()
          .describe('Rectangle x,y,width,height in CSS px'),
        format: z.enum(['png', 'jpeg', 'webp']).optional().describe('Default: from the path, else png (agents: jpeg)'),
        quality: z.number().int().min(0).max(100).optional().describe('JPEG/WebP quality 0-100'),
        base64: z
          .boolean()
          .default(false)
          .describe('Return the image as base64 in the output; a file is written only when a path is given'),
        keepFile: z
          .boolean()
          .default(false)
          .describe(
            'With base64 and no path: also keep the image as a file in <state dir>/captures/ (path in the output)',
          ),
        annotate: z.boolean().default(false).describe('Draw the latest snapshot refs on elements'),
        maxPixels: z
          .number()
          .int()
          .positive()
          .optional()
          .describe(
            `Downscale to at most this many pixels and ${SCREENSHOT_MAX_EDGE} px a side (agents get ${AGENT_SCREENSHOT_PIXELS}); an area that would shrink below half size fails with screenshot_too_large`,
          ),
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        path: z.string().nullable().describe('The file written; null with --base64 and no path (unless --keep-file)'),
        format: z.enum(['png', 'jpeg', 'webp']),
        width: z.number(),
        height: z.number(),
        bytes: z.number(),
        scale: z.number().optional().describe('Downscale applied to fit maxPixels (absent: none)'),
        annotated: z
          .object({
            refs: z.number().describe('Refs labelled on the image'),
            snapshotTaken: z.boolean().describe('No snapshot of this page had refs yet: an interactive one was taken'),
          })
          .optional()
          .describe('With annotate'),
        base64: z.string().optional().describe('The image, base64-encoded (with --base64)'),
        dialogs: UnreportedDialogs,
      }),
  }),
  scroll: defineCommand({
    name: 'page.scroll',
    cli: {
      verb: 'scroll',
      positionals: ['target'],
      examples: ['argus scroll', 'argus scroll e40', 'argus scroll --dy -600'],
    },
    tool: false,
    kind: 'mutation',
    scope: 'write',
    summary:
      'Scroll an element into view, or scroll the page by an offset (default one screen down): the frame chosen with `argus frame`, else the top document.',
    input: () =>
      z.object({
        target: Target.optional(),
        dx: z.number().min(-100_000).max(100_000).optional().describe('Horizontal pixels'),
        dy: z.number().min(-100_000).max(100_000).optional().describe('Vertical pixels; default one viewport height'),
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        scrollX: z
          .number()
          .describe(
            "Scroll x afterwards of the target's document, or of the one scrolled (the chosen frame, else the top)",
          ),
        scrollY: z.number().describe('Scroll y afterwards, of the same document'),
      }),
  }),
};
