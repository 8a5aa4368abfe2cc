import pLimit, { type LimitFunction } from 'p-limit';
import picomatch from 'picomatch';
import { maskUrl } from '@argus/security';
import type { NetworkPolicy } from './address-guard.js';
import { type ArtifactManifest, type ArtifactStore } from './artifacts.js';
import { canonicalUrl, siteOf } from './canonical-url.js';
import { PageFetcher, hostKey } from './fetch-page.js';
import type { HttpClient } from './http-client.js';
import { providerError } from './provider-error.js';
import { Resilience } from './resilience.js';
import { RobotsCache } from './robots.js';
import { readSitemap } from './sitemap.js';

export interface CrawlOptions {
  policy: NetworkPolicy;
  depth?: number;
  maxPages?: number;
  sameSite?: boolean;
  /** Globs on the URL path (`/docs/**`): only matching pages are fetched (seeds always are). */
  include?: readonly string[];
  exclude?: readonly string[];
  robots?: 'strict' | 'warn' | 'off';
  sitemap?: boolean;
  /** Requests in flight per host. */
  concurrency?: number;
  /** Pause after each request to a host, within its slot (robots' Crawl-delay wins when longer, up to 10 s). */
  delayMs?: number;
  dfs?: boolean;
  maxBytes?: number;
  /**
   * Bounds the whole crawl (robots.txt, sitemaps, every page, retries and delays): at the deadline
   * the requests in flight are ended and nothing more is asked; the pages read before it are the result.
   */
  timeoutMs?: number;
  signal?: AbortSignal;
  onProgress?: (progress: CrawlProgress) => void;
}

export interface CrawlProgress {
  done: number;
  queued: number;
  failed: number;
  skipped: number;
  pagesPerSecond: number;
}

export interface CrawlResult extends CrawlProgress {
  bundle: ArtifactManifest & { dir: string };
  warnings: string[];
  /** The first failures (all are in errors.jsonl), so a crawl that read nothing says why. */
  errors: CrawlError[];
  /** The timeoutMs deadline ended the crawl: `done` pages were read before it, `queued` were not. */
  timedOut: boolean;
}

export interface CrawlError {
  url: string;
  code: string;
  message: string;
}

/** How many failures the result carries itself. */
const ERRORS_SHOWN = 5;

interface Entry {
  url: string;
  depth: number;
}

/**
 * Breadth-first (or depth-first) over canonical URLs, deduplicated, bounded (the frontier never
 * holds more than `maxPages` URLs seen), polite (per-host limit and delay, robots.txt strict by
 * default), every page written to the bundle as it arrives (markdown file + one JSON line).
 */
