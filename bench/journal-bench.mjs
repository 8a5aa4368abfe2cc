#!/usr/bin/env node
// What the command journal costs, against a click round trip measured in the same run.
//   pnpm build && node bench/journal-bench.mjs [--runs N] [--rows N]
// 1. click by ref through the typed client (http), journal on: the baseline round trip.
// 2. the journal's work for one command, by its parts, on the same daemon and file: the observe hook
//    before the call, the settle hook after it (tab/URL lookups, redaction, queueing) and the batched
//    write, amortized (its transaction time divided by the rows it wrote). The ratio is 2 / 1.
// 3. `--rows` commands (default 100,000) through the same hooks and batched writes, with heap and
//    RSS after a forced GC before and after: the queue drains, nothing is kept per command.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startDaemon } from '@argus/daemon';
import { createArgusClient } from '@argus/client';
import { commandByName } from '@argus/protocol';
import { startFixtureServer } from '@argus/test-kit';
import { benchOptions } from './lib-args.mjs';
import { median, percentile } from './lib-stats.mjs';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const { runs: RUNS, rows: ROWS } = benchOptions({ runs: 200, rows: 100_000 });
const WARMUP = 10;
const fmt = (value, digits = 3) => value.toFixed(digits);
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const workspace = mkdtempSync(join(tmpdir(), 'argus-bench-journal-'));
const server = await startFixtureServer();
const daemon = await startDaemon({
  stateDir: join(workspace, '.argus'),
  workspace,
  env: { ...process.env, ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9' },
});
const { journal } = daemon.services;
const http = createArgusClient({ url: `http://127.0.0.1:${daemon.port}`, token: daemon.token, transport: 'http' });
try {
  await journal.ready();
  await http.client.page.goto.mutate({ url: server.urlFor('/buttons.html') });
  const snap = await http.client.snapshot.take.mutate({ interactive: true });
  const ref = /"Increment" (e\d+)/.exec(snap.text)?.[1];
  if (!ref) throw new Error(`no "Increment" ref in:\n${snap.text}`);

  // 1. the baseline: a click round trip (journal on, as users run it)
  const clicks = [];
  let output;
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const start = performance.now();
    output = await http.client.input.click.mutate({ target: ref });
    if (i >= WARMUP) clicks.push(performance.now() - start);
  }

  // 2. the journal's share of one such command: the same hooks the router calls, with a click's
  // input and output, then the batched write of what they queued
  const command = commandByName('input.click');
  const ctx = { scopes: ['admin'], client: 'bench' };
  const input = { target: ref, button: 'left', double: false, diff: false, timeoutMs: 5_000 };
  journal.flush();
  const hooks = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const start = performance.now();
    const done = journal.observe(ctx, command, input);
    done?.(undefined, output);
    if (i >= WARMUP) hooks.push(performance.now() - start);
  }
  const queued = journal.state().queued;
  const writeStart = performance.now();
  journal.flush();
  const writeMs = performance.now() - writeStart;
  const perRowWrite = writeMs / queued;
  const clickMedian = median(clicks);
  const journalCost = median(hooks) + perRowWrite;
  console.log(
    `click by ref round trip (http), median of ${RUNS}: ${fmt(clickMedian, 2)} ms (p90 ${fmt(percentile(clicks, 90), 2)})`,
  );
  console.log(
    `journal per command: hooks ${fmt(median(hooks))} ms (p90 ${fmt(percentile(hooks, 90))}) + write ${fmt(perRowWrite)} ms ` +
      `(one transaction of ${queued} rows in ${fmt(writeMs, 2)} ms) = ${fmt(journalCost)} ms`,
  );
  console.log(`ratio journal / click: ${((journalCost / clickMedian) * 100).toFixed(2)}% (goal < 2%)`);

  // 3. many commands: memory before and after, after a forced GC
  gc();
  const before = process.memoryUsage();
  const start = performance.now();
  let half;
  for (let i = 0; i < ROWS; i++) {
    const done = journal.observe(ctx, command, { ...input, target: `e${i % 500}` });
    done?.(undefined, output);
    if (i === ROWS / 2) {
      // the first half warms SQLite's page cache and the allocator; the second half must not add
      journal.flush();
      gc();
      half = process.memoryUsage();
    }
  }
  journal.flush();
  const elapsed = performance.now() - start;
  gc();
  const after = process.memoryUsage();
  const state = journal.state();
  console.log(
    `${ROWS.toLocaleString('en')} commands journaled in ${fmt(elapsed / 1000, 2)} s (${fmt((elapsed * 1000) / ROWS, 1)} µs each), ` +
      `written ${state.written.toLocaleString('en')}, dropped ${state.dropped}, queued ${state.queued}; file ${mb(statSync(journal.path).size)}`,
  );
  console.log(
    `heap ${mb(before.heapUsed)} -> ${mb(after.heapUsed)} (${after.heapUsed >= before.heapUsed ? '+' : ''}${mb(after.heapUsed - before.heapUsed)}), ` +
      `RSS ${mb(before.rss)} -> ${mb(after.rss)} (${after.rss >= before.rss ? '+' : ''}${mb(after.rss - before.rss)})`,
  );
  if (half)
    console.log(
      `second half alone: heap ${mb(half.heapUsed)} -> ${mb(after.heapUsed)}, RSS ${mb(half.rss)} -> ${mb(after.rss)} ` +
        `(${after.rss >= half.rss ? '+' : ''}${mb(after.rss - half.rss)})`,
    );
} finally {
  http.close();
  await daemon.stop('bench done');
  await server.close();
  rmSync(workspace, { recursive: true, force: true });
}
