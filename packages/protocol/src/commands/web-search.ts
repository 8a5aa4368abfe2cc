import { z } from 'zod';
import { defineCommand } from '../define.js';
import { TimeoutMs } from '../common.js';

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
    input: z.object({
      query: z.string().min(1).max(500).describe('What to search for'),
      engine: Engine.optional().describe('Which engine (default: providers.search.engine, else the first configured)'),
      limit: z.number().int().min(1).max(50).default(10).describe('Most results to return'),
      since: Since.optional(),
      timeoutMs: TimeoutMs.default(20_000),
    }),
    output: z.object({
      query: z.string(),
      engine: z.enum(SEARCH_ENGINES),
      results: z.array(SearchHit),
      tookMs: z.number(),
    }),
    pageContent: ['results'],
  }),
};
