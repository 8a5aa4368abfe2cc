import { type FixtureServer, FAKE_BRAVE_KEY, fakeSearchEngines, startFixtureServer } from '@argus/test-kit';
import { ArgusError } from '@argus/protocol/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, Resilience, type SearchSettings, chooseEngine, parseSince, searchWeb } from '../src/index.js';
import { startSlowServer } from './slow-server.js';

let server: FixtureServer;
const fake = fakeSearchEngines();
const http = new HttpClient();

beforeAll(async () => {
  server = await startFixtureServer({ pages: fake.pages });
});
afterAll(async () => {
  await http.close();
  await server.close();
});

const settings = (): SearchSettings => ({
  searxngUrl: server.origin,
  braveUrl: server.origin,
  braveApiKey: FAKE_BRAVE_KEY,
  duckduckgoUrl: server.origin,
});
const fresh = () => new Resilience({ retries: 2, backoffMs: 1, breakerThreshold: 3, breakerCooldownMs: 60_000 });

async function failure(promise: Promise<unknown>): Promise<ArgusError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ArgusError);
  return error as ArgusError;
}

describe('search engines on their real wire formats', () => {
  it.each(['searxng', 'brave', 'duckduckgo'] as const)('%s: normalised results in rank order', async (engine) => {
    const answer = await searchWeb(http, fresh(), settings(), 'home battery', { engine, limit: 3 });
    expect(answer.engine).toBe(engine);
    expect(answer.results).toHaveLength(3);
    expect(answer.results.map((result) => result.rank)).toEqual([1, 2, 3]);
    const [first] = answer.results;
    expect(first).toMatchObject({
      title: 'Home battery storage: what a household system does',
      url: server.urlFor('/research/solar-storage.html'),
      engine,
    });
    // markup and entities are gone from snippets; the query made the round trip
    expect(first!.snippet).toMatch(/^A home battery stores the surplus of a rooftop solar array/);
    expect(first!.snippet).toContain('home battery');
    expect(first!.snippet).not.toMatch(/<|&amp;/);
    const request = fake.requests.at(-1)!;
    expect(request.engine).toBe(engine);
    expect(request.query).toBe('home battery');
  });

  it('duckduckgo unwraps its /l/?uddg= redirects and leaves the ads out', async () => {
    const answer = await searchWeb(http, fresh(), settings(), 'battery', { engine: 'duckduckgo' });
    expect(answer.results.map((result) => result.url)).toEqual([
      server.urlFor('/research/solar-storage.html'),
      server.urlFor('/research/grid-batteries.html'),
      server.urlFor('/research/old-news.html'),
    ]);
    expect(answer.results.some((result) => result.title.includes('Buy'))).toBe(false);
  });

  it('--since goes to each engine in its own words (time_range, freshness, df)', async () => {
    for (const [engine, param, value] of [
      ['searxng', 'time_range', 'week'],
      ['brave', 'freshness', 'pw'],
      ['duckduckgo', 'df', 'w'],
    ] as const) {
      const answer = await searchWeb(http, fresh(), settings(), 'battery', { engine, since: '7d' });
      expect(fake.requests.at(-1)!.params[param]).toBe(value);
      expect(answer.results.some((result) => result.url.includes('old-news'))).toBe(false);
    }
    expect(parseSince('12h')).toBe(43_200_000);
    expect(() => parseSince('last week')).toThrow(/12h, 7d/);
  });

  it('brave sends the key as X-Subscription-Token; a missing key names the variable; a wrong key is auth', async () => {
    await searchWeb(http, fresh(), settings(), 'battery', { engine: 'brave' });
    expect(fake.requests.at(-1)!.headers['x-subscription-token']).toBe(FAKE_BRAVE_KEY);
    const before = fake.requests.length;
    const missing = await failure(
      searchWeb(http, fresh(), { ...settings(), braveApiKey: undefined }, 'battery', { engine: 'brave' }),
    );
    expect(missing.code).toBe('auth');
    expect(missing.message).toContain('ARGUS_BRAVE_API_KEY');
    expect(missing.details?.['retryable']).toBe(false);
    expect(fake.requests.length).toBe(before); // refused before any request
    const wrong = await failure(
      searchWeb(http, fresh(), { ...settings(), braveApiKey: 'nope' }, 'battery', { engine: 'brave' }),
    );
    expect(wrong.code).toBe('auth');
    expect(wrong.details?.['status']).toBe(401);
  });

  it('searxng without the JSON format enabled says how to enable it; without a URL says which key to set', async () => {
    const strict = fakeSearchEngines({ searxngJson: false });
    const other = await startFixtureServer({ pages: strict.pages });
    try {
      const refused = await failure(
        searchWeb(http, fresh(), { searxngUrl: other.origin }, 'battery', { engine: 'searxng' }),
      );
      expect(refused.code).toBe('auth');
      expect(refused.message).toContain('search.formats');
    } finally {
      await other.close();
    }
    const unset = await failure(searchWeb(http, fresh(), {}, 'battery', { engine: 'searxng' }));
    expect(unset.code).toBe('invalid_input');
    expect(unset.message).toContain('providers.search.searxngUrl');
  });

  it('a duckduckgo bot challenge is rate_limited, not an empty answer', async () => {
    const error = await failure(
      searchWeb(http, new Resilience({ retries: 0 }), settings(), 'challenge', { engine: 'duckduckgo' }),
    );
    expect(error.code).toBe('rate_limited');
  });

  it('retries a failing engine, then its breaker opens and fails fast without a request', async () => {
    const resilience = fresh();
    server.resetTraffic();
    const first = await failure(searchWeb(http, resilience, settings(), 'fail503', { engine: 'searxng' }));
    expect(first.code).toBe('upstream');
    expect(server.traffic().paths['/search']).toBe(3); // one try + two retries, then the breaker opened
    const fast = await failure(searchWeb(http, resilience, settings(), 'fail503', { engine: 'searxng' }));
    expect(fast.code).toBe('circuit_open');
    expect(server.traffic().paths['/search']).toBe(3);
    expect(resilience.state('engine:searxng')).toBe('open');
    // the other engines have their own breakers
    expect(
      (await searchWeb(http, resilience, settings(), 'battery', { engine: 'brave' })).results.length,
    ).toBeGreaterThan(0);
  });

  it('picks the configured engine, else the first one set up, else duckduckgo', () => {
    expect(chooseEngine({})).toBe('duckduckgo');
    expect(chooseEngine({ braveApiKey: 'k' })).toBe('brave');
    expect(chooseEngine({ braveApiKey: 'k', searxngUrl: 'http://s' })).toBe('searxng');
    expect(chooseEngine({ engine: 'duckduckgo', searxngUrl: 'http://s' })).toBe('duckduckgo');
    expect(chooseEngine({ searxngUrl: 'http://s' }, 'brave')).toBe('brave');
  });
});

describe('search deadline', () => {
  it('--timeout-ms bounds the whole search, retries included, and says what was tried', async () => {
    // an engine that answers each request after 10 s: six attempts of 1 s each would take 6 s and more
    const slow = await startSlowServer(() => ({ delayMs: 10_000, contentType: 'application/json', body: '{}' }));
    try {
      const resilience = new Resilience({ retries: 5, backoffMs: 1, breakerThreshold: 100 });
      const started = Date.now();
      const error = await failure(
        searchWeb(http, resilience, { searxngUrl: slow.origin }, 'slow engine', {
          engine: 'searxng',
          timeoutMs: 1_000,
        }),
      );
      const took = Date.now() - started;
      expect(error.code).toBe('timeout');
      expect(error.message).toMatch(/searxng did not answer within --timeout-ms 1000 \(asked 1 time\)/);
      expect(error.message).toContain('raise --timeout-ms');
      expect(took).toBeLessThan(3_000);
    } finally {
      await slow.close();
    }
  });
});
