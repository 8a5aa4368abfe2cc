#!/usr/bin/env node
// Action sweep: on every real saved page, hover every ref of the interactive snapshot (hover runs
// the same checks as a click: scroll into view, wait until visible and stable, hit-test the point)
// and count the outcomes per error code, with the hover time against a raw CDP Runtime.evaluate
// round trip measured in the same run. A hover changes nothing, so the page stays as it was and
// every ref is tried. `element_obscured` is a real overlap when the page's layout overlaps without
// its (blocked) external CSS; the samples printed show which.
// Usage: pnpm build && pnpm bench actions [--max-refs N] [--only name,name] [--samples N]
import { refsIn } from '@argus/protocol/snapshot-refs';
import { SnapshotEngine, hover } from '@argus/snapshot';
import { benchOptions } from './lib-args.mjs';
import { realPages as findRealPages, servePages, visitPages } from './lib-pages.mjs';
import { median } from './lib-stats.mjs';

const { 'max-refs': MAX_REFS, samples: SAMPLES, only: ONLY } = benchOptions({ 'max-refs': 80, samples: 3, only: '' });
const realPages = findRealPages(ONLY);
const { server } = await servePages();

const rows = [];
const samples = new Map();
const hoverTimes = [];
const evalTimes = [];
const chromePath = await visitPages(realPages, server, async (page, name) => {
  const engine = new SnapshotEngine(page);
  const refs = refsIn((await engine.snapshot({ interactive: true })).text).slice(0, MAX_REFS);
  const counts = {};
  for (const ref of refs) {
    let start = performance.now();
    await page.session.send('Runtime.evaluate', { expression: '1', returnByValue: true });
    evalTimes.push(performance.now() - start);
    start = performance.now();
    let code = 'ok';
    try {
      await hover(engine, ref, { timeoutMs: 2_000 });
    } catch (error) {
      code = error.code ?? 'thrown';
      const list = samples.get(code) ?? [];
      if (list.length < SAMPLES) list.push(`${name} ${ref}: ${error.message.slice(0, 150)}`);
      samples.set(code, list);
    }
    if (code === 'ok') hoverTimes.push(performance.now() - start);
    counts[code] = (counts[code] ?? 0) + 1;
  }
  rows.push({ name, refs: refs.length, counts });
});

const codes = [...new Set(rows.flatMap((row) => Object.keys(row.counts)))].sort((a, b) =>
  a === 'ok' ? -1 : b === 'ok' ? 1 : a.localeCompare(b),
);
const pad = (value, width) => String(value).padStart(width);
console.log(
  `action sweep: hover on up to ${MAX_REFS} refs of each of ${realPages.length} real pages, Chromium ${chromePath}`,
);
console.log(
  `${'page'.padEnd(18)}${pad('refs', 6)}${codes.map((code) => pad(code, Math.max(code.length + 2, 6))).join('')}`,
);
const totals = {};
for (const row of rows) {
  console.log(
    `${row.name.padEnd(18)}${pad(row.refs, 6)}${codes.map((code) => pad(row.counts[code] ?? 0, Math.max(code.length + 2, 6))).join('')}`,
  );
  for (const [code, count] of Object.entries(row.counts)) totals[code] = (totals[code] ?? 0) + count;
}
const tried = rows.reduce((sum, row) => sum + row.refs, 0);
console.log(
  `${'total'.padEnd(18)}${pad(tried, 6)}${codes.map((code) => pad(totals[code] ?? 0, Math.max(code.length + 2, 6))).join('')}`,
);
console.log(`ok: ${((100 * (totals.ok ?? 0)) / Math.max(tried, 1)).toFixed(1)}% of ${tried} refs`);
const hoverMedian = median(hoverTimes);
const evalMedian = median(evalTimes);
console.log(
  `hover median ${hoverMedian.toFixed(2)} ms vs raw CDP Runtime.evaluate ${evalMedian.toFixed(2)} ms in the same run: ${(hoverMedian / evalMedian).toFixed(1)}x`,
);
for (const [code, list] of samples) console.log(`${code} samples:\n  ${list.join('\n  ')}`);
