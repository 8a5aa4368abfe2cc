import { z } from 'zod';
import { defineCommand } from '../define.js';
import { FilePath, TabId } from '../common.js';

/** Network errors a route can fail a request with (Playwright's names; Chrome's reasons behind them). */
export const ABORT_REASONS = [
  'failed',
  'aborted',
  'timedout',
  'accessdenied',
  'connectionclosed',
  'connectionreset',
  'connectionrefused',
  'connectionaborted',
  'connectionfailed',
  'namenotresolved',
  'internetdisconnected',
  'addressunreachable',
  'blockedbyclient',
  'blockedbyresponse',
] as const;

const Pattern = z
  .string()
  .min(1)
  .max(2000)
  .describe(
    'URL glob matched against the whole request URL: ** any characters, * any but /, ? one character, {a,b} either (e.g. **/api/*, https://example.com/**). A pattern starting with / means any origin (/api/x = **/api/x)',
  );

const RouteEntry = z.object({
  id: z.string().describe('Route id'),
  pattern: z.string().describe('The URL glob'),
  scope: z.enum(['tab', 'all-tabs']).describe('One tab, or every tab (now and later)'),
  tab: z.string().nullable().describe('The tab it applies to (null for all tabs)'),
  action: z.string().describe('What it does, in words (e.g. "fulfil 200 application/json, 14 bytes")'),
  hits: z.number().int().describe('Requests it has handled so far'),
});

const Counts = z.object({
  paused: z.number().int().describe('Requests paused for interception so far (navigation guard and routes)'),
  resolved: z.number().int().describe('Of those, how many were answered (continued, fulfilled or failed)'),
  pending: z.number().int().describe('Held right now (e.g. by a --delay route)'),
});

export const routeCommands = {
  add: defineCommand({
    name: 'route.add',
    cli: {
      verb: 'route',
      positionals: ['pattern'],
      examples: [
        'argus route "**/api/user" --json-body \'{"name":"Ada"}\'',
        'argus route "**/api/*" --status 503 --body ./error.html --content-type text/html',
        'argus route "**/*.png" --abort',
        'argus route "**/api/slow" --delay 2000',
        'argus route "**/track/**" --abort --reason blockedbyclient --all-tabs',
      ],
    },
    tool: 'argus_route',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Intercept requests matching a URL glob: answer them (mock), fail them or delay them. Applies to one tab (the active one unless --tab) or, with --all-tabs, to every tab now and later; the newest matching route wins.',
    input: () =>
      z.object({
        pattern: Pattern,
        status: z.number().int().min(100).max(599).optional().describe('Answer with this HTTP status (default 200)'),
        body: FilePath.optional().describe(
          'Answer with the contents of this file (relative to your directory; inside your project, the temp dir or an allowed root)',
        ),
        jsonBody: z
          .string()
          .max(5_000_000)
          .optional()
          .describe('Answer with this JSON text (Content-Type application/json); `--json` alone is the output switch'),
        header: z
          .array(z.string().min(3).max(8192))
          .max(50)
          .optional()
          .describe('Response headers "Name: value" (repeat the flag for several)'),
        contentType: z.string().min(1).max(200).optional().describe('Content-Type of the answer'),
        abort: z.boolean().default(false).describe('Fail matching requests with a network error'),
        reason: z.enum(ABORT_REASONS).default('failed').describe('The network error --abort reports'),
        delay: z
          .number()
          .int()
          .min(1)
          .max(120_000)
          .optional()
          .describe('Hold matching requests this many milliseconds first (alone: then let them go on unchanged)'),
        allTabs: z.boolean().default(false).describe('Apply to every tab, now and later, instead of one tab'),
        tab: TabId.optional(),
      }),
    output: () => RouteEntry,
  }),
  remove: defineCommand({
    name: 'route.remove',
    cli: {
      verb: 'unroute',
      positionals: ['pattern'],
      examples: ['argus unroute "**/api/*"', 'argus unroute --all'],
    },
    tool: 'argus_unroute',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Remove routes by their pattern (or id), or every route with --all; requests they were holding go on at once.',
    input: () =>
      z.object({
        pattern: z.string().min(1).max(2000).optional().describe('The pattern (or route id) to remove'),
        all: z.boolean().default(false).describe('Remove every route (of every tab and the all-tabs ones)'),
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        removed: z.array(z.string()).describe('Patterns of the routes removed'),
      }),
  }),
  list: defineCommand({
    name: 'route.list',
    cli: { verb: 'routes', examples: ['argus routes'] },
    tool: 'argus_routes',
    kind: 'query',
    scope: 'read',
    summary: 'List the routes of a tab and the all-tabs ones, with how many requests each handled.',
    input: () => z.object({ tab: TabId.optional() }),
    output: () =>
      z.object({
        routes: z.array(RouteEntry),
        requests: Counts.describe("The tab's paused-request counts (paused == resolved + pending)"),
      }),
  }),
};
