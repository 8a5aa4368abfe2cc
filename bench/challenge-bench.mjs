#!/usr/bin/env node
// What challenge detection costs after a navigation: the one evaluate of DETECT_CHALLENGE on each
// real saved page, against the baseline measured on the same page in the same run (a raw CDP
// `Runtime.evaluate 1` round trip), and the navigation itself. Also prints what it found (the real
// pages should give none).
//   pnpm --filter @argus/snapshot build && node bench/challenge-bench.mjs [--runs N] [--only a,b]
import { DETECT_CHALLENGE, pageExpression } from '@argus/snapshot';
import { benchOptions } from './lib-args.mjs';
import { realPages, servePages, visitPages } from './lib-pages.mjs';
import { median } from './lib-stats.mjs';

const { runs: RUNS, only: ONLY } = benchOptions({ runs: 20, only: '' });
const detect = pageExpression(DETECT_CHALLENGE, 'undefined', [200]);

const time = async (fn) => {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
};

const rows = [];
const { server } = await servePages();
await visitPages(realPages(ONLY), server, async (page, name) => {
  const raw = [];
  const detection = [];
  let found = null;
  // alternate the two so load on the machine hits both alike
  for (let i = 0; i < RUNS; i++) {
    raw.push((await time(() => page.session.send('Runtime.evaluate', { expression: '1', returnByValue: true }))).ms);
    const run = await time(() => page.evaluate(detect));
    detection.push(run.ms);
    found = run.value;
  }
  rows.push({ name, raw: median(raw), detect: median(detection), found });
});

console.log(`challenge detection on ${rows.length} real pages, median of ${RUNS} runs each`);
console.log('page                 raw eval ms  detect ms  ratio  found');
for (const row of rows)
  console.log(
    `${row.name.padEnd(20)} ${row.raw.toFixed(2).padStart(11)} ${row.detect.toFixed(2).padStart(10)} ${(row.detect / row.raw).toFixed(2).padStart(6)}  ${row.found ? `${row.found.kind} (${row.found.signal})` : 'none'}`,
  );
const ratios = rows.map((row) => row.detect / row.raw);
console.log(
  `median ratio detect / raw evaluate: ${median(ratios).toFixed(2)}; median detect ${median(rows.map((row) => row.detect)).toFixed(2)} ms; flagged ${rows.filter((row) => row.found).length} of ${rows.length}`,
);
