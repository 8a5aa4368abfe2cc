import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createArgusClient } from '@argus/client';
import { type FixtureServer, fakeSearchEngines, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, useHarness } from './harness.js';

const h = useHarness();
let second: FixtureServer;
const fake = fakeSearchEngines();
let engines: FixtureServer;

beforeAll(async () => {
  second = await startFixtureServer({ hostname: '127.0.0.2' });
  engines = await startFixtureServer({ pages: fake.pages });
  await h.client.config.set.mutate({ key: 'providers.search.searxngUrl', value: engines.origin });
});
afterAll(async () => {
  await second.close();
  await engines.close();
});

async function withAgent<T>(
  scope: 'read' | 'write',
  run: (agent: ReturnType<typeof createArgusClient>['client']) => Promise<T>,
) {
  const { token } = await h.client.token.create.mutate({ scope });
  const handle = createArgusClient({ url: `http://127.0.0.1:${h.daemon.port}`, token, cwd: h.workspace });
  try {
    return await run(handle.client);
  } finally {
    handle.close();
  }
}

/** The holes the first providers slice left: redirects the policies did not see. */
describe('provider policies on redirect hops', () => {
  it('the HTTP tier refuses a redirect hop to a host policy.domains denies, before requesting it', async () => {
    await h.client.config.set.mutate({ key: 'policy.domains.deny', value: '["localhost"]' });
    try {
      h.server.resetTraffic();
      const hop = `http://localhost:${h.server.port}/long.html`;
      const url = h.server.urlFor(`/redirect?to=${encodeURIComponent(hop)}`);
      expect(await codeOf(h.client.web.fetch.query({ url, http: true }))).toBe('policy_denied');
      expect(h.server.traffic().paths['/long.html']).toBeUndefined();
      // the browser tier's render tab too
      expect(await codeOf(h.client.web.fetch.query({ url, browser: true }))).toBe('policy_denied');
      expect(h.server.traffic().paths['/long.html']).toBeUndefined();
      // and a crawl's links: none of them is fetched from the denied host
      const crawl = await h.client.web.crawl.mutate({ urls: [url], depth: 1, maxPages: 3, robots: 'off' });
      expect(crawl.done).toBe(0);
      expect(crawl.failed).toBe(1);
      expect(h.server.traffic().paths['/long.html']).toBeUndefined();
    } finally {
      await h.client.config.set.mutate({ key: 'policy.domains.deny', unset: true });
    }
    expect((await h.client.web.fetch.query({ url: h.server.urlFor('/long.html'), http: true })).status).toBe(200);
  });

  it("an agent's browser-tier render refuses a redirect to a loopback address the operator did not open", async () => {
    await h.client.config.set.mutate({ key: 'providers.agentNetworks', value: '["127.0.0.2/32"]' });
    try {
      await withAgent('read', async (agent) => {
        // the opened range works in both tiers
        const open = await agent.web.fetch.query({ url: second.urlFor('/long.html'), browser: true });
        expect(open.tier).toBe('browser');
        expect(open.status).toBe(200);
        h.server.resetTraffic();
        const url = second.urlFor(`/redirect?to=${encodeURIComponent(h.server.urlFor('/long.html'))}`);
        for (const tier of [{ browser: true }, { http: true }, {}]) {
          const error = await agent.web.fetch.query({ url, ...tier }).then(
            () => undefined,
            (caught: unknown) => caught as { code: string; message: string },
          );
          expect(error?.code, JSON.stringify(tier)).toBe('policy_blocked');
          expect(error?.message).toMatch(/127\.0\.0\.1/);
        }
        // refused before any request reached the private server
        expect(h.server.traffic().paths['/long.html']).toBeUndefined();
      });
    } finally {
      await h.client.config.set.mutate({ key: 'providers.agentNetworks', unset: true });
    }
  });
});

describe('web.research through the daemon', () => {
  it('writes a bundle into artifacts and copies it to --out inside the project; outside is path_forbidden', async () => {
    const out = join(h.workspace, 'notes', 'battery');
    const result = await h.client.web.research.mutate({ topic: 'home battery storage', fetch: 6, out });
    expect(result.fetched).toBe(4);
    expect(result.duplicates).toBe(2);
    expect(result.failed).toBe(1);
    expect(result.sources.map((source) => source.n)).toEqual([1, 2, 3, 4]);
    expect(result.report).toContain(`[1](${engines.urlFor('/research/solar-storage.html')})`);
    expect(result.dir.startsWith(h.daemon.stateDir)).toBe(true);
    expect(result.out).toBe(out);
    for (const file of ['report.md', 'records.json', 'manifest.json', 'sources/01.md'])
      expect(existsSync(join(out, file)), file).toBe(true);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toBe(result.report);
    const listed = await h.client.web.artifacts.query({});
    expect(listed.artifacts.find((bundle) => bundle.id === result.id)?.kind).toBe('research');

    expect(await codeOf(h.client.web.research.mutate({ topic: 'battery', out: '/etc/argus-research' }))).toBe(
      'path_forbidden',
    );
    // an existing bundle is never overwritten
    expect(await codeOf(h.client.web.research.mutate({ topic: 'battery', out }))).toBe('file_exists');
  });

  it("an agent's research reads no loopback page: the fetches fail with policy_blocked", async () => {
    await withAgent('write', async (agent) => {
      const result = await agent.web.research.mutate({ topic: 'battery', fetch: 3 });
      expect(result.fetched).toBe(0);
      expect(result.failed).toBe(3);
      expect(result.report).toMatch(/not read \(policy_blocked\)/);
    });
  });
});
