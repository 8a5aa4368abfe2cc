import { z } from 'zod';
import { OPERATOR_POLICY } from '../address-guard.js';
import { assertOk } from '../http-client.js';
import { providerError } from '../provider-error.js';
import {
  type EngineDeps,
  type EngineQuery,
  type SearchEngine,
  type SearchResult,
  type TimeRange,
  baseUrl,
  plainText,
} from './engine.js';
import { parseJson } from './searxng.js';

export const BRAVE_KEY_ENV = 'ARGUS_BRAVE_API_KEY';
const BRAVE_URL = 'https://api.search.brave.com';
/** Brave's `freshness`: past day, week, month, year. */
const FRESHNESS: Record<TimeRange, string> = { day: 'pd', week: 'pw', month: 'pm', year: 'py' };

/** The part of Brave's web search answer we read (`web.results`; news, videos and the rest are left). */
const BraveAnswer = z.object({
  web: z
    .object({
      results: z.array(
        z
          .object({
            title: z.string(),
            url: z.string(),
            description: z.string().optional(),
            page_age: z.string().optional(),
            age: z.string().optional(),
          })
          .loose(),
      ),
    })
    .optional(),
});

/**
 * The Brave Search API (`GET /res/v1/web/search`, key in `X-Subscription-Token`). The key comes from
 * env ARGUS_BRAVE_API_KEY or `providers.search.braveApiKey`; without one the engine refuses to start
 * with an error naming both.
 */
export class BraveEngine implements SearchEngine {
  readonly name = 'brave' as const;
  private readonly base: string;
  private readonly key: string;

  constructor(private readonly deps: EngineDeps) {
    const key = deps.settings.braveApiKey?.trim();
    if (!key)
      throw providerError(
        'auth',
        `The Brave Search API needs a key: set env ${BRAVE_KEY_ENV} (or \`argus config set providers.search.braveApiKey <key>\`), or pick another --engine.`,
        { retryable: false, details: { engine: 'brave', env: BRAVE_KEY_ENV, key: 'providers.search.braveApiKey' } },
      );
    this.key = key;
    this.base = baseUrl(deps.settings.braveUrl ?? BRAVE_URL, 'providers.search.braveUrl');
  }

  async search(query: EngineQuery): Promise<SearchResult[]> {
    const url = new URL(`${this.base}/res/v1/web/search`);
    url.searchParams.set('q', query.query);
    url.searchParams.set('count', String(Math.min(20, query.limit)));
    if (query.timeRange) url.searchParams.set('freshness', FRESHNESS[query.timeRange]);
    const response = await this.deps.http.get(url.href, {
      policy: OPERATOR_POLICY,
      accept: ['application/json'],
      headers: { accept: 'application/json', 'x-subscription-token': this.key },
      ...(query.timeoutMs === undefined ? {} : { timeoutMs: query.timeoutMs }),
      ...(query.signal === undefined ? {} : { signal: query.signal }),
    });
    if (response.status === 401 || response.status === 403 || response.status === 422)
      throw providerError(
        'auth',
        `The Brave Search API refused the key (${response.status}). Check ${BRAVE_KEY_ENV} (or providers.search.braveApiKey).`,
        { details: { engine: 'brave', status: response.status, env: BRAVE_KEY_ENV } },
      );
    assertOk(response);
    const parsed = BraveAnswer.safeParse(parseJson(response.body, 'brave'));
    if (!parsed.success)
      throw providerError('upstream', 'The Brave Search API answered JSON of an unknown shape.', {
        retryable: false,
        details: { engine: 'brave' },
      });
    return (parsed.data.web?.results ?? []).slice(0, query.limit).map((hit, index) => ({
      title: plainText(hit.title) || hit.url,
      url: hit.url,
      snippet: plainText(hit.description ?? ''),
      engine: 'brave',
      rank: index + 1,
      published: hit.page_age ?? hit.age ?? null,
    }));
  }
}
