#!/usr/bin/env node
// Providers: pages/s of `fetch` (HTTP tier: guarded GET + Readability on linkedom + turndown) on the
// 24 real saved pages served locally, against a baseline measured in the same run: the plain
// recipe, an HTTP GET + Readability on jsdom, in one thread, one page at a time. Both read the same
// bytes from the same fixture server; the ratio is what the package's choices buy (or cost). The
// baseline reads with node:http on a fresh connection each time: a slow jsdom parse outlives the
// server's keep-alive and a reused socket would be reset under it.
// Usage: pnpm build && pnpm bench providers [--rounds N] [--concurrency N]
import { get } from 'node:http';
import { Readability } from '@mozilla/readability';
import { HttpClient, OPERATOR_POLICY, PageFetcher, Resilience } from '@argus/providers';
import { JSDOM, VirtualConsole } from 'jsdom';
import { benchOptions } from './lib-args.mjs';
import { realPages, servePages } from './lib-pages.mjs';

const { rounds: ROUNDS, concurrency: CONCURRENCY } = benchOptions({ rounds: 3, concurrency: 4 });
const pages = realPages();
const { server } = await servePages();
const urls = pages.map((page) => server.urlFor(page.path));

function readText(url) {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    }).on('error', reject);
  });
}

async function baseline(url) {
  const html = await readText(url);
  const dom = new JSDOM(html, { url, virtualConsole: new VirtualConsole() });
  const article = new Readability(dom.window.document).parse();
  dom.window.close();
  return article?.textContent?.length ?? 0;
}

const http = new HttpClient();
const fetcher = new PageFetcher(
  http,
  new Resilience({ perHostConcurrency: CONCURRENCY, globalConcurrency: CONCURRENCY }),
  undefined,
);
async function ours(url) {
  const page = await fetcher.fetch(url, { policy: OPERATOR_POLICY, tier: 'http' });
  return page.text.length;
}

async function sequential(run) {
  const start = performance.now();
  for (const url of urls) await run(url);
  return urls.length / ((performance.now() - start) / 1000);
}

async function parallel(run, width) {
  const start = performance.now();
  const queue = [...urls];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let url = queue.shift(); url !== undefined; url = queue.shift()) await run(url);
    }),
  );
  return urls.length / ((performance.now() - start) / 1000);
}

// one warm-up pass each (JIT, connection pools), then alternate so load on the machine hits both
await sequential(baseline);
await sequential(ours);
const results = { baseline: [], ours: [], oursParallel: [] };
let peakRss = 0;
for (let round = 0; round < ROUNDS; round += 1) {
  results.baseline.push(await sequential(baseline));
  results.ours.push(await sequential(ours));
  results.oursParallel.push(await parallel(ours, CONCURRENCY));
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}
const best = (values) => Math.max(...values);
const fmt = (value) => `${value.toFixed(1)} pages/s`;
console.log(`providers bench: ${urls.length} real pages, ${ROUNDS} rounds (best round shown)`);
console.log(`  baseline  GET + Readability on jsdom, sequential     ${fmt(best(results.baseline))}`);
console.log(
  `  providers fetch (HTTP tier), sequential              ${fmt(best(results.ours))}  ratio ${(best(results.ours) / best(results.baseline)).toFixed(2)}x`,
);
console.log(
  `  providers fetch (HTTP tier), ${CONCURRENCY} in flight (one thread) ${fmt(best(results.oursParallel))}  ratio ${(best(results.oursParallel) / best(results.baseline)).toFixed(2)}x`,
);
console.log(`  peak RSS ${(peakRss / 1024 / 1024).toFixed(0)} MiB`);
await http.close();
await server.close();
