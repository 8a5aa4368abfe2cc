#!/usr/bin/env node
// A click on a hash-route link (a same-document navigation) against a click on a plain button of
// the same page, both through the typed client in the same run. Before same-document navigations
// ended the action, each hash-link click waited out the 30 s navigation timeout.
//   pnpm build && node bench/nav-click-bench.mjs [--runs N]
// Target: hash-link click median <= 1.2x the button click median.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon } from '@argus/daemon';
import { createArgusClient } from '@argus/client';
import { startFixtureServer } from '@argus/test-kit';
import { benchOptions } from './lib-args.mjs';
import { median, percentile } from './lib-stats.mjs';

const { runs: RUNS } = benchOptions({ runs: 40 });
const WARMUP = 5;

const time = async (fn) => {
  const start = performance.now();
  await fn();
  return performance.now() - start;
};
const fmt = (value) => value.toFixed(2).padStart(7);

const workspace = mkdtempSync(join(tmpdir(), 'argus-bench-nav-click-'));
const server = await startFixtureServer();
const daemon = await startDaemon({
  stateDir: join(workspace, '.argus'),
  workspace,
  env: { ...process.env, ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9' },
});
const { client, close } = createArgusClient({
  url: `http://127.0.0.1:${daemon.port}`,
  token: daemon.token,
  transport: 'http',
});
const rows = [];
try {
  await client.page.goto.mutate({ url: server.urlFor('/todo-hash.html') });
  const button = async () => {
    const result = await client.input.click.mutate({ target: '#refresh' });
    if (result.navigated) throw new Error('the button navigated');
  };
  // alternate between two routes so that every click really changes the hash
  let hashClicks = 0;
  const hash = async () => {
    const i = hashClicks++;
    const result = await client.input.click.mutate({ target: i % 2 ? '#all' : '#active' });
    if (!result.navigated || !result.url.includes(i % 2 ? '#/' : '#/active'))
      throw new Error(`the link did not route: ${JSON.stringify(result)}`);
  };
  for (let i = 0; i < WARMUP; i++) {
    await button();
    await hash();
  }
  // the two series interleave (and alternate which goes first), so that a slow spell of the machine
  // lands on both alike instead of on whichever series ran during it
  const samples = { button: [], hash: [] };
  for (let i = 0; i < RUNS; i++) {
    const order = i % 2 ? ['hash', 'button'] : ['button', 'hash'];
    for (const name of order) samples[name].push(await time(name === 'button' ? button : hash));
  }
  rows.push({ name: 'click plain button', median: median(samples.button), p90: percentile(samples.button, 90) });
  rows.push({ name: 'click hash-route link', median: median(samples.hash), p90: percentile(samples.hash, 90) });
  const route = (await client.read.text.query({ target: '#route' })).text;
  if (!/^route: \//.test(route)) throw new Error(`unexpected route after the run: ${route}`);
} finally {
  close();
  await daemon.stop('bench done');
  await server.close();
  rmSync(workspace, { recursive: true, force: true });
}

console.log(
  `nav-click bench: ${RUNS} clicks per series, interleaved, after ${WARMUP} warm-up, todo-hash.html, typed client over http`,
);
console.log(`${'series'.padEnd(28)}${'median'.padStart(9)}${'p90'.padStart(9)}`);
for (const row of rows) console.log(`${row.name.padEnd(28)}${fmt(row.median)} ms${fmt(row.p90)} ms`);
const [button, hash] = rows;
const ratio = hash.median / button.median;
console.log(`hash-route link click / plain button click = ${ratio.toFixed(2)}x (target <= 1.2x)`);
