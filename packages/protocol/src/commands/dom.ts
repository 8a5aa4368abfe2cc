import { z } from 'zod';
import { defineCommand } from '../define.js';
import { FilePath, FrameCleared, HttpUrl, TabId, Target, TimeoutMs, Title } from '../common.js';

/** Page-level tools: local HTML, inline style tweaks, clutter removal, page diff, frame selection. */
export const domCommands = {
  loadHtml: defineCommand({
    name: 'dom.loadHtml',
    cli: {
      verb: 'load-html',
      positionals: ['file'],
      examples: ['argus load-html report.html', 'argus load-html build/index.html --tab 3F2A'],
    },
    tool: 'argus_load_html',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Render a local HTML file (inside your project, the temp dir or an allowed root) in a tab without a server; relative assets load from its folder.',
    input: () =>
      z.object({
        file: FilePath.describe(
          'HTML file to render (relative to your directory; inside your project, the temp dir or an allowed root)',
        ),
        tab: TabId.optional(),
        timeoutMs: TimeoutMs.default(30_000),
      }),
    output: () =>
      z.object({ url: z.string().describe('file:// URL of the page'), title: Title, frameCleared: FrameCleared }),
  }),
  style: defineCommand({
    name: 'dom.style',
    cli: {
      verb: 'style',
      positionals: ['target', 'property', 'value'],
      examples: [
        'argus style e5 display none',
        'argus style "header" background "#fee" --important',
        'argus style --undo',
      ],
    },
    tool: 'argus_style',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Set an inline CSS property on an element (remembering the old value), or undo every style change made in the tab.',
    input: () =>
      z.object({
        target: Target.optional().describe('Element to style (not needed with --undo)'),
        property: z
          .string()
          .min(1)
          .max(200)
          .regex(/^(--)?[a-zA-Z-]+$/, 'a CSS property name such as display or background-color')
          .optional()
          .describe('CSS property, e.g. display or background-color'),
        value: z.string().max(10_000).optional().describe('New value; empty removes the inline property'),
        important: z.boolean().default(false).describe('Set it with !important'),
        undo: z
          .boolean()
          .default(false)
          .describe('Restore every inline value changed by `style` in this tab, newest first'),
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        element: z.string().nullable().describe('The element styled (null for --undo)'),
        before: z.string().nullable().describe('Inline value before the change'),
        computed: z.string().nullable().describe('Computed value after the change'),
        undone: z.number().describe('Changes restored by --undo'),
      }),
  }),
  cleanup: defineCommand({
    name: 'dom.cleanup',
    cli: { verb: 'cleanup', examples: ['argus cleanup', 'argus cleanup --cookies', 'argus cleanup --ads --sticky'] },
    tool: 'argus_cleanup',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Remove page clutter before a screenshot: ads, cookie banners, fixed and sticky bars. With no flag, all of them. In the frame chosen with `argus frame`, when one is.',
    input: () =>
      z.object({
        ads: z.boolean().default(false).describe('Remove ad slots and ad iframes'),
        cookies: z.boolean().default(false).describe('Remove cookie / consent banners'),
        sticky: z.boolean().default(false).describe('Remove fixed overlays and un-stick sticky bars'),
        all: z.boolean().default(false).describe('All of the above (the default when no flag is given)'),
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        ads: z.number().describe('Ad elements removed'),
        cookies: z.number().describe('Cookie banners removed'),
        sticky: z.number().describe('Fixed/sticky elements removed or un-stuck'),
      }),
  }),
  diff: defineCommand({
    name: 'dom.diff',
    cli: {
      verb: 'diff',
      positionals: ['from', 'to'],
      examples: ['argus diff https://staging.example.com https://example.com'],
    },
    tool: 'argus_diff',
    kind: 'mutation',
    scope: 'write',
    summary: 'Line diff of the visible text of two pages, each loaded in a temporary tab that is closed afterwards.',
    input: () =>
      z.object({
        from: HttpUrl.describe('First page (the "before")'),
        to: HttpUrl.describe('Second page (the "after")'),
        maxChars: z
          .number()
          .int()
          .min(100)
          .max(5_000_000)
          .default(200_000)
          .describe('Truncate the diff after this many characters'),
        timeoutMs: TimeoutMs.default(30_000).describe('Load timeout for each page'),
      }),
    output: () =>
      z.object({
        diff: z.string().describe('"- line" only in the first page, "+ line" only in the second'),
        added: z.number().describe('Lines only in the second page'),
        removed: z.number().describe('Lines only in the first page'),
        identical: z.boolean().describe('Whether the visible texts are the same'),
        truncated: z.boolean().describe('Whether the diff was cut at maxChars'),
      }),
    pageContent: ['diff'],
  }),
  frame: defineCommand({
    name: 'dom.frame',
    cli: {
      verb: 'frame',
      positionals: ['target'],
      examples: [
        'argus frame "iframe#checkout"',
        'argus frame e7',
        'argus frame --name payment',
        'argus frame --url /embed',
        'argus frame main',
      ],
    },
    tool: 'argus_frame',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Choose the frame that later commands about a document use in this tab ("main" goes back to the top document): selectors and locators, wait (a selector, text or --load), snapshot --scope, eval, scroll, cleanup, title, storage, perf and whole-page reads (text, html, links, forms, media, data, accessibility). Refs work in any frame regardless. Commands about the tab stay tab-wide (url, a whole snapshot, a viewport screenshot, coordinates, keys, cookies, network, console, emulation); screenshot --full, pdf and responsive --full fail with frame_chosen while a frame is chosen. When the page replaces the iframe with one like it (a re-render), the choice follows the new one; when the iframe is gone or the page navigates the top document by itself (a script, a timer, a redirect), those commands fail with ref_stale until you choose again. goto, back, forward, reload, load-html and an action of yours that navigates the top document (a click on a target=_top link, Enter in a form) end the choice and say so in their reply (frameCleared).',
    input: () =>
      z.object({
        target: Target.optional().describe(
          'An <iframe> (selector or ref), a ref of an element inside the frame, or "main" for the top document',
        ),
        name: z.string().min(1).max(500).optional().describe('Select the frame with this name attribute'),
        url: z.string().min(1).max(2000).optional().describe('Select the first frame whose URL contains this text'),
        main: z.boolean().default(false).describe('Go back to the top document'),
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        frameId: z.string().describe('The selected frame'),
        url: z.string().describe('Its URL'),
        name: z.string().describe('Its name attribute'),
        main: z.boolean().describe('Whether it is the top document'),
      }),
  }),
};
