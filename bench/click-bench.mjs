#!/usr/bin/env node
// Click latency end to end through the typed client (http and ws transports): click by ref on a
// button that causes no navigation, with the baselines measured in the same run: a raw CDP
// `Runtime.evaluate 1` round trip on the daemon's own connection and a typed-client `page.url`.
//   pnpm --filter @argus/cdp build && pnpm --filter @argus/snapshot build && pnpm --filter @argus/daemon build
//   node bench/click-bench.mjs [--runs N] [--profile]
// --profile also prints, per CDP method, how many calls one engine-level click makes and how long they take.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDaemon } from '@argus/daemon';
import { createArgusClient } from '@argus/client';
import { click } from '@argus/snapshot';
import { startFixtureServer } from '@argus/test-kit';
import { benchOptions } from './lib-args.mjs';
import { median, percentile } from './lib-stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
// `ws` is a dependency of the client package, not of the bench
const WebSocket = createRequire(join(here, '../packages/client/package.json'))('ws');
const { runs: RUNS, profile: PROFILE } = benchOptions({ runs: 50, profile: false });
const WARMUP = 5;

const time = async (fn) => {
  const start = performance.now();
  await fn();
  return performance.now() - start;
};
const stats = (samples) => ({ median: median(samples), p90: percentile(samples, 90) });
const fmt = (value) => value.toFixed(2).padStart(7);

const workspace = mkdtempSync(join(tmpdir(), 'argus-bench-click-'));
const server = await startFixtureServer();
const daemon = await startDaemon({
  stateDir: join(workspace, '.argus'),
  workspace,
  env: { ...process.env, ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9' },
});
const url = `http://127.0.0.1:${daemon.port}`;
const http = createArgusClient({ url, token: daemon.token, transport: 'http' });
const ws = createArgusClient({ url, token: daemon.token, transport: 'ws', WebSocket });
const rows = [];
let expected = 0;
try {
  await http.client.page.goto.mutate({ url: server.urlFor('/buttons.html') });
  const snap = await http.client.snapshot.take.mutate({ interactive: true });
  const match = /"Increment" (e\d+)/.exec(snap.text);
  if (!match) throw new Error(`no "Increment" ref in:\n${snap.text}`);
  const ref = match[1];
  const page = await daemon.services.manager.page();

  const measure = async (name, fn) => {
    for (let i = 0; i < WARMUP; i++) await fn();
    const samples = [];
    for (let i = 0; i < RUNS; i++) samples.push(await time(fn));
    rows.push({ name, ...stats(samples) });
  };
  // interleaving would mix warm-up effects; each series runs on its own, baselines first
  await measure('raw CDP Runtime.evaluate 1', () =>
    page.session.send('Runtime.evaluate', { expression: '1', returnByValue: true }),
  );
  await measure('typed client page.url (http)', () => http.client.page.url.query({}));
  await measure('typed client page.url (ws)', () => ws.client.page.url.query({}));
  for (const [transport, handle] of [
    ['http', http],
    ['ws', ws],
  ]) {
    await measure(`click by ref (${transport})`, async () => {
      const result = await handle.client.input.click.mutate({ target: ref });
      if (result.navigated) throw new Error('the click navigated');
      expected++;
    });
  }
  const count = (await http.client.read.text.query({ target: '#count' })).text.trim();
  if (count !== `Count: ${expected}`) throw new Error(`the counter says "${count}" after ${expected} clicks`);

  if (PROFILE) {
    // engine-level clicks (what the handler runs inside page.act), with the CDP calls of the last one
    const engine = daemon.services.manager.engine(page);
    const calls = [];
    const sessions = new Set([page.session, ...page.frames.all().map((frame) => frame.session)]);
    const originals = new Map();
    for (const session of sessions) {
      originals.set(session, session.send);
      session.send = function (method, params) {
        const start = performance.now();
        return originals
          .get(session)
          .call(this, method, params)
          .finally(() => calls.push({ method, ms: performance.now() - start, start }));
      };
    }
    const phases = { act: [], engine: [] };
    try {
      for (let i = 0; i < RUNS; i++) {
        calls.length = 0;
        let engineMs = 0;
        const total = await time(() => page.act(async () => (engineMs = await time(() => click(engine, ref)))));
        phases.act.push(total);
        phases.engine.push(engineMs);
      }
      expected += RUNS;
      const lastClick = [...calls].sort((a, b) => a.start - b.start);
      for (const [session, send] of originals) session.send = send;
      // the same click through the typed client (ws), with the time spent inside the tab's handler
      const manager = daemon.services.manager;
      const onTab = manager.onTab;
      const inHandler = [];
      const endToEnd = [];
      manager.onTab = async function (tab, task) {
        const start = performance.now();
        try {
          return await onTab.call(this, tab, task);
        } finally {
          inHandler.push(performance.now() - start);
        }
      };
      try {
        for (let i = 0; i < RUNS; i++) endToEnd.push(await time(() => ws.client.input.click.mutate({ target: ref })));
        expected += RUNS;
      } finally {
        manager.onTab = onTab;
      }
      console.log(
        `profile, medians of ${RUNS}: engine click ${fmt(median(phases.engine))} ms | + page.act (navigation check) ${fmt(median(phases.act))} ms | ` +
          `daemon handler (onTab) ${fmt(median(inHandler))} ms | end to end (ws) ${fmt(median(endToEnd))} ms`,
      );
      console.log('  CDP calls of the last engine click, in order (start offset, duration; concurrent calls overlap):');
      const first = lastClick[0]?.start ?? 0;
      for (const call of lastClick) console.log(`    +${fmt(call.start - first)}  ${fmt(call.ms)}  ${call.method}`);
    } finally {
      for (const [session, send] of originals) session.send = send;
    }
  }
} finally {
  http.close();
  ws.close();
  await daemon.stop('bench done');
  await server.close();
  rmSync(workspace, { recursive: true, force: true });
}

console.log(
  `click bench: ${RUNS} clicks per transport after ${WARMUP} warm-up, button "Increment" on buttons.html (no navigation)`,
);
console.log(`${'series'.padEnd(32)}${'median'.padStart(9)}${'p90'.padStart(9)}`);
for (const row of rows) console.log(`${row.name.padEnd(32)}${fmt(row.median)} ms${fmt(row.p90)} ms`);
const get = (name) => rows.find((row) => row.name === name);
const cdp = get('raw CDP Runtime.evaluate 1');
for (const transport of ['http', 'ws']) {
  const clickRow = get(`click by ref (${transport})`);
  const urlRow = get(`typed client page.url (${transport})`);
  console.log(
    `${transport}: click median ${clickRow.median.toFixed(2)} ms (target <= 25) = ${(clickRow.median / cdp.median).toFixed(1)}x raw CDP evaluate, ` +
      `${(clickRow.median / urlRow.median).toFixed(1)}x page.url; click minus page.url ${(clickRow.median - urlRow.median).toFixed(2)} ms`,
  );
}