export async function crawl(
  http: HttpClient,
  store: ArtifactStore,
  seeds: readonly string[],
  options: CrawlOptions,
): Promise<CrawlResult> {
  const depthLimit = options.depth ?? 2;
  const maxPages = options.maxPages ?? 50;
  const robotsMode = options.robots ?? 'strict';
  const concurrency = options.concurrency ?? 2;
  // the crawl holds its own per-host slots so the politeness delay is spent inside the slot
  const hostLimits = new Map<string, LimitFunction>();
  const hostLimit = (url: string): LimitFunction => {
    const key = hostKey(url);
    let limit = hostLimits.get(key);
    if (!limit) hostLimits.set(key, (limit = pLimit(concurrency)));
    return limit;
  };
  // the deadline, and the signal every request of the crawl watches (the caller's abort or the deadline)
  const deadline = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
  const signals = [options.signal, deadline].filter((entry): entry is AbortSignal => entry !== undefined);
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  /** The deadline (not the caller) ended the crawl. */
  const cutByDeadline = (): boolean => deadline?.aborted === true && options.signal?.aborted !== true;
  const fetcher = new PageFetcher(
    http,
    new Resilience({ perHostConcurrency: 64, globalConcurrency: 64, retries: 1 }),
    undefined,
  );
  const robots = new RobotsCache(http, options.policy, signal);
  const include = options.include?.length ? picomatch([...options.include]) : undefined;
  const exclude = options.exclude?.length ? picomatch([...options.exclude]) : undefined;
  const bundle = store.create('crawl');
  const warnings: string[] = [];
  const started = performance.now();

  // a seed that is not http(s) (file:, data:) is refused, not silently dropped into "0 pages"
  for (const seed of seeds)
    if (canonicalUrl(seed) === null)
      throw providerError('invalid_input', `${maskUrl(seed)} is not an http(s) URL: crawl reads http(s) pages only.`, {
        retryable: false,
        details: { url: maskUrl(seed) },
      });
  const seedUrls = seeds.map((seed) => canonicalUrl(seed)).filter((url): url is string => url !== null);
  const sites = new Set(seedUrls.map(siteOf));
  const seen = new Set<string>();
  const frontier: Entry[] = [];
  let done = 0;
  let failed = 0;
  let skipped = 0;
  /** Pages in flight when the deadline came: not read, so still queued. */
  let cut = 0;
  const errors: CrawlError[] = [];
  const skip = (url: string, reason: string): void => {
    skipped += 1;
    bundle.append('skipped.jsonl', { url, reason });
  };
  // links the operator's domain policy refuses are skipped (once each), not failed: the crawl
  // never asks for them, and they do not use up --max-pages
  const denied = new Set<string>();
  const enqueue = (url: string, depth: number, seed = false): void => {
    if (seen.has(url) || denied.has(url) || seen.size >= maxPages) return;
    if (!seed) {
      if ((options.sameSite ?? true) && !sites.has(siteOf(url))) return;
      const path = new URL(url).pathname;
      if (include && !include(path)) return;
      if (exclude?.(path)) return;
      const refusal = options.policy.allowUrl?.(url);
      if (refusal !== undefined) {
        denied.add(url);
        skip(url, `the operator's policy refuses it: ${refusal}`);
        return;
      }
    }
    seen.add(url);
    frontier.push({ url, depth });
  };
  for (const url of seedUrls) enqueue(url, 0, true);
  if (options.sitemap) {
    for (const seed of seedUrls) {
      const rules = robotsMode === 'off' ? undefined : await robots.rules(seed);
      const maps = rules?.sitemaps.length ? rules.sitemaps : [new URL('/sitemap.xml', seed).href];
      for (const map of maps) {
        if (signal?.aborted) break;
        const urls = await readSitemap(http, map, options.policy, maxPages, 0, signal).catch(() => []);
        for (const url of urls) {
          const canonical = canonicalUrl(url);
          if (canonical) enqueue(canonical, 1);
        }
      }
    }
  }

  const progress = (): CrawlProgress => ({
    done,
    queued: frontier.length + cut,
    failed,
    skipped,
    pagesPerSecond: Math.round((done / Math.max(0.001, (performance.now() - started) / 1000)) * 10) / 10,
  });

  const visit = async (entry: Entry): Promise<void> => {
    try {
      await visitOne(entry);
    } catch (error) {
      // a page the deadline ended is not a failure of its host: it was not read, as those still queued
      if (cutByDeadline()) {
        cut += 1;
        options.onProgress?.(progress());
        return;
      }
      const code = (error as { code?: unknown }).code;
      // a link that redirects to a refused host is a link to it: skipped (a seed the caller named fails)
      if (code === 'policy_denied' && entry.depth > 0) {
        skip(entry.url, (error as Error).message);
        options.onProgress?.(progress());
        return;
      }
      failed += 1;
      const record = {
        url: maskUrl(entry.url),
        code: typeof code === 'string' ? code : 'internal',
        message: (error as Error).message,
      };
      bundle.append('errors.jsonl', record);
      if (errors.length < ERRORS_SHOWN) errors.push(record);
    }
    options.onProgress?.(progress());
  };

  const visitOne = async ({ url, depth }: Entry): Promise<void> => {
    if (robotsMode !== 'off') {
      const rules = await robots.rules(url);
      // robots.txt that could not be read is the host's failure, not a disallow: said as such
      if (rules.unreadable && robotsMode === 'strict')
        throw providerError(
          rules.unreadable.code === 'timeout' || rules.unreadable.code === 'upstream'
            ? rules.unreadable.code
            : 'network',
          `${maskUrl(url)} not crawled: its robots.txt could not be read (${rules.unreadable.message}), and a strict crawl reads no page of a site without it. Check the host, or pass --robots warn.`,
          { details: { url: maskUrl(url) } },
        );
      if (!rules.allowed(url)) {
        if (robotsMode === 'strict') {
          skip(url, 'robots.txt disallows it');
          return;
        }
        warnings.push(`robots.txt disallows ${url} (fetched anyway: --robots warn)`);
      }
    }
    const delayMs = await politeDelay(robots, url, options.delayMs ?? 0, robotsMode);
    signal?.throwIfAborted();
    const page = await hostLimit(url)(async () => {
      const fetched = await fetcher.fetch(url, {
        policy: options.policy,
        tier: 'http',
        ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
        ...(signal === undefined ? {} : { signal }),
      });
      if (delayMs > 0) await sleep(delayMs, signal);
      return fetched;
    });
    done += 1;
    const file = `pages/${String(done).padStart(4, '0')}.md`;
    bundle.write(file, `# ${page.title ?? url}\n\n<${page.finalUrl}>\n\n${page.markdown}\n`);
    const { markdown: _markdown, text: _text, html: _html, ...meta } = page;
    bundle.append('pages.jsonl', { ...meta, depth, file });
    if (depth < depthLimit)
      for (const link of page.links) {
        const canonical = canonicalUrl(link);
        if (canonical) enqueue(canonical, depth + 1);
      }
  };

  // workers pull from the frontier; the per-host limit is hostLimit's, so the worker count is
  // only an upper bound on the whole crawl's width
  const width = Math.max(concurrency, Math.min(16, concurrency * sites.size));
  let active = 0;
  await new Promise<void>((resolve) => {
    const pump = (): void => {
      if (options.signal?.aborted) frontier.length = 0;
      // past the deadline nothing more is asked: what is left stays queued
      while (active < width && frontier.length > 0 && !deadline?.aborted) {
        const next = options.dfs ? frontier.pop() : frontier.shift();
        if (!next) break;
        active += 1;
        void visit(next).finally(() => {
          active -= 1;
          pump();
        });
      }
      if (active === 0 && (frontier.length === 0 || deadline?.aborted)) resolve();
    };
    pump();
  });

  const timedOut = cutByDeadline();
  if (timedOut)
    warnings.push(
      `--timeout-ms ${options.timeoutMs} ended the crawl: the ${done} pages read before it are in the bundle, ${frontier.length + cut} found were not fetched. Raise --timeout-ms (or lower --max-pages or --depth) to read them.`,
    );
  const summary = {
    seeds: seedUrls,
    ...progress(),
    warnings: warnings.length,
    robots: robotsMode,
    depth: depthLimit,
    maxPages,
    timedOut,
  };
  const manifest = bundle.finish(summary);
  return { ...progress(), warnings, errors, timedOut, bundle: { ...manifest, dir: bundle.dir } };
}

async function politeDelay(robots: RobotsCache, url: string, delayMs: number, mode: string): Promise<number> {
  if (mode === 'off') return delayMs;
  const crawlDelay = (await robots.rules(url)).crawlDelay;
  return Math.min(10_000, Math.max(delayMs, (crawlDelay ?? 0) * 1000));
}

/** Resolves after `ms`, or at once when `signal` aborts (the deadline ends a politeness pause too). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
