import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir } from './paths.js';

/** The key the fake Brave API accepts. */
export const FAKE_BRAVE_KEY = 'test-brave-key';

/**
 * @typedef {object} FakeSearchRequest
 * @property {'searxng' | 'brave' | 'duckduckgo'} engine
 * @property {string} query
 * @property {Record<string, string>} params the query string
 * @property {Record<string, string | string[] | undefined>} headers
 */

/**
 * Fake search engines that speak the real wire formats, for `startFixtureServer({ pages })`:
 * SearXNG's JSON API at `/search`, the Brave Search API at `/res/v1/web/search` and DuckDuckGo's
 * HTML endpoint at `/html/`. Answers come from fixtures/search (modelled on real answers), with the
 * result URLs pointing at the research pages (`/research/*.html`) of `pagesOrigin` (default: the server
 * the engine answers on). A time filter (`time_range`, `freshness`, `df`) drops the 2019 page. The
 * query `fail503` makes every engine answer 503; `challenge` makes DuckDuckGo answer its bot page.
 *
 * @param {{ pagesOrigin?: string, searxngJson?: boolean }} [options]
 * @returns {{ pages: Record<string, (url: URL, req: import('node:http').IncomingMessage) => import('./server.js').InlineAnswer>, requests: FakeSearchRequest[] }}
 */
export function fakeSearchEngines(options = {}) {
  /** @type {FakeSearchRequest[]} */
  const requests = [];
  const template = (/** @type {string} */ name) => readFileSync(join(fixturesDir, 'search', name), 'utf8');
  /** @param {URL} url @param {import('node:http').IncomingMessage} req @param {FakeSearchRequest['engine']} engine */
  const note = (url, req, engine) => {
    const query = url.searchParams.get('q') ?? '';
    requests.push({ engine, query, params: Object.fromEntries(url.searchParams), headers: { ...req.headers } });
    return query;
  };
  /** @param {string} text @param {import('node:http').IncomingMessage} req @param {string} query @param {boolean} json */
  const fill = (text, req, query, json) => {
    const origin = options.pagesOrigin ?? `http://${req.headers.host ?? '127.0.0.1'}`;
    const q = json ? JSON.stringify(query).slice(1, -1) : escapeHtml(query);
    return text
      .replaceAll('{{originEncoded}}', encodeURIComponent(origin))
      .replaceAll('{{origin}}', origin)
      .replaceAll('{{query}}', q);
  };
  const unavailable = { status: 503, contentType: 'text/plain', headers: { 'Retry-After': '0' }, body: 'overloaded' };
  return {
    requests,
    pages: {
      '/search': (url, req) => {
        const query = note(url, req, 'searxng');
        if (url.searchParams.get('format') !== 'json' || options.searxngJson === false)
          return { status: 403, contentType: 'text/html', body: '<html><body><h1>403 Forbidden</h1></body></html>' };
        if (query === 'fail503') return unavailable;
        const answer = JSON.parse(fill(template('searxng.json'), req, query, true));
        if (url.searchParams.get('time_range')) answer.results = answer.results.filter(recent);
        return { contentType: 'application/json', body: JSON.stringify(answer) };
      },
      '/res/v1/web/search': (url, req) => {
        const query = note(url, req, 'brave');
        if (req.headers['x-subscription-token'] !== FAKE_BRAVE_KEY)
          return {
            status: 401,
            contentType: 'application/json',
            body: JSON.stringify({
              type: 'ErrorResponse',
              error: {
                id: 'f1',
                status: 401,
                code: 'SUBSCRIPTION_TOKEN_INVALID',
                detail: 'The provided subscription token is invalid.',
              },
              time: 1732400000,
            }),
          };
        if (query === 'fail503') return unavailable;
        const answer = JSON.parse(fill(template('brave.json'), req, query, true));
        if (url.searchParams.get('freshness')) answer.web.results = answer.web.results.filter(recent);
        const count = Number(url.searchParams.get('count') ?? 20);
        answer.web.results = answer.web.results.slice(0, count);
        return {
          contentType: 'application/json',
          headers: { 'X-RateLimit-Remaining': '1, 1999' },
          body: JSON.stringify(answer),
        };
      },
      '/html/': (url, req) => {
        const query = note(url, req, 'duckduckgo');
        if (query === 'fail503') return unavailable;
        if (query === 'challenge')
          return {
            status: 202,
            contentType: 'text/html; charset=UTF-8',
            body: '<html><body><div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div><form id="challenge-form"></form></body></html>',
          };
        let html = fill(template('duckduckgo.html'), req, query, false);
        if (url.searchParams.get('df')) html = html.replace(/<!-- fixture: old -->[\s\S]*<!-- fixture: \/old -->/, '');
        return { contentType: 'text/html; charset=UTF-8', body: html };
      },
    },
  };
}

/** @param {{ url: string }} result */
function recent(result) {
  return !result.url.includes('old-news');
}

/** @param {string} text */
function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
