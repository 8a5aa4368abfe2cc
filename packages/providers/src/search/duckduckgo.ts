import { linkedom } from '../lazy-deps.js';
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
} from './engine.js';

const DDG_URL = 'https://html.duckduckgo.com';
/** DuckDuckGo's `df`: day, week, month, year. */
const DF: Record<TimeRange, string> = { day: 'd', week: 'w', month: 'm', year: 'y' };

/**
 * DuckDuckGo's HTML endpoint (`html.duckduckgo.com/html/?q=…`, no key), read with linkedom: each
 * `.result` holds an `a.result__a` (title; its href is DuckDuckGo's `/l/?uddg=<target>` redirect,
 * unwrapped here) and an `.result__snippet`; ads (`.result--ad`) are left out. When DuckDuckGo suspects
 * a bot it answers a challenge page instead of results: that is a rate_limited error, not "no results".
 */
export class DuckDuckGoEngine implements SearchEngine {
  readonly name = 'duckduckgo' as const;
  private readonly base: string;

  constructor(private readonly deps: EngineDeps) {
    this.base = baseUrl(deps.settings.duckduckgoUrl ?? DDG_URL, 'providers.search.duckduckgoUrl');
  }

  async search(query: EngineQuery): Promise<SearchResult[]> {
    const url = new URL(`${this.base}/html/`);
    url.searchParams.set('q', query.query);
    if (query.timeRange) url.searchParams.set('df', DF[query.timeRange]);
    const response = await this.deps.http.get(url.href, {
      policy: OPERATOR_POLICY,
      ...(query.timeoutMs === undefined ? {} : { timeoutMs: query.timeoutMs }),
      ...(query.signal === undefined ? {} : { signal: query.signal }),
    });
    assertOk(response);
    const { document } = linkedom().parseHTML(response.body);
    const nodes = [...document.querySelectorAll('.result')].filter(
      (node) => !node.classList.contains('result--ad') && node.querySelector('a.result__a') !== null,
    );
    if (nodes.length === 0 && (response.status === 202 || document.querySelector('.anomaly-modal, #challenge-form')))
      throw providerError(
        'rate_limited',
        'DuckDuckGo answered a bot challenge instead of results. Wait a minute, or configure another engine (SearXNG or Brave).',
        { details: { engine: 'duckduckgo', retryAfterMs: 60_000 } },
      );
    const results: SearchResult[] = [];
    for (const node of nodes) {
      const link = node.querySelector('a.result__a');
      const target = unwrap(link?.getAttribute('href') ?? '', this.base);
      if (!link || !target) continue;
      results.push({
        title: (link.textContent ?? '').replace(/\s+/g, ' ').trim() || target,
        url: target,
        snippet: (node.querySelector('.result__snippet')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
        engine: 'duckduckgo',
        rank: results.length + 1,
        published: null,
      });
      if (results.length >= query.limit) break;
    }
    return results;
  }
}

/** `//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.com%2F&rut=…` -> `https://example.com/`; direct links pass. */
function unwrap(href: string, base: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(href, base);
  } catch {
    return null;
  }
  const target = parsed.pathname === '/l/' ? parsed.searchParams.get('uddg') : parsed.href;
  if (!target) return null;
  try {
    const url = new URL(target);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
