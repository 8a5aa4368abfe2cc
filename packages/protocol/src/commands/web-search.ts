import { z } from 'zod';
import { defineCommand } from '../define.js';
import { FilePath, TimeoutMs } from '../common.js';

/** Web search through a configured engine (SearXNG, Brave Search API, DuckDuckGo's HTML endpoint). */
export const SEARCH_ENGINES = ['searxng', 'brave', 'duckduckgo'] as const;

const Engine = z
  .enum(SEARCH_ENGINES)
  .describe('searxng (providers.search.searxngUrl), brave (env ARGUS_BRAVE_API_KEY) or duckduckgo (no key)');

export const Since = z
  .string()
  .regex(/^\d{1,4}\s*[hdwmy]$/i, 'a duration: 12h, 7d, 2w, 6m, 1y')
  .describe('Only results from this far back: 12h, 7d, 2w, 6m, 1y');

export const SearchHit = z.object({
  title: z.string(),
  url: z.string(),
  snippet: z.string().describe("The engine's excerpt of the page"),
  engine: z.enum(SEARCH_ENGINES),
  rank: z.number().describe("1-based position in the engine's answer"),
  published: z.string().nullable().describe('When the engine says the page was published'),
});

export const webSearchCommands = {
  search: defineCommand({
    name: 'web.search',
    cli: {
      verb: 'search',
      positionals: ['query'],
      examples: [
        'argus search "home battery storage"',
        'argus search "tRPC subscriptions" --engine searxng --limit 5',
        'argus search "chromium release" --since 7d --json',
      ],
    },
    tool: 'argus_search',
    kind: 'query',
    scope: 'read',
    summary:
      'Search the web through the configured engine (SearXNG, Brave Search API or DuckDuckGo): title, URL, snippet and rank per hit.',
    input: () =>
      z.object({
        query: z.string().min(1).max(500).describe('What to search for'),
        engine: Engine.optional().describe(
          'Which engine (default: providers.search.engine, else the first configured)',
        ),
        limit: z.number().int().min(1).max(50).default(10).describe('Most results to return'),
        since: Since.optional(),
        timeoutMs: TimeoutMs.default(20_000).describe('Bound on the whole search, retries included, in milliseconds'),
      }),
    output: () =>
      z.object({
        query: z.string(),
        engine: z.enum(SEARCH_ENGINES),
        results: z.array(SearchHit),
        tookMs: z.number(),
      }),
    pageContent: ['results'],
  }),
  research: defineCommand({
    name: 'web.research',
    cli: {
      verb: 'research',
      positionals: ['topic'],
      examples: [
        'argus research "home battery storage"',
        'argus research "rust async runtimes" --limit 15 --fetch 8 --since 1y',
        'argus research "chromium headless mode" --out ./notes/headless',
      ],
    },
    tool: 'argus_research',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Search, read the best distinct results in parallel, drop duplicates, and write a bundle: report.md (extractive, every line cites the page it quotes), records.json, manifest.json.',
    input: () =>
      z.object({
        topic: z.string().min(1).max(500).describe('What to research (the search query)'),
        engine: Engine.optional().describe(
          'Which engine (default: providers.search.engine, else the first configured)',
        ),
        limit: z.number().int().min(1).max(50).default(10).describe('Search results to consider'),
        fetch: z.number().int().min(1).max(20).default(5).describe('Distinct pages to read, best-ranked first'),
        since: Since.optional(),
        out: FilePath.optional().describe('Also copy the bundle into this directory (inside your allowed paths)'),
        timeoutMs: TimeoutMs.default(20_000).describe(
          'Bound on the whole research (the search and the page reads together), in milliseconds: pages not read by then are left out (timedOut)',
        ),
      }),
    output: () =>
      z.object({
        id: z.string().describe('The bundle id (argus artifacts show <id>)'),
        dir: z.string().describe('The bundle under the state dir'),
        out: z.string().nullable().describe('Where --out copied it'),
        topic: z.string(),
        engine: z.enum(SEARCH_ENGINES),
        searched: z.number().describe('Search results considered'),
        fetched: z.number().describe('Pages that became sources of the report'),
        failed: z.number(),
        duplicates: z.number().describe('Results dropped as the same page (canonical URL) or near-identical text'),
        tooOld: z.number().describe('Pages published before --since'),
        timedOut: z
          .boolean()
          .describe(
            'The --timeout-ms deadline came before every chosen page was read: the report holds those read before it',
          ),
        warnings: z.array(z.string()).describe('What cut the research short, and what to do about it'),
        sources: z.array(
          z.object({
            n: z.number().describe('The citation number in report.md'),
            title: z.string().nullable(),
            url: z.string(),
          }),
        ),
        report: z.string().describe('report.md: quoted sentences per source, each citing its URL'),
      }),
    pageContent: ['sources', 'report'],
  }),
};
