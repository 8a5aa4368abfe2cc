import { z } from 'zod';
import { OPERATOR_POLICY } from '../address-guard.js';
import { assertOk } from '../http-client.js';
import { providerError } from '../provider-error.js';
import {
  type EngineDeps,
  type EngineQuery,
  type SearchEngine,
  type SearchResult,
  baseUrl,
  plainText,
} from './engine.js';

/** The part of SearXNG's `format=json` answer we read (it carries much more: answers, infoboxes, ...). */
const SearxngAnswer = z.object({
  results: z.array(
    z
      .object({
        url: z.string(),
        title: z.string().optional(),
        content: z.string().nullish(),
        publishedDate: z.string().nullish(),
      })
      .loose(),
  ),
});

/**
 * A SearXNG instance's JSON API (`GET /search?q=…&format=json`). The instance must list `json` in
 * `search.formats` of its settings.yml; without it SearXNG answers 403, which is said in the error.
 * The URL is the operator's (config), so the engine itself may be on a private network.
 */
export class SearxngEngine implements SearchEngine {
  readonly name = 'searxng' as const;
  private readonly base: string;

  constructor(private readonly deps: EngineDeps) {
    const url = deps.settings.searxngUrl;
    if (!url)
      throw providerError(
        'invalid_input',
        'No SearXNG instance is configured. Set its URL: `argus config set providers.search.searxngUrl https://searx.example` (or env ARGUS_SEARXNG_URL), or pick another --engine.',
        {
          retryable: false,
          details: { engine: 'searxng', key: 'providers.search.searxngUrl', env: 'ARGUS_SEARXNG_URL' },
        },
      );
    this.base = baseUrl(url, 'providers.search.searxngUrl');
  }

  async search(query: EngineQuery): Promise<SearchResult[]> {
    const url = new URL(`${this.base}/search`);
    url.searchParams.set('q', query.query);
    url.searchParams.set('format', 'json');
    url.searchParams.set('pageno', '1');
    if (query.timeRange) url.searchParams.set('time_range', query.timeRange);
    const response = await this.deps.http.get(url.href, {
      policy: OPERATOR_POLICY,
      accept: ['application/json'],
      headers: { accept: 'application/json' },
      ...(query.timeoutMs === undefined ? {} : { timeoutMs: query.timeoutMs }),
      ...(query.signal === undefined ? {} : { signal: query.signal }),
    });
    if (response.status === 403)
      throw providerError(
        'auth',
        `SearXNG at ${this.base} refused the JSON API (403). Add "json" to search.formats in its settings.yml, or pick another --engine.`,
        { details: { engine: 'searxng', status: 403 } },
      );
    assertOk(response);
    const parsed = SearxngAnswer.safeParse(parseJson(response.body, 'searxng'));
    if (!parsed.success)
      throw providerError('upstream', `SearXNG at ${this.base} answered JSON without a results list.`, {
        retryable: false,
        details: { engine: 'searxng' },
      });
    return parsed.data.results.slice(0, query.limit).map((hit, index) => ({
      title: plainText(hit.title ?? '') || hit.url,
      url: hit.url,
      snippet: plainText(hit.content ?? ''),
      engine: 'searxng',
      rank: index + 1,
      published: hit.publishedDate ?? null,
    }));
  }
}

export function parseJson(body: string, engine: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw providerError('upstream', `${engine} answered something that is not JSON.`, {
      retryable: false,
      details: { engine },
    });
  }
}
