import { z } from 'zod';
import { defineCommand } from '../define.js';
import { HttpUrl, TabId, Target, UnreportedDialogs } from '../common.js';

const Rect = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

export const ELEMENT_STATES = ['visible', 'hidden', 'enabled', 'disabled', 'checked', 'editable', 'focused'] as const;

const Cookie = z.object({
  name: z.string(),
  value: z.string().nullable().describe('null when hidden from a caller without the admin scope (httpOnly cookies)'),
  domain: z.string(),
  path: z.string(),
  expires: z.string().nullable().describe('ISO date; null for a session cookie'),
  httpOnly: z.boolean().describe('Not readable by page scripts'),
  secure: z.boolean(),
  sameSite: z.string().nullable(),
  size: z.number(),
});

const Declaration = z.object({ name: z.string(), value: z.string(), important: z.boolean() });

export const inspectCommands = {
  css: defineCommand({
    name: 'inspect.css',
    cli: {
      verb: 'css',
      positionals: ['target', 'property'],
      examples: ['argus css e12 color', 'argus css "h1" font-size'],
    },
    tool: 'argus_css',
    kind: 'query',
    scope: 'read',
    summary: 'Computed value of a CSS property of an element.',
    input: () =>
      z.object({
        target: Target,
        property: z
          .string()
          .min(1)
          .max(200)
          .regex(/^(--)?[a-zA-Z][a-zA-Z0-9-]*$/, 'a CSS property name such as color or font-size')
          .describe('CSS property, e.g. color, font-size, --my-var'),
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        element: z.string(),
        property: z.string(),
        value: z.string().describe('Computed value (empty when the property is unknown)'),
        dialogs: UnreportedDialogs,
      }),
    pageContent: ['value'],
  }),
  attrs: defineCommand({
    name: 'inspect.attrs',
    cli: { verb: 'attrs', positionals: ['target'], examples: ['argus attrs e12', 'argus attrs "a.logo"'] },
    tool: 'argus_attrs',
    kind: 'query',
    scope: 'read',
    summary: 'All attributes of an element.',
    input: () => z.object({ target: Target, tab: TabId.optional() }),
    output: () =>
      z.object({
        element: z.string(),
        tag: z.string(),
        attributes: z.record(z.string(), z.string()),
        dialogs: UnreportedDialogs,
      }),
    pageContent: ['attributes'],
  }),
  is: defineCommand({
    name: 'inspect.is',
    cli: {
      verb: 'is',
      positionals: ['target', 'state'],
      examples: ['argus is e12 visible', 'argus is "#agree" checked'],
    },
    tool: 'argus_is',
    kind: 'query',
    scope: 'read',
    summary:
      'Whether an element is visible, hidden, enabled, disabled, checked, editable or focused. A selector that matches nothing is hidden (not visible).',
    input: () =>
      z.object({
        target: Target,
        state: z.enum(ELEMENT_STATES).describe('The state to test'),
        tab: TabId.optional(),
      }),
    output: () => z.object({ element: z.string(), state: z.string(), value: z.boolean(), dialogs: UnreportedDialogs }),
  }),
  cookies: defineCommand({
    name: 'inspect.cookies',
    cli: {
      verb: 'cookies',
      examples: ['argus cookies', 'argus cookies --name session', 'argus cookies --url https://api.example.com'],
    },
    tool: 'argus_cookies',
    kind: 'query',
    scope: 'read',
    summary: "Cookies sent to the tab's page and frames (httpOnly ones marked; their values need the admin scope).",
    input: () =>
      z.object({
        name: z.string().min(1).max(500).optional().describe('Only cookies with this name'),
        url: HttpUrl.optional().describe('Also include the cookies for this URL'),
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        urls: z.array(z.string()).describe('The URLs whose cookies were read'),
        cookies: z.array(Cookie),
        dialogs: UnreportedDialogs,
      }),
    pageContent: ['cookies'],
  }),
  storage: defineCommand({
    name: 'inspect.storage',
    cli: { verb: 'storage', examples: ['argus storage', 'argus storage --key token'] },
    tool: 'argus_storage',
    kind: 'query',
    scope: 'read',
    summary:
      "localStorage and sessionStorage of the tab's origin, or of the frame's origin when one is chosen with `argus frame`.",
    input: () =>
      z.object({
        key: z.string().min(1).max(1000).optional().describe('Only this key'),
        maxChars: z
          .number()
          .int()
          .min(1)
          .max(10_000_000)
          .default(10_000)
          .describe('Cut each value after this many characters'),
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        origin: z.string(),
        local: z.record(z.string(), z.string()),
        session: z.record(z.string(), z.string()),
        truncated: z.boolean().describe('Some value was cut at --max-chars'),
        dialogs: UnreportedDialogs,
      }),
    pageContent: ['local', 'session'],
  }),
  storageSet: defineCommand({
    name: 'inspect.storageSet',
    cli: {
      verb: 'storage set',
      positionals: ['key', 'value'],
      examples: ['argus storage set theme dark', 'argus storage set step 2 --area session'],
    },
    tool: 'argus_storage_set',
    kind: 'mutation',
    scope: 'write',
    summary:
      "Set a localStorage (or, with --area session, sessionStorage) item for the tab's origin, or the frame's origin when one is chosen with `argus frame`.",
    input: () =>
      z.object({
        key: z.string().min(1).max(1000).describe('Item key'),
        value: z.string().max(5_000_000).describe('Item value (a string)'),
        // not `--session`: that global flag names the Argus session a command runs in
        area: z.enum(['local', 'session']).default('local').describe('Storage area: localStorage or sessionStorage'),
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({ origin: z.string(), area: z.enum(['local', 'session']), key: z.string(), bytes: z.number() }),
  }),
  perf: defineCommand({
    name: 'inspect.perf',
    cli: { verb: 'perf', examples: ['argus perf'] },
    tool: 'argus_perf',
    kind: 'query',
    scope: 'read',
    summary:
      'Load performance of the current document (the frame chosen with `argus frame`, when one is): TTFB, FCP, LCP, DOMContentLoaded, load, transfer size.',
    input: () => z.object({ tab: TabId.optional() }),
    output: () =>
      z.object({
        url: z.string(),
        navigationType: z.string().describe('navigate, reload, back_forward or prerender'),
        ttfbMs: z.number().nullable().describe('Time to first byte of the document (responseStart)'),
        fcpMs: z.number().nullable().describe('First contentful paint; null when nothing painted yet'),
        lcpMs: z.number().nullable().describe('Largest contentful paint so far; null when none'),
        domContentLoadedMs: z.number().nullable().describe('DOMContentLoaded event end; null before it'),
        loadMs: z.number().nullable().describe('load event end; null before it'),
        durationMs: z.number().nullable(),
        transferSize: z.number().describe('Bytes of the document over the wire (headers + body; 0 from cache)'),
        encodedBodySize: z.number(),
        decodedBodySize: z.number(),
        resources: z.object({ count: z.number(), transferSize: z.number() }).describe('Subresources loaded so far'),
        dialogs: UnreportedDialogs,
      }),
  }),
  element: defineCommand({
    name: 'inspect.element',
    cli: {
      verb: 'inspect',
      positionals: ['target'],
      examples: ['argus inspect e12', 'argus inspect "#title" --user-agent'],
    },
    tool: 'argus_inspect',
    kind: 'query',
    scope: 'read',
    summary:
      'CSS rules matching an element, in cascade order (the winning rule last) with selector specificity, plus its box model.',
    input: () =>
      z.object({
        target: Target,
        userAgent: z.boolean().default(false).describe("Include the browser's own (user-agent) rules"),
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        element: z.string(),
        rules: z.array(
          z.object({
            selector: z.string().describe('The selector that matched (of a selector list, the matching ones)'),
            specificity: z
              .tuple([z.number(), z.number(), z.number()])
              .describe('[ids, classes/attributes/pseudo-classes, types/pseudo-elements]'),
            origin: z.string().describe('regular, user-agent, injected, inspector or inline'),
            source: z.string().nullable().describe('Stylesheet URL and line, when known'),
            media: z.array(z.string()).describe('Enclosing @media / @container / @supports conditions'),
            declarations: z.array(Declaration),
          }),
        ),
        inline: z.array(Declaration).describe('The style attribute'),
        box: z
          .object({
            content: Rect,
            padding: Rect,
            border: Rect,
            margin: Rect,
            width: z.number(),
            height: z.number(),
          })
          .nullable()
          .describe('Box model in viewport CSS pixels; null when the element has no box (display: none)'),
        dialogs: UnreportedDialogs,
      }),
    pageContent: ['rules', 'inline'],
  }),
};
