import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_POLICY, ArtifactStore, HttpClient, OPERATOR_POLICY, canonicalUrl, crawl } from '../src/index.js';
import { articlePage, startSlowServer } from './slow-server.js';

let server: FixtureServer;
let politeServer: FixtureServer;
const http = new HttpClient();
const root = mkdtempSync(join(tmpdir(), 'argus-crawl-'));
const store = new ArtifactStore(join(root, 'artifacts'));

beforeAll(async () => {
  server = await startFixtureServer();
  politeServer = await startFixtureServer({
    pages: {
      '/robots.txt': () => ({ contentType: 'text/plain', body: 'User-agent: *\nDisallow: /site/3\n' }),
      '/sitemap.xml': (_url, req) => ({
        contentType: 'application/xml',
        body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://${req.headers.host ?? ''}/site/9?size=12</loc></url></urlset>`,
      }),
    },
  });
});
afterAll(async () => {
  await http.close();
  await Promise.all([server.close(), politeServer.close()]);
  rmSync(root, { recursive: true, force: true });
});

describe('canonical URLs', () => {
  it.each([
    ['HTTP://Example.COM:80/a?b=2&a=1#frag', 'http://example.com/a?a=1&b=2'],
    ['https://example.com:443/p?utm_source=x&id=3&fbclid=y', 'https://example.com/p?id=3'],
    ['https://user:pw@example.com/', 'https://example.com/'],
  ])('%s -> %s', (input, want) => {
    expect(canonicalUrl(input)).toBe(want);
  });
  it('refuses what is not http(s)', () => {
    expect(canonicalUrl('mailto:a@b.c')).toBeNull();
    expect(canonicalUrl('javascript:alert(1)')).toBeNull();
  });
});

