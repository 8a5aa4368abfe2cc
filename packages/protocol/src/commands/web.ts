import { z } from 'zod';
import { defineCommand } from '../define.js';
import { TimeoutMs, WebUrl } from '../common.js';

/**
 * Web providers (packages/providers): the readable content of a page without driving a tab. The
 * HTTP tier needs no browser; the browser tier renders in the daemon's Chromium; `auto` decides.
 */
const FetchedPage = z.object({
  url: z.string().describe('The URL asked for'),
  finalUrl: z.string().describe('Where it ended after redirects'),
  status: z.number().nullable().describe('HTTP status of the document, when known'),
  title: z.string().nullable(),
  byline: z.string().nullable().describe('Author line, when the page names one'),
  excerpt: z.string().nullable().describe('Short summary (description meta or first paragraph)'),
  siteName: z.string().nullable(),
  lang: z.string().nullable(),
  publishedTime: z.string().nullable(),
  canonicalUrl: z.string().nullable().describe("The page's rel=canonical, absolute"),
  markdown: z.string().describe('Main content as Markdown (GFM tables)'),
  text: z.string().describe('Main content as plain text'),
  html: z.string().nullable().describe('Main content as HTML (only with --format html)'),
  links: z.array(z.string()).describe('Every link of the page: absolute http(s), fragment dropped, deduplicated'),
  tier: z.enum(['http', 'browser']).describe('Which tier produced the content'),
  fallbackReason: z
    .enum(['empty', 'js-shell', 'challenge', 'http-error'])
    .nullable()
    .describe('Why auto went on to the browser; null when it did not'),
  format: z.enum(['markdown', 'text', 'html', 'json']).describe('The format asked for (how the CLI prints it)'),
  blockedRequests: z
    .array(z.object({ url: z.string(), type: z.string(), reason: z.string() }))
    .describe(
      "Browser tier: the page's own requests (images, scripts, XHR, frames) the caller's address policy failed before they left the browser (first 50)",
    ),
  timings: z.object({
    httpMs: z.number().nullable(),
    renderMs: z.number().nullable(),
    extractMs: z.number(),
    totalMs: z.number(),
  }),
});

export const webCommands = {
  fetch: defineCommand({
    name: 'web.fetch',
    cli: {
      verb: 'fetch',
      positionals: ['url'],
      examples: [
        'argus fetch https://example.com/post',
        'argus fetch example.com --format json',
        'argus fetch localhost:3000/app --browser',
        'argus fetch https://example.com --selector main --format text',
      ],
    },
    tool: 'argus_fetch',
    kind: 'query',
    scope: 'read',
    summary:
      'Main content of one page (title, byline, Markdown, text, links) over HTTP, falling back to the browser for script-built pages.',
    input: () =>
      z.object({
        url: WebUrl,
        format: z.enum(['markdown', 'text', 'html', 'json']).default('markdown').describe('What to print'),
        browser: z.boolean().default(false).describe('Render in the browser only (skip the HTTP tier)'),
        http: z.boolean().default(false).describe('HTTP tier only (never open the browser)'),
        selector: z
          .string()
          .min(1)
          .max(1000)
          .optional()
          .describe('Take the content from this CSS selector instead of the detected article'),
        maxBytes: z
          .number()
          .int()
          .min(1024)
          .max(100 * 1024 * 1024)
          .optional()
          .describe('Refuse pages larger than this many bytes (default 5 MiB)'),
        timeoutMs: TimeoutMs.default(20_000),
      }),
    output: () => FetchedPage,
    pageContent: ['title', 'byline', 'excerpt', 'siteName', 'markdown', 'text', 'html', 'links'],
  }),
};
