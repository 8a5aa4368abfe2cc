#!/usr/bin/env node
// Crawl: pages/s of `crawl` over a generated local site of 500 pages (the fixture server's /site
// route: a binary tree of article pages), robots.txt checked, every page written to a bundle, with
// 1 request in flight per host (the baseline, measured in the same run) and with 4 and 8. Peak RSS
// is sampled while each crawl runs, for a 100-page and a 500-page crawl: a streamed bundle and a
// bounded frontier should keep it flat as the crawl grows.
// Then the worker-pool trial: the same 500 pages' HTML extracted (Readability on linkedom + turndown)
// on the main thread, and by a pool of worker_threads (structured-clone of the HTML in and the result
// out included); the ratio says whether moving parsing off the main thread pays on this machine.
// Usage: pnpm build && pnpm bench crawl [--rounds N] [--pages N] [--workers N]
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { ArtifactStore, HttpClient, OPERATOR_POLICY, crawl, extractContent } from '@argus/providers';

if (!isMainThread) {
  parentPort.on('message', ({ id, html, url }) => {
    const page = extractContent(html, url);
    parentPort.postMessage({ id, size: page.markdown.length + page.text.length + page.links.length });
  });
} else {
  await main();
}

async function main() {
  const { benchOptions } = await import('./lib-args.mjs');
  const { startFixtureServer } = await import('@argus/test-kit');
  const {
    rounds: ROUNDS,
    pages: PAGES,
    workers: WORKERS,
  } = benchOptions({
    rounds: 2,
    pages: 500,
    workers: Math.max(2, availableParallelism()),
  });
  const server = await startFixtureServer();
  const root = mkdtempSync(join(tmpdir(), 'argus-crawl-bench-'));
  const store = new ArtifactStore(join(root, 'artifacts'));
  const http = new HttpClient();
  const seed = server.urlFor(`/site/0?size=${PAGES}`);

  async function timedCrawl(concurrency, maxPages) {
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const started = performance.now();
    const result = await crawl(http, store, [seed], { policy: OPERATOR_POLICY, depth: 30, maxPages, concurrency });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    store.cleanup({ all: true });
    if (result.done !== maxPages)
      throw new Error(`crawl fetched ${result.done} of ${maxPages} pages (${result.failed} failed)`);
    return { pagesPerSecond: result.done / seconds, peakRss: peak };
  }

  await timedCrawl(4, Math.min(100, PAGES)); // warm-up: JIT, connection pool
  const series = { c1: [], c4: [], c8: [] };
  const rss = { small: 0, large: 0 };
  for (let round = 0; round < ROUNDS; round += 1) {
    series.c1.push((await timedCrawl(1, PAGES)).pagesPerSecond);
    series.c4.push((await timedCrawl(4, PAGES)).pagesPerSecond);
    series.c8.push((await timedCrawl(8, PAGES)).pagesPerSecond);
    global.gc?.();
    rss.small = Math.max(rss.small, (await timedCrawl(4, Math.min(100, PAGES))).peakRss);
    rss.large = Math.max(rss.large, (await timedCrawl(4, PAGES)).peakRss);
  }

  // the worker-pool trial, on the crawl's own pages
  const urls = Array.from({ length: PAGES }, (_, n) => server.urlFor(`/site/${n}?size=${PAGES}`));
  const pages = [];
  for (const url of urls) pages.push({ url, html: (await http.get(url, { policy: OPERATOR_POLICY })).body });
  const mainThread = () => {
    const started = performance.now();
    for (const page of pages) extractContent(page.html, page.url);
    return pages.length / ((performance.now() - started) / 1000);
  };
  const workers = Array.from({ length: WORKERS }, () => new Worker(new URL(import.meta.url)));
  const pool = async () => {
    const started = performance.now();
    let next = 0;
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise((resolve) => {
            const send = () => {
              if (next >= pages.length) return resolve();
              const id = next++;
              worker.postMessage({ id, ...pages[id] });
            };
            worker.on('message', send);
            send();
          }),
      ),
    );
    for (const worker of workers) worker.removeAllListeners('message');
    return pages.length / ((performance.now() - started) / 1000);
  };
  mainThread();
  await pool(); // warm-up both
  const parse = { main: [], pool: [] };
  for (let round = 0; round < ROUNDS; round += 1) {
    parse.main.push(mainThread());
    parse.pool.push(await pool());
  }
  await Promise.all(workers.map((worker) => worker.terminate()));

  const best = (values) => Math.max(...values);
  const fmt = (value) => `${value.toFixed(1)} pages/s`;
  const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
  console.log(
    `crawl bench: generated site of ${PAGES} pages, ${ROUNDS} rounds (best round shown), ${availableParallelism()} cores`,
  );
  console.log(`  baseline  crawl, 1 in flight per host   ${fmt(best(series.c1))}`);
  console.log(
    `  crawl, 4 in flight per host             ${fmt(best(series.c4))}  ratio ${(best(series.c4) / best(series.c1)).toFixed(2)}x`,
  );
  console.log(
    `  crawl, 8 in flight per host             ${fmt(best(series.c8))}  ratio ${(best(series.c8) / best(series.c1)).toFixed(2)}x`,
  );
  console.log(
    `  peak RSS: ${mib(rss.small)} crawling ${Math.min(100, PAGES)} pages, ${mib(rss.large)} crawling ${PAGES}`,
  );
  console.log(`  parse (extract ${PAGES} pages) main thread ${fmt(best(parse.main))}`);
  console.log(
    `  parse, pool of ${WORKERS} worker_threads      ${fmt(best(parse.pool))}  ratio ${(best(parse.pool) / best(parse.main)).toFixed(2)}x`,
  );
  await http.close();
  await server.close();
  rmSync(root, { recursive: true, force: true });
}
