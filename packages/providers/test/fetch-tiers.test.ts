import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserTier, HttpClient, OPERATOR_POLICY, PageFetcher, Resilience } from '../src/index.js';

const ARTICLE = `<!doctype html><html lang="en"><head><title>Plain article</title></head><body>
<nav><a href="/a">A</a> <a href="/b#x">B</a> <a href="/b">B again</a> <a href="mailto:x@y.z">mail</a></nav>
<article><h1>Plain article</h1><p>${'Served with its words in the HTML, so no browser is needed to read it. '.repeat(10)}</p>
<table><tr><th>k</th><th>v</th></tr><tr><td>one</td><td>1</td></tr></table></article></body></html>`;
const SHELL = `<!doctype html><html><head><title>App</title></head><body><div id="root"></div>
<noscript>You need to enable JavaScript to run this app.</noscript><script src="/bundle.js"></script></body></html>`;
const CHALLENGE = `<!doctype html><html><head><title>Just a moment...</title></head><body>
<div id="cf-wrapper">Checking your browser before accessing the site.</div><script src="/cdn-cgi/challenge-platform/x.js"></script></body></html>`;

let server: FixtureServer;
const http = new HttpClient();
const rendered: string[] = [];
/** Unit-level stand-in for the daemon's Chromium: the real one is exercised by the daemon's tests. */
const browser: BrowserTier = {
  render(url) {
    rendered.push(url);
    return Promise.resolve({ finalUrl: url, status: 200, html: ARTICLE.replace('Plain article', 'Rendered article') });
  },
};
const fetcher = new PageFetcher(http, new Resilience({ retries: 0 }), browser);

beforeAll(async () => {
  server = await startFixtureServer({
    pages: {
      '/article': ARTICLE,
      '/shell': SHELL,
      '/challenge': () => ({ status: 503, body: CHALLENGE }),
    },
  });
});
afterAll(async () => {
  await http.close();
  await server.close();
});

describe('fetch tiers', () => {
  it('reads a plain page over HTTP: markdown with a GFM table, absolute deduplicated links', async () => {
    rendered.length = 0;
    const page = await fetcher.fetch(server.urlFor('/article'), { policy: OPERATOR_POLICY });
    expect(page.tier).toBe('http');
    expect(page.fallbackReason).toBeNull();
    expect(page.title).toBe('Plain article');
    expect(page.lang).toBe('en');
    expect(page.markdown).toContain('| k | v |');
    expect(page.links).toEqual([server.urlFor('/a'), server.urlFor('/b')]);
    expect(rendered).toEqual([]);
  });

  it('auto falls back to the browser for a JS shell and says why', async () => {
    const page = await fetcher.fetch(server.urlFor('/shell'), { policy: OPERATOR_POLICY });
    expect(page.tier).toBe('browser');
    expect(page.fallbackReason).toBe('js-shell');
    expect(page.title).toBe('Rendered article');
    expect(page.timings.httpMs).not.toBeNull();
  });

  it('auto falls back for a challenge page (503 with a challenge) instead of failing', async () => {
    const page = await fetcher.fetch(server.urlFor('/challenge'), { policy: OPERATOR_POLICY });
    expect(page.tier).toBe('browser');
    expect(page.fallbackReason).toBe('challenge');
  });

  it('auto: an error status the browser fallback still gets is that typed error, not content', async () => {
    // the browser, like the server, answers an error page: 500, 429, 403
    const erring = (status: number): BrowserTier => ({
      render: (url) =>
        Promise.resolve({ finalUrl: url, status, html: `<html><body><h1>Error ${status}</h1></body></html>` }),
    });
    const cases: Array<[string, number, string]> = [
      ['/status/500', 500, 'upstream'],
      ['/status/429', 429, 'rate_limited'],
      ['/status/403', 403, 'auth'],
    ];
    for (const [path, status, code] of cases) {
      const erringFetcher = new PageFetcher(http, new Resilience({ retries: 0 }), erring(status));
      await expect(erringFetcher.fetch(server.urlFor(path), { policy: OPERATOR_POLICY }), path).rejects.toMatchObject({
        code,
      });
    }
  });

  it('--timeout-ms bounds the whole fetch, retries included, not each attempt', async () => {
    const retrying = new PageFetcher(http, new Resilience({ retries: 2, backoffMs: 1 }), undefined);
    const started = Date.now();
    const error = await retrying
      .fetch(server.urlFor('/hang'), { policy: OPERATOR_POLICY, tier: 'http', timeoutMs: 1_000 })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'timeout' });
    // three attempts of 1 s each took 3 s and more
    expect(Date.now() - started).toBeLessThan(1_800);
  });

  it('--http keeps the HTTP answer, --browser skips HTTP', async () => {
    const shell = await fetcher.fetch(server.urlFor('/shell'), { policy: OPERATOR_POLICY, tier: 'http' });
    expect(shell.tier).toBe('http');
    expect(shell.text).not.toContain('Served with its words');
    server.resetTraffic();
    const viaBrowser = await fetcher.fetch(server.urlFor('/article'), { policy: OPERATOR_POLICY, tier: 'browser' });
    expect(viaBrowser.tier).toBe('browser');
    expect(server.traffic().total).toBe(0);
  });

  it('--selector takes that element; a selector that matches nothing is not_found', async () => {
    const page = await fetcher.fetch(server.urlFor('/article'), {
      policy: OPERATOR_POLICY,
      tier: 'http',
      selector: 'nav',
    });
    expect(page.text).toContain('B again');
    await expect(
      fetcher.fetch(server.urlFor('/article'), { policy: OPERATOR_POLICY, tier: 'http', selector: '#nope' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    // a selector the CSS parser refuses is the caller's mistake, named, not an internal error
    const invalid = await fetcher
      .fetch(server.urlFor('/article'), { policy: OPERATOR_POLICY, tier: 'http', selector: '<<<' })
      .then(
        () => undefined,
        (caught: unknown) => caught as Error,
      );
    expect(invalid).toMatchObject({ code: 'invalid_input' });
    expect(invalid?.message).toContain('"<<<"');
  });
});