describe('crawl', () => {
  it('walks a generated site breadth-first, deduplicated, never more than the per-host limit in flight', async () => {
    server.resetTraffic();
    const progress: number[] = [];
    const result = await crawl(http, store, [server.urlFor('/site/0?size=40&ms=30')], {
      policy: OPERATOR_POLICY,
      depth: 10,
      maxPages: 25,
      concurrency: 2,
      onProgress: (p) => progress.push(p.done),
    });
    expect(result.done).toBe(25);
    expect(result.failed).toBe(0);
    const traffic = server.traffic();
    expect(traffic.maxInFlight).toBeLessThanOrEqual(2);
    expect(traffic.maxInFlight).toBe(2);
    // every page once (plus robots.txt): home is linked from every page and fetched once
    const sitePaths = Object.entries(traffic.paths).filter(([path]) => path.startsWith('/site/'));
    expect(sitePaths.every(([, count]) => count === 1)).toBe(true);
    expect(sitePaths).toHaveLength(25);
    expect(progress.at(-1)).toBe(25);

    const lines = readFileSync(join(result.bundle.dir, 'pages.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(25);
    const first = JSON.parse(lines[0]!) as { title: string; depth: number; file: string };
    expect(first).toMatchObject({ title: 'Site page 0', depth: 0 });
    expect(readFileSync(join(result.bundle.dir, first.file), 'utf8')).toContain('crawling politely');
    expect(statSync(result.bundle.dir).mode & 0o777).toBe(0o700);
    const manifest = store.show(result.bundle.id);
    expect(manifest.files.map((file) => file.path)).toContain('pages.jsonl');
    expect(manifest.ttlHours).toBe(72);
  });

  it('honours robots.txt (strict skips without a request; warn fetches and says so) and reads the sitemap', async () => {
    politeServer.resetTraffic();
    const seed = politeServer.urlFor('/site/1?size=12');
    const strict = await crawl(http, store, [seed], { policy: OPERATOR_POLICY, depth: 1, maxPages: 10 });
    expect(strict.skipped).toBe(1);
    expect(politeServer.traffic().paths['/site/3']).toBeUndefined();
    expect(readFileSync(join(strict.bundle.dir, 'skipped.jsonl'), 'utf8')).toContain('/site/3');

    const warn = await crawl(http, store, [seed], { policy: OPERATOR_POLICY, depth: 1, maxPages: 10, robots: 'warn' });
    expect(warn.skipped).toBe(0);
    expect(warn.warnings.join('\n')).toMatch(/robots\.txt disallows .*\/site\/3/);
    expect(politeServer.traffic().paths['/site/3']).toBe(1);

    politeServer.resetTraffic();
    await crawl(http, store, [seed], { policy: OPERATOR_POLICY, depth: 0, maxPages: 10, sitemap: true });
    expect(politeServer.traffic().paths['/site/9']).toBe(1);
  });

  it("skips links (and a link's redirect) to hosts the operator's domain policy refuses, with the reason, without asking them", async () => {
    const port = server.port;
    const hub = await startFixtureServer({
      pages: {
        '/hub': `<!doctype html><title>Hub</title><main><h1>Hub</h1><p>Links to read.</p>
          <a href="/site/1?size=3">inside</a>
          <a href="http://localhost:${port}/site/2?size=3">denied host</a>
          <a href="/redirect?to=${encodeURIComponent(`http://localhost:${port}/site/5?size=3`)}">redirects to it</a></main>`,
      },
    });
    try {
      server.resetTraffic();
      const progress: Array<{ failed: number; skipped: number }> = [];
      const allowUrl = (url: string): string | undefined =>
        new URL(url).hostname === 'localhost' ? 'localhost is in policy.domains.deny' : undefined;
      const result = await crawl(http, store, [hub.urlFor('/hub')], {
        policy: { ...OPERATOR_POLICY, allowUrl },
        depth: 1,
        maxPages: 10,
        robots: 'off',
        sameSite: false,
        onProgress: (p) => progress.push({ failed: p.failed, skipped: p.skipped }),
      });
      expect(result.failed).toBe(0);
      expect(result.skipped).toBe(2);
      expect(result.done).toBe(2); // the hub and /site/1
      expect(progress.at(-1)).toEqual({ failed: 0, skipped: 2 });
      const skipped = readFileSync(join(result.bundle.dir, 'skipped.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { url: string; reason: string });
      expect(skipped.map((entry) => entry.url).sort()).toEqual(
        [
          `http://localhost:${port}/site/2?size=3`,
          hub.urlFor(`/redirect?to=${encodeURIComponent(`http://localhost:${port}/site/5?size=3`)}`),
        ].sort(),
      );
      for (const entry of skipped) expect(entry.reason).toMatch(/localhost is in policy\.domains\.deny/);
      expect(server.traffic().total).toBe(0);
    } finally {
      await hub.close();
    }
  });

  it('include/exclude globs and same-site keep the crawl where it was asked to go', async () => {
    server.resetTraffic();
    const result = await crawl(http, store, [server.urlFor('/site/0?size=40')], {
      policy: OPERATOR_POLICY,
      depth: 5,
      maxPages: 40,
      exclude: ['/site/2'],
    });
    expect(server.traffic().paths['/site/2']).toBeUndefined();
    expect(server.traffic().paths['/site/5']).toBeUndefined(); // only reachable through 2
    expect(result.done).toBeGreaterThan(5);
  });

  it('an agent crawl of a loopback site fails each page with policy_blocked and fetches nothing', async () => {
    server.resetTraffic();
    const result = await crawl(http, store, [server.urlFor('/site/0?size=5')], { policy: AGENT_POLICY });
    expect(result.done).toBe(0);
    expect(result.failed).toBe(1);
    expect(readFileSync(join(result.bundle.dir, 'errors.jsonl'), 'utf8')).toContain('policy_blocked');
    expect(server.traffic().total).toBe(0);
  });

  it('a host that does not answer is a failure with its reason, not a robots.txt disallow', async () => {
    // port 1 on loopback: nothing listens, the connection is refused
    const result = await crawl(http, store, ['http://127.0.0.1:1/'], { policy: OPERATOR_POLICY });
    expect(result).toMatchObject({ done: 0, failed: 1, skipped: 0 });
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ url: 'http://127.0.0.1:1/', code: 'network' });
    expect(result.errors[0]?.message).toMatch(/robots\.txt could not be read/);
    expect(result.errors[0]?.message).not.toMatch(/disallows/);
  });

  it('--timeout-ms bounds the whole crawl: pages read before the deadline are the result, the one in flight is cut', async () => {
    // the home page links a fast page and one that answers only after 10 s (a request is bounded at 15 s)
    const slow = await startSlowServer((url) => {
      if (url.pathname === '/robots.txt') return { status: 404, contentType: 'text/plain', body: '' };
      if (url.pathname === '/')
        return {
          body: `<html><head><title>Home</title></head><body><a href="/fast">fast</a> <a href="/stall">stall</a></body></html>`,
        };
      return { delayMs: url.pathname === '/stall' ? 10_000 : 0, body: articlePage(url.pathname.slice(1)) };
    });
    try {
      const started = Date.now();
      const result = await crawl(http, store, [`${slow.origin}/`], {
        policy: OPERATOR_POLICY,
        concurrency: 2,
        timeoutMs: 1_000,
      });
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(result).toMatchObject({ timedOut: true, done: 2, failed: 0, queued: 1 });
      expect(result.errors).toEqual([]);
      expect(result.warnings.join('\n')).toMatch(
        /--timeout-ms 1000 ended the crawl: the 2 pages read before it are in the bundle, 1 found were not fetched\. Raise --timeout-ms/,
      );
      const lines = readFileSync(join(result.bundle.dir, 'pages.jsonl'), 'utf8').trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(store.show(result.bundle.id).summary).toMatchObject({ timedOut: true });
    } finally {
      await slow.close();
    }
  });

  it('refuses a seed that is not http(s) instead of reporting 0 pages', async () => {
    await expect(crawl(http, store, ['file:///etc/passwd'], { policy: OPERATOR_POLICY })).rejects.toMatchObject({
      code: 'invalid_input',
    });
  });

  it('lists and cleans up bundles by expiry', () => {
    const ids = store.list().map((bundle) => bundle.id);
    expect(ids.length).toBeGreaterThan(3);
    expect(store.cleanup()).toEqual([]);
    expect(store.cleanup({ now: Date.now() + 73 * 3_600_000 }).sort()).toEqual([...ids].sort());
    expect(store.list()).toEqual([]);
  });
});
