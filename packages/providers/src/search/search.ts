import { isArgusError } from '@argus/protocol/errors';
import type { HttpClient } from '../http-client.js';
import { providerError } from '../provider-error.js';
import type { Resilience } from '../resilience.js';
import { BraveEngine } from './brave.js';
import { DuckDuckGoEngine } from './duckduckgo.js';
import {
  type EngineName,
  type SearchEngine,
  type SearchResult,
  type SearchSettings,
  parseSince,
  timeRangeFor,
} from './engine.js';
import { SearxngEngine } from './searxng.js';

export interface SearchOptions {
  engine?: EngineName | undefined;
  limit?: number;
  /** Only results from this far back (`7d`), as the engine filters them. */
  since?: string | undefined;
  timeoutMs?: number;
  signal?: AbortSignal | undefined;
}

export interface SearchAnswer {
  query: string;
  engine: EngineName;
  results: SearchResult[];
  tookMs: number;
}

/**
 * The engine asked for, else the configured default, else the first one that is set up: SearXNG
 * when its URL is configured, Brave when a key is, DuckDuckGo (no key) otherwise.
 */
export function chooseEngine(settings: SearchSettings, asked?: EngineName): EngineName {
  if (asked) return asked;
  if (settings.engine) return settings.engine;
  if (settings.searxngUrl) return 'searxng';
  if (settings.braveApiKey) return 'brave';
  return 'duckduckgo';
}

export function createEngine(name: EngineName, http: HttpClient, settings: SearchSettings): SearchEngine {
  const deps = { http, settings };
  if (name === 'searxng') return new SearxngEngine(deps);
  if (name === 'brave') return new BraveEngine(deps);
  return new DuckDuckGoEngine(deps);
}

/**
 * One query to one engine, under that engine's breaker and limits (key `engine:<name>`, provider
 * `search`): retryable failures are retried with backoff (`Retry-After` first), and an engine that
 * keeps failing fails fast with circuit_open instead of being asked again.
 */
export async function searchWeb(
  http: HttpClient,
  resilience: Resilience,
  settings: SearchSettings,
  query: string,
  options: SearchOptions = {},
): Promise<SearchAnswer> {
  const started = performance.now();
  const name = chooseEngine(settings, options.engine);
  const engine = createEngine(name, http, settings);
  const timeRange = options.since === undefined ? undefined : timeRangeFor(parseSince(options.since));
  // --timeout-ms bounds the whole search (every attempt and backoff wait), not each attempt
  const deadlineAt = options.timeoutMs === undefined ? undefined : started + options.timeoutMs;
  const results = await resilience
    .run(
      `engine:${name}`,
      (signal) =>
        engine.search({
          query,
          limit: options.limit ?? 10,
          signal,
          ...(timeRange === undefined ? {} : { timeRange }),
          ...(deadlineAt === undefined ? {} : { timeoutMs: Math.max(1, Math.round(deadlineAt - performance.now())) }),
        }),
      {
        provider: 'search',
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      },
    )
    .catch((error: unknown) => {
      if (!isArgusError(error) || error.code !== 'timeout' || options.timeoutMs === undefined) throw error;
      const attempts = error.details?.['attempts'];
      const tried = typeof attempts === 'number' ? ` (asked ${attempts} time${attempts === 1 ? '' : 's'})` : '';
      throw providerError(
        'timeout',
        `The search engine ${name} did not answer within --timeout-ms ${options.timeoutMs}${tried}: no results. Retry later, raise --timeout-ms, or choose another --engine.`,
        { details: { ...error.details, engine: name }, cause: error },
      );
    });
  return { query, engine: name, results, tookMs: Math.round(performance.now() - started) };
}
