#!/usr/bin/env node
// Soak (issue 21): N clients each run M commands (navigate, snapshot, click, fill, evaluate,
// screenshot; the mix in @argus/test-kit's runSoak) on a tab of their own, against a real daemon
// process with headless Chromium, all at once. Checks by effect that no command was lost or run
// twice (the page's own counters per client, and the journal's rows per client and command), and
// that the daemon left no Chromium and no temp profile behind. Prints commands/s, latency p50/p99
// (overall and per kind) and the daemon's RSS at start, every --every commands and at the end.
// The same drive runs in CI as apps/daemon/test/soak.test.ts (4 x 50, no timings asserted).
// Usage: pnpm build && pnpm bench soak [--clients 4] [--commands 2500] [--every 1000]
import { createArgusClient } from '@argus/client';
import { SOAK_PAGE, runSoak, soakMismatches, startFixtureServer } from '@argus/test-kit';
import { benchOptions } from './lib-args.mjs';
import { startDaemonProcess } from './lib-daemon.mjs';
import { ms, percentile } from './lib-stats.mjs';

const options = benchOptions({ clients: 4, commands: 2500, every: 1000 });
const CLIENTS = Number(options.clients);
const COMMANDS = Number(options.commands);
const EVERY = Number(options.every);

const server = await startFixtureServer({ pages: { '/soak/': SOAK_PAGE } });
const daemon = await startDaemonProcess({ prefix: 'argus-soak-' });
// half the clients one request per call, half batched: both HTTP paths of the router under load
const handles = Array.from({ length: CLIENTS }, (_, c) => ({
  name: `soak-${c}`,
  ...createArgusClient({
    url: daemon.url,
    token: daemon.token,
    name: `soak-${c}`,
    transport: c % 2 ? 'batch' : 'http',
  }),
}));
const admin = createArgusClient({ url: daemon.url, token: daemon.token, name: 'soak-admin' });

// the browser is launched before the clock starts: launch time is not soak time
await admin.client.tabs.list.query({});
const browserPid = (await admin.client.daemon.status.query({})).browser.pid;
const rss = [{ done: 0, mb: daemon.rssMb() }];
const latencies = [];
const byKind = new Map();
let done = 0;
const total = CLIENTS * COMMANDS;
const started = performance.now();
const results = await runSoak({
  clients: handles.map(({ name, client }) => ({ name, client })),
  pageUrl: new URL('/soak/', server.url).href,
  commands: COMMANDS,
  onCommand(ms, kind) {
    latencies.push(ms);
    if (!byKind.has(kind)) byKind.set(kind, []);
    byKind.get(kind).push(ms);
  },
  onDone() {
    done += 1;
    if (done % EVERY === 0) rss.push({ done, mb: daemon.rssMb() });
  },
});
const seconds = (performance.now() - started) / 1000;
if (rss.at(-1).done !== total) rss.push({ done: total, mb: daemon.rssMb() });

const journal = await admin.client.journal.export.mutate({ limit: 1_000_000 });
const mismatches = soakMismatches(results, journal.jsonl ?? '');
const failures = results.flatMap((result) => result.failures);

for (const handle of handles) handle.close();
admin.close();
const { leftTemp } = await daemon.stop();
await server.close();
const chromeAlive = browserPid !== null && browserPid !== undefined && alive(browserPid);

console.log(`soak: ${CLIENTS} clients x ${COMMANDS} commands (${total} total) in ${seconds.toFixed(1)} s`);
console.log(`throughput: ${(total / seconds).toFixed(1)} commands/s`);
console.log(`latency: p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}`);
for (const [kind, values] of byKind) {
  console.log(
    `  ${kind.padEnd(11)} n=${String(values.length).padStart(5)}  p50 ${ms(percentile(values, 50)).padStart(9)}  p99 ${ms(percentile(values, 99)).padStart(9)}`,
  );
}
console.log(`daemon RSS (MB): ${rss.map((row) => `${row.done}: ${row.mb.toFixed(1)}`).join(', ')}`);
console.log(`RSS end / start: ${(rss.at(-1).mb / rss[0].mb).toFixed(2)}x`);
console.log(`failed commands: ${failures.length}${failures.length ? `\n  ${failures.slice(0, 10).join('\n  ')}` : ''}`);
console.log(
  `lost or doubled (page counters + journal): ${mismatches.length ? `\n  ${mismatches.join('\n  ')}` : 'none'}`,
);
console.log(
  `left behind: Chromium ${chromeAlive ? `pid ${browserPid} ALIVE` : 'none'}, temp entries ${leftTemp.length ? leftTemp.join(', ') : 'none'}`,
);
process.exitCode = failures.length || mismatches.length || chromeAlive || leftTemp.length ? 1 : 0;

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
