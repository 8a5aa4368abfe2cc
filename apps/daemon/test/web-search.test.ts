import { FAKE_BRAVE_KEY, type FixtureServer, fakeSearchEngines, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, useHarness } from './harness.js';

const h = useHarness();
const fake = fakeSearchEngines();
let engines: FixtureServer;

beforeAll(async () => {
  engines = await startFixtureServer({ pages: fake.pages });
});
afterAll(async () => {
  await engines.close();
});

/** `argus search` through the daemon: engines come from the config layer, errors are typed. */
describe('web.search', () => {
  it('searches the engine configured with `config set`, and each engine by name', async () => {
    await h.client.config.set.mutate({ key: 'providers.search.searxngUrl', value: engines.origin });
    await h.client.config.set.mutate({ key: 'providers.search.duckduckgoUrl', value: engines.origin });
    const answer = await h.client.web.search.query({ query: 'home battery', limit: 4 });
    expect(answer.engine).toBe('searxng');
    expect(answer.results).toHaveLength(4);
    expect(answer.results[0]).toMatchObject({
      rank: 1,
      engine: 'searxng',
      url: engines.urlFor('/research/solar-storage.html'),
      published: '2026-11-20T08:00:00',
    });
    const ddg = await h.client.web.search.query({ query: 'home battery', engine: 'duckduckgo', since: '1y' });
    expect(ddg.results.map((hit) => hit.url)).toEqual([
      engines.urlFor('/research/solar-storage.html'),
      engines.urlFor('/research/grid-batteries.html'),
    ]);
    expect(fake.requests.at(-1)!.params['df']).toBe('y');
  });

  it('brave without a key is auth naming ARGUS_BRAVE_API_KEY; with one set in config it answers and the key stays masked', async () => {
    await h.client.config.set.mutate({ key: 'providers.search.braveUrl', value: engines.origin });
    const error = await h.client.web.search.query({ query: 'battery', engine: 'brave' }).then(
      () => undefined,
      (caught: unknown) => caught as { code: string; message: string },
    );
    expect(error?.code).toBe('auth');
    expect(error?.message).toContain('ARGUS_BRAVE_API_KEY');

    const set = await h.client.config.set.mutate({ key: 'providers.search.braveApiKey', value: FAKE_BRAVE_KEY });
    expect(JSON.stringify(set)).not.toContain(FAKE_BRAVE_KEY);
    const answer = await h.client.web.search.query({ query: 'battery', engine: 'brave', limit: 2 });
    expect(answer.results.map((hit) => hit.title)).toEqual([
      'Home battery storage: what a household system does',
      'Grid batteries keep the lights on',
    ]);
    const listed = await h.client.config.list.query({});
    const entry = listed.entries.find((item) => item.key === 'providers.search.braveApiKey');
    expect(entry?.env).toBe('ARGUS_BRAVE_API_KEY');
    expect(JSON.stringify(listed)).not.toContain(FAKE_BRAVE_KEY);
    expect(String(entry?.value)).toMatch(/^te…ey \(\d+ chars\)$/);
  });

  it('refuses a malformed --since and an unknown engine as invalid_input', async () => {
    expect(await codeOf(h.client.web.search.query({ query: 'x', since: 'last week' }))).toBe('invalid_input');
    expect(await codeOf(h.client.web.search.query({ query: 'x', engine: 'bing' as unknown as 'brave' }))).toBe(
      'invalid_input',
    );
  });
});
