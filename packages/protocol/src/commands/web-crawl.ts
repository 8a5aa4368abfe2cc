import { z } from 'zod';
import { defineCommand } from '../define.js';
import { FilePath, TimeoutMs, WebUrl } from '../common.js';

/** Crawls and the artifact bundles they (and research) leave under the state dir. */
const Glob = z.string().min(1).max(500);

const ArtifactInfo = z.object({
  id: z.string(),
  kind: z.enum(['crawl', 'research']),
  created: z.string(),
  expires: z.string(),
  files: z.number().describe('How many files the bundle holds'),
  bytes: z.number(),
});

export const webCrawlCommands = {
  crawl: defineCommand({
    name: 'web.crawl',
    cli: {
      verb: 'crawl',
      positionals: ['urls...'],
      examples: [
        'argus crawl https://example.com/docs --depth 2 --max-pages 50 --same-site',
        'argus crawl localhost:3000 --include "/blog/**" --robots warn',
        'argus crawl https://example.com --sitemap --concurrency 2',
      ],
    },
    tool: 'argus_crawl',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Crawl from one or more URLs (breadth-first, robots.txt honoured, polite per host) and write every page as Markdown + metadata into an artifact bundle.',
    input: () =>
      z.object({
        urls: z.array(WebUrl).min(1).max(100).describe('Where to start'),
        depth: z.number().int().min(0).max(20).default(2).describe('Links followed from a start page'),
        maxPages: z.number().int().min(1).max(10_000).default(50).describe('Stop after this many pages'),
        sameSite: z.boolean().default(false).describe("Stay on the start pages' sites"),
        include: z.array(Glob).max(50).optional().describe('Only URL paths matching one of these globs (/docs/**)'),
        exclude: z.array(Glob).max(50).optional().describe('Skip URL paths matching one of these globs'),
        robots: z
          .enum(['strict', 'warn', 'off'])
          .default('strict')
          .describe('robots.txt: obey, fetch anyway with a warning, or ignore'),
        sitemap: z.boolean().default(false).describe("Also read the sites' sitemaps"),
        concurrency: z.number().int().min(1).max(16).default(2).describe('Requests in flight per host'),
        delayMs: z.number().int().min(0).max(10_000).default(0).describe('Pause after each request to a host'),
        dfs: z.boolean().default(false).describe('Depth-first instead of breadth-first'),
        out: FilePath.optional().describe('Also copy the bundle into this directory (inside your allowed paths)'),
        timeoutMs: TimeoutMs.optional().describe(
          'Bound on the whole crawl, in milliseconds: at it the crawl stops and returns the pages read so far (timedOut). Default: none',
        ),
        progress: z
          .string()
          .regex(/^[\w-]{8,64}$/)
          .optional()
          .describe("A job id of your choosing: web.crawlProgress streams this crawl's progress under it"),
      }),
    output: () =>
      z.object({
        id: z.string().describe('The bundle id (argus artifacts show <id>)'),
        dir: z.string().describe('Where the bundle is'),
        out: z.string().nullable().describe('Where --out copied it'),
        done: z.number(),
        failed: z.number(),
        skipped: z
          .number()
          .describe(
            "Links not fetched: robots.txt disallows them or the operator's domain policy refuses them (reasons in skipped.jsonl)",
          ),
        queued: z.number(),
        pagesPerSecond: z.number(),
        warnings: z.array(z.string()),
        timedOut: z
          .boolean()
          .describe(
            'The --timeout-ms deadline ended the crawl: the pages read before it are in the bundle, queued ones were not fetched',
          ),
        errors: z
          .array(z.object({ url: z.string(), code: z.string(), message: z.string() }))
          .describe('The first failures, each with its code and reason (all of them in errors.jsonl)'),
      }),
    pageContent: ['warnings', 'errors'],
  }),
  crawlProgress: defineCommand({
    name: 'web.crawlProgress',
    cli: false,
    tool: false,
    kind: 'subscription',
    scope: 'read',
    summary:
      'Progress of a running crawl started with a --progress job id: pages done, queued, failed, skipped and the rate, one event per page, until it finishes.',
    input: () =>
      z.object({
        job: z
          .string()
          .regex(/^[\w-]{8,64}$/)
          .describe('The job id given to web.crawl'),
      }),
    output: () =>
      z.object({
        done: z.number(),
        queued: z.number(),
        failed: z.number(),
        skipped: z.number(),
        pagesPerSecond: z.number(),
        finished: z.boolean().describe('The last event of the crawl'),
      }),
  }),
  artifacts: defineCommand({
    name: 'web.artifacts',
    cli: { verb: 'artifacts list', examples: ['argus artifacts list'] },
    tool: 'argus_artifacts',
    kind: 'query',
    scope: 'read',
    summary: 'Artifact bundles (crawls, research) under the state dir, newest first.',
    input: () => z.object({}),
    output: () => z.object({ artifacts: z.array(ArtifactInfo) }),
  }),
  artifactShow: defineCommand({
    name: 'web.artifactShow',
    cli: {
      verb: 'artifacts show',
      positionals: ['id'],
      examples: ['argus artifacts show crawl-20260101-120000-abc123'],
    },
    tool: false,
    kind: 'query',
    scope: 'read',
    summary: "One bundle's manifest: files, created, expiry, summary.",
    input: () => z.object({ id: z.string().min(1).max(200).describe('Bundle id from `argus artifacts list`') }),
    output: () =>
      ArtifactInfo.extend({
        dir: z.string(),
        paths: z.array(z.string()).describe('Files in the bundle'),
        summary: z.record(z.string(), z.unknown()),
      }),
  }),
  artifactCleanup: defineCommand({
    name: 'web.artifactCleanup',
    cli: { verb: 'artifacts cleanup', examples: ['argus artifacts cleanup --expired', 'argus artifacts cleanup'] },
    tool: false,
    kind: 'mutation',
    scope: 'write',
    summary: 'Remove expired bundles (--expired) or every bundle.',
    input: () => z.object({ expired: z.boolean().default(false).describe('Only bundles past their TTL') }),
    output: () => z.object({ removed: z.array(z.string()) }),
  }),
};
