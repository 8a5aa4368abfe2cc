#!/usr/bin/env node
// A click on a hash-route link (a same-document navigation) against a click on a plain button of
// the same page, through the typed client, and the same two clicks sent as raw CDP input to a
// Chromium of our own (the floor), all four series in turns in one run. Before same-document
// navigations ended the action, each hash-link click waited out the 30 s navigation timeout.
//   pnpm build && node bench/nav-click-bench.mjs [--runs N]
// Chrome itself spends longer on a link click than on a button click (the fragment navigation goes
// through the browser process before the input is acknowledged), so the link/button ratio has a
// floor above 1 that no client can beat. What Argus controls is the time it adds on top of Chrome:
// target: Argus's added time on a hash-link click <= 1.2x its added time on a button click.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import CDP from 'chrome-remote-interface';
import { launchChrome } from '@argus/cdp';
import { startDaemon } from '@argus/daemon';
import { createArgusClient } from '@argus/client';
import { startFixtureServer } from '@argus/test-kit';
import { benchOptions } from './lib-args.mjs';
import { median, percentile } from './lib-stats.mjs';

const { runs: RUNS } = benchOptions({ runs: 40 });
const WARMUP = 5;

const fmt = (value) => value.toFixed(2).padStart(7);
const CHROME_FLAGS = ['--proxy-server=http://127.0.0.1:9'];

const workspace = mkdtempSync(join(tmpdir(), 'argus-bench-nav-click-'));
const server = await startFixtureServer();
const daemon = await startDaemon({
  stateDir: join(workspace, '.argus'),
  workspace,
  env: { ...process.env, ARGUS_CHROME_FLAGS: CHROME_FLAGS.join(' ') },
});
const { client, close } = createArgusClient({
  url: `http://127.0.0.1:${daemon.port}`,
  token: daemon.token,
  transport: 'http',
});
const chrome = await launchChrome({ headless: true, extraFlags: CHROME_FLAGS });
let cdp;
const names = ['argus button', 'argus hash link', 'raw button', 'raw hash link'];
const samples = Object.fromEntries(names.map((name) => [name, []]));
try {
  const url = server.urlFor('/todo-hash.html');
  await client.page.goto.mutate({ url });
  // every hash click alternates between two routes, so that it really changes the hash
  const routeOf = (i) => (i % 2 ? { link: '#all', hash: '#/' } : { link: '#active', hash: '#/active' });

  let argusHashClicks = 0;
  const argus = {
    button: async () => {
      const result = await client.input.click.mutate({ target: '#refresh' });
      if (result.navigated) throw new Error('the button navigated');
    },
    hash: async () => {
      const route = routeOf(argusHashClicks++);
      const result = await client.input.click.mutate({ target: route.link });
      if (!result.navigated || !result.url.endsWith(route.hash))
        throw new Error(`the link did not route: ${JSON.stringify(result)}`);
    },
  };

  // the floor: the same clicks as raw CDP input (move, press, release sent back to back, then one
  // renderer round trip, as Argus sends them); the element's position is read before the clock starts
  const port = new URL(chrome.wsEndpoint).port;
  const target = (await CDP.List({ port })).find((candidate) => candidate.type === 'page');
  cdp = await CDP({ port, target: target.id });
  await cdp.Page.enable();
  const loaded = new Promise((resolve) => cdp.Page.loadEventFired(resolve));
  await cdp.Page.navigate({ url });
  await loaded;
  const centre = async (selector) => {
    const { result } = await cdp.Runtime.evaluate({
      expression: `(() => { const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`,
      returnByValue: true,
    });
    return result.value;
  };
  const rawClick = async ([x, y]) => {
    const start = performance.now();
    await Promise.all([
      cdp.Input.dispatchMouseEvent({ type: 'mouseMoved', x, y }),
      cdp.Input.dispatchMouseEvent({ type: 'mousePressed', x, y, button: 'left', clickCount: 1 }),
      cdp.Input.dispatchMouseEvent({ type: 'mouseReleased', x, y, button: 'left', clickCount: 1 }),
    ]);
    await cdp.Runtime.evaluate({ expression: '0', returnByValue: true });
    return performance.now() - start;
  };
  let rawHashClicks = 0;
  const raw = {
    button: async () => rawClick(await centre('#refresh')),
    hash: async () => {
      const route = routeOf(rawHashClicks++);
      const elapsed = await rawClick(await centre(route.link));
      const { result } = await cdp.Runtime.evaluate({ expression: 'location.hash', returnByValue: true });
      if (result.value !== route.hash) throw new Error(`the raw link did not route: ${result.value}`);
      return elapsed;
    },
  };
  const timed = async (fn) => {
    const start = performance.now();
    await fn();
    return performance.now() - start;
  };
  const series = {
    'argus button': () => timed(argus.button),
    'argus hash link': () => timed(argus.hash),
    'raw button': raw.button,
    'raw hash link': raw.hash,
  };
  for (let i = 0; i < WARMUP; i++) for (const name of names) await series[name]();
  // the series take turns (rotating which goes first), so that a slow spell of the machine lands on
  // all of them alike instead of on whichever series ran during it
  for (let i = 0; i < RUNS; i++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length];
      samples[name].push(await series[name]());
    }
  }
  const route = (await client.read.text.query({ target: '#route' })).text;
  if (!/^route: \//.test(route)) throw new Error(`unexpected route after the run: ${route}`);
} finally {
  await cdp?.close();
  await chrome.kill();
  close();
  await daemon.stop('bench done');
  await server.close();
  rmSync(workspace, { recursive: true, force: true });
}

const m = Object.fromEntries(names.map((name) => [name, median(samples[name])]));
console.log(
  `nav-click bench: ${RUNS} clicks per series, four series in turns after ${WARMUP} warm-up, todo-hash.html; Argus through the typed client over http, raw = CDP input to a Chromium of our own`,
);
console.log(`${'series'.padEnd(28)}${'median'.padStart(9)}${'p90'.padStart(12)}`);
for (const name of names) console.log(`${name.padEnd(28)}${fmt(m[name])} ms${fmt(percentile(samples[name], 90))} ms`);
const addedButton = m['argus button'] - m['raw button'];
const addedHash = m['argus hash link'] - m['raw hash link'];
console.log(
  `hash link / button: Argus ${(m['argus hash link'] / m['argus button']).toFixed(2)}x, raw CDP floor ${(m['raw hash link'] / m['raw button']).toFixed(2)}x`,
);
console.log(
  `time Argus adds over raw CDP: button ${addedButton.toFixed(1)} ms, hash link ${addedHash.toFixed(1)} ms = ${(addedHash / addedButton).toFixed(2)}x (target <= 1.2x)`,
);
