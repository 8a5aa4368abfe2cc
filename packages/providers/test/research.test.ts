import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { type AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureServer, fakeSearchEngines, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGENT_POLICY,
  ArtifactStore,
  HttpClient,
  OPERATOR_POLICY,
  PageFetcher,
  Resilience,
  type ResearchRecord,
  excerpts,
  jaccard,
  research,
  shingles,
  topicTerms,
} from '../src/index.js';
import { articlePage, startSlowServer } from './slow-server.js';

let server: FixtureServer;
const fake = fakeSearchEngines();
const http = new HttpClient();
const root = mkdtempSync(join(tmpdir(), 'argus-research-'));
const store = new ArtifactStore(join(root, 'artifacts'));

beforeAll(async () => {
  server = await startFixtureServer({ pages: fake.pages });
});
afterAll(async () => {
  await http.close();
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

function deps() {
  const resilience = new Resilience({ retries: 0 });
  return {
    http,
    resilience,
    fetcher: new PageFetcher(http, resilience, undefined),
    store,
    settings: { searxngUrl: server.origin },
  };
}

describe('research', () => {
  it('searches, fetches the distinct hits in parallel, drops duplicates, and writes a cited extractive bundle', async () => {
    server.resetTraffic();
    const result = await research(deps(), 'home battery storage', { policy: OPERATOR_POLICY, limit: 10, fetch: 6 });
    const outcome = (path: string) => result.records.find((record) => record.url.endsWith(path))?.outcome;
    expect(outcome('/research/solar-storage.html')).toBe('source');
    expect(outcome('/research/solar-storage.html?utm_source=searx&utm_medium=web')).toBe('duplicate');
    expect(outcome('/research/grid-batteries.html')).toBe('source');
    expect(outcome('/research/mirror.html')).toBe('duplicate'); // near-identical text
    expect(outcome('/research/old-news.html')).toBe('source');
    expect(outcome('/status/404')).toBe('failed');
    expect(outcome('/research/heat-pumps.html')).toBe('source');
    expect(result.counts).toEqual({ searched: 7, fetched: 4, failed: 1, duplicates: 2, tooOld: 0 });
    // the tracked spelling was never fetched: deduplicated by canonical URL before the request
    expect(server.traffic().paths['/research/solar-storage.html']).toBe(1);
    const mirror = result.records.find((record) => record.url.endsWith('/mirror.html'))!;
    expect(mirror.reason).toMatch(/near-duplicate text of source \[1\]/);

    // every bullet of the report quotes its source and cites it
    const sourceUrls = new Map(
      result.records
        .filter(
          (record): record is ResearchRecord & { page: NonNullable<ResearchRecord['page']> } =>
            record.outcome === 'source' && record.page !== null,
        )
        .map((record) => [record.source!, record.page.finalUrl]),
    );
    const texts = new Map<string, string>();
    for (const record of result.records) {
      if (record.outcome === 'source' && record.page?.file)
        texts.set(record.page.finalUrl, readFileSync(join(result.bundle.dir, record.page.file), 'utf8'));
    }
    const bullets = result.report.split('\n').filter((line) => line.startsWith('- ') && !line.startsWith('- <'));
    expect(bullets.length).toBeGreaterThanOrEqual(8);
    for (const bullet of bullets) {
      const cite = /\[(\d+)\]\((\S+)\)$/.exec(bullet);
      expect(cite, bullet).not.toBeNull();
      expect(sourceUrls.get(Number(cite![1]))).toBe(cite![2]);
      const sentence = bullet.slice(2, cite!.index).trim().replace(/\\(.)/g, '$1');
      expect(texts.get(cite![2] ?? '')!.replace(/\s+/g, ' '), sentence).toContain(sentence.slice(0, 60));
    }
    expect(result.report).toContain('## Left out');
    expect(result.report).toMatch(/status\/404>: not read \(not_found\)/);

    // the bundle: report.md, records.json, sources/NN.md, manifest.json, private
    const files = result.bundle.files.map((file) => file.path).sort();
    expect(files).toEqual([
      'records.json',
      'report.md',
      'sources/01.md',
      'sources/02.md',
      'sources/03.md',
      'sources/04.md',
    ]);
    expect(statSync(result.bundle.dir).mode & 0o777).toBe(0o700);
    const manifest = JSON.parse(readFileSync(join(result.bundle.dir, 'manifest.json'), 'utf8')) as {
      kind: string;
      summary: { topic: string };
    };
    expect(manifest).toMatchObject({ kind: 'research', summary: { topic: 'home battery storage' } });
  });

  it('--since asks the engine for recent results and drops fetched pages published before it', async () => {
    const result = await research(deps(), 'battery', { policy: OPERATOR_POLICY, since: '30d', fetch: 8 });
    expect(fake.requests.at(-1)!.params['time_range']).toBe('month');
    expect(result.records.some((record) => record.url.includes('old-news'))).toBe(false);
    const started = Date.now();
    const dayAgo = await research(deps(), 'battery', { policy: OPERATOR_POLICY, since: '1d', fetch: 8 });
    const judged = dayAgo.records.filter((record) => record.page?.publishedTime);
    expect(judged.length).toBeGreaterThan(0);
    for (const record of judged) {
      const old = Date.parse(record.page!.publishedTime!) < started - 86_400_000;
      expect(record.outcome === 'too-old', record.url).toBe(old);
      if (old) expect(record.reason).toMatch(/before --since 1d/);
    }
  });

  it("fetches the results under the caller's policy: an agent gets no loopback page, only the refusals", async () => {
    const result = await research(deps(), 'battery', { policy: AGENT_POLICY, fetch: 3 });
    expect(result.counts.fetched).toBe(0);
    const failed = result.records.filter((record) => record.outcome === 'failed');
    expect(failed).toHaveLength(3);
    for (const record of failed) expect(record.error?.code).toBe('policy_blocked');
  });

  it('near-duplicate and excerpt helpers', () => {
    const a = shingles('one two three four five six seven eight nine ten');
    const b = shingles('one two three four five six seven eight nine eleven');
    expect(jaccard(a, b)).toBeGreaterThan(0.6);
    expect(jaccard(a, shingles('entirely different words make up this other sentence here'))).toBe(0);
    expect(topicTerms('How do home batteries work?')).toEqual(['home', 'batteries', 'work']);
    const text =
      'First sentence is the lead of the article here. Second sentence follows the lead closely. Cats sleep most of the day in the sun. Batteries store energy for the home at night.';
    const picked = excerpts(text, ['batteries', 'home'], 1, 2);
    expect(picked.lead).toEqual(['First sentence is the lead of the article here.']);
    expect(picked.passages).toEqual(['Batteries store energy for the home at night.']);
  });
});

describe('research: what the report may quote, and what it left out', () => {
  it("never quotes the engine's snippet as page text; lists non-http hits under Left out", async () => {
    const SNIPPET = 'ENGINE SNIPPET heat storage words';
    const engine = createServer((req, res) => {
      const origin = `http://127.0.0.1:${(engine.address() as AddressInfo).port}`;
      if (req.url?.startsWith('/search')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            query: 'heat storage',
            results: [
              { url: `${origin}/bare`, title: 'Bare', content: SNIPPET },
              { url: 'javascript:alert(1)', title: 'Script', content: 'x' },
              { url: 'file:///etc/passwd', title: 'File', content: 'x' },
            ],
          }),
        );
        return;
      }
      // a page with no sentence to quote and no excerpt
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><head><title>Bare</title></head><body><div><img src="a.png" alt=""></div></body></html>');
    });
    await new Promise<void>((resolve) => engine.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(engine.address() as AddressInfo).port}`;
      const resilience = new Resilience({ retries: 0 });
      const result = await research(
        {
          http,
          resilience,
          fetcher: new PageFetcher(http, resilience, undefined),
          store,
          settings: { searxngUrl: origin },
        },
        'heat storage',
        { policy: OPERATOR_POLICY, engine: 'searxng', limit: 10, fetch: 5 },
      );
      expect(result.report).not.toContain('ENGINE SNIPPET');
      const leftOut = result.report.slice(result.report.indexOf('## Left out'));
      expect(result.report).toContain('## Left out');
      expect(leftOut).toContain('javascript:alert(1)');
      expect(leftOut).toContain('file:///etc/passwd');
    } finally {
      await new Promise((resolve) => engine.close(resolve));
    }
  });
});

describe('research deadline', () => {
  it('--timeout-ms bounds the whole research: an engine that does not answer is a typed timeout, retries included', async () => {
    const slow = await startSlowServer(() => ({ delayMs: 10_000, contentType: 'application/json', body: '{}' }));
    try {
      const resilience = new Resilience({ retries: 5, backoffMs: 1, breakerThreshold: 100 });
      const started = Date.now();
      const error = (await research(
        {
          http,
          resilience,
          fetcher: new PageFetcher(http, resilience, undefined),
          store,
          settings: { searxngUrl: slow.origin },
        },
        'slow engine',
        { policy: OPERATOR_POLICY, engine: 'searxng', timeoutMs: 1_000 },
      ).catch((caught: unknown) => caught)) as { code?: string; message?: string };
      // six attempts of 1 s each took 6 s and more
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(error.code).toBe('timeout');
      expect(error.message).toMatch(/ran out of time in its search.*Nothing was read\. Raise --timeout-ms/);
    } finally {
      await slow.close();
    }
  });

  it('the deadline covers the search and the reads together: pages read before it are the report, the rest left out', async () => {
    // the engine takes 600 ms; one page answers at once, one only after 10 s
    const slow = await startSlowServer((url, origin) => {
      if (url.pathname === '/search')
        return {
          delayMs: 600,
          contentType: 'application/json',
          body: JSON.stringify({
            query: 'slow pages',
            results: [
              { url: `${origin}/fast`, title: 'Fast', content: 'fast' },
              { url: `${origin}/slow`, title: 'Slow', content: 'slow' },
            ],
          }),
        };
      return { delayMs: url.pathname === '/slow' ? 10_000 : 0, body: articlePage(url.pathname.slice(1)) };
    });
    try {
      const resilience = new Resilience({ retries: 0 });
      const started = Date.now();
      const result = await research(
        {
          http,
          resilience,
          fetcher: new PageFetcher(http, resilience, undefined),
          store,
          settings: { searxngUrl: slow.origin },
        },
        'slow pages',
        { policy: OPERATOR_POLICY, engine: 'searxng', timeoutMs: 1_500 },
      );
      expect(Date.now() - started).toBeLessThan(4_500);
      expect(result.timedOut).toBe(true);
      expect(result.counts).toMatchObject({ searched: 2, fetched: 1, failed: 1 });
      expect(result.warnings.join('\n')).toMatch(/--timeout-ms 1500 ended the research.*Raise --timeout-ms/);
      const cut = result.records.find((record) => record.url.endsWith('/slow'));
      expect(cut).toMatchObject({ outcome: 'failed', error: { code: 'timeout' } });
      expect(cut?.error?.message).toContain('deadline');
    } finally {
      await slow.close();
    }
  });
});
