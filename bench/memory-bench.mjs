#!/usr/bin/env node
// Daemon memory under load: N clients each run M commands (snapshot, click, fill, eval, text, tabs,
// console, a screenshot and a navigation now and then) on a tab of their own, against a real daemon
// process with headless Chromium. The daemon runs with Node's inspector on loopback, so the bench
// can force a garbage collection before every reading: heap after GC (what is retained) and RSS at
// start, after warm-up and at the end, plus a curve every `--every` commands. The page logs to the
// console every `--tick-ms` (0: never): each tab's console ring then fills with time up to its bound
// (5,000 entries), which is growth by design, not a leak; compare a run with --tick-ms 0.
// `--heap-diff` writes heap snapshots after warm-up and at the end and prints the constructors that
// grew (`--heap-out DIR` keeps the .heapsnapshot files for DevTools). Taking a snapshot inflates the
// daemon's RSS by ~170 MB for good: read RSS from a run without --heap-diff.
// Usage: pnpm build && pnpm bench memory [--clients 4] [--commands 2500] [--warmup 250] [--every 500]
//        [--tick-ms 200] [--heap-diff] [--heap-out DIR] [--calls http|ws]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import CDP from 'chrome-remote-interface';
import { createRequire } from 'node:module';
import { createArgusClient } from '@argus/client';
import { startFixtureServer } from '@argus/test-kit';
import { benchOptions } from './lib-args.mjs';
import { startDaemonProcess } from './lib-daemon.mjs';

const options = benchOptions({
  clients: 4,
  commands: 2500,
  warmup: 250,
  every: 500,
  'tick-ms': 200,
  'heap-diff': false,
  'heap-out': '',
  calls: 'http',
});
// how the clients send their commands: `http` (one request each) or `ws` (one WebSocket held open,
// as the MCP server sends its agent's calls)
const CALLS = String(options.calls);
if (CALLS !== 'http' && CALLS !== 'ws') throw new Error(`--calls takes http or ws, got "${CALLS}"`);
const CLIENTS = Number(options.clients);
const COMMANDS = Number(options.commands);
const WARMUP = Number(options.warmup);
const EVERY = Number(options.every);

const FORM = `<!doctype html><title>Form</title>
<h1>Sign up</h1>
<form onsubmit="event.preventDefault(); document.querySelector('#out').textContent = 'sent ' + name.value">
  <label>Name <input id="name" name="name"></label>
  <label>Email <input type="email" name="email"></label>
  <label><input type="checkbox" name="terms"> I agree</label>
  <select name="plan"><option>Free</option><option>Pro</option></select>
  <button>Send</button>
</form>
<p id="out"></p>
<ul>${Array.from({ length: 40 }, (_, i) => `<li><a href="#item-${i}">Item ${i}</a></li>`).join('')}</ul>
${
  // the page logs on its own: each tab's console ring fills with time (bounded: 5,000 entries a tab)
  Number(options['tick-ms']) > 0
    ? `<script>let n = 0; setInterval(() => console.log('tick', ++n), ${Number(options['tick-ms'])});</script>`
    : ''
}`;

const server = await startFixtureServer({ pages: { '/form/': FORM } });
const formUrl = new URL('/form/', server.url).href;
const daemon = await startDaemonProcess({ inspect: true, prefix: 'argus-memory-' });
const inspector = await CDP({ target: daemon.inspectorUrl, local: true });

/** Heap after a forced GC (what the daemon retains) and RSS of the daemon process. */
async function reading(label, done) {
  await inspector.HeapProfiler.collectGarbage();
  const { usedSize } = await inspector.Runtime.getHeapUsage();
  return { label, done, heapMb: usedSize / 2 ** 20, rssMb: daemon.rssMb() };
}

async function heapSnapshot(file) {
  const chunks = [];
  const listener = ({ chunk }) => chunks.push(chunk);
  inspector.on('HeapProfiler.addHeapSnapshotChunk', listener);
  await inspector.HeapProfiler.takeHeapSnapshot({ reportProgress: false });
  inspector.removeListener('HeapProfiler.addHeapSnapshotChunk', listener);
  const text = chunks.join('');
  if (options['heap-out']) writeFileSync(join(String(options['heap-out']), `${file}.heapsnapshot`), text);
  return summarise(JSON.parse(text));
}

/** Count and self size per constructor name (object nodes and closures), from a V8 heap snapshot. */
function summarise(snapshot) {
  const {
    node_fields: fields,
    node_types: [types],
  } = snapshot.snapshot.meta;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const byName = new Map();
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const type = types[snapshot.nodes[i + typeAt]];
    if (type !== 'object' && type !== 'closure' && type !== 'array' && type !== 'string') continue;
    const name = `${type}:${snapshot.strings[snapshot.nodes[i + nameAt]]}`.slice(0, 80);
    const entry = byName.get(name) ?? { count: 0, size: 0 };
    entry.count += 1;
    entry.size += snapshot.nodes[i + sizeAt];
    byName.set(name, entry);
  }
  return byName;
}

// ws is a dependency of @argus/client: resolve it from there
const { WebSocket } = createRequire(new URL('../packages/client/package.json', import.meta.url))('ws');
const handles = Array.from({ length: CLIENTS }, () =>
  createArgusClient({ url: daemon.url, token: daemon.token, ...(CALLS === 'ws' ? { calls: 'ws', WebSocket } : {}) }),
);
const tabs = [];
for (const { client } of handles) {
  const tab = await client.tabs.open.mutate({ url: formUrl });
  tabs.push(tab.id);
}

/** One command of the mix as [path, kind, input]; `i` picks which, so every client runs the same sequence. */
function command(tab, i) {
  switch (i % 10) {
    case 0:
      return i % 50 === 0
        ? ['page.goto', 'mutation', { url: formUrl, tab }]
        : ['snapshot.take', 'mutation', { interactive: true, tab }];
    case 1:
      return ['input.fill', 'mutation', { target: '#name', text: `user ${i}`, tab }];
    case 2:
      return ['input.click', 'mutation', { target: 'button', tab }];
    case 3:
      return ['page.eval', 'mutation', { js: 'document.title + location.hash', tab }];
    case 4:
      return ['read.text', 'query', { target: '#out', tab }];
    case 5:
      return ['snapshot.take', 'mutation', { tab }];
    case 6:
      return ['tabs.list', 'query', {}];
    case 7:
      return ['capture.console', 'query', { tab }];
    case 8:
      return i % 25 === 8 ? ['page.screenshot', 'mutation', { base64: true, tab }] : ['page.url', 'query', { tab }];
    default:
      return ['input.check', 'mutation', { target: 'input[name=terms]', tab }];
  }
}

/** Runs step `i` as the client does: the typed client over HTTP, or by path over the WebSocket. */
function step(handle, tab, i) {
  const [path, kind, input] = command(tab, i);
  if (CALLS === 'ws') return handle.call(path, kind, input);
  const [namespace, key] = path.split('.');
  const procedure = handle.client[namespace][key];
  return kind === 'query' ? procedure.query(input) : procedure.mutate(input);
}

const curve = [await reading('start', 0)];
let done = 0;
let failures = 0;
let warmupSnapshot;
let nextMark = WARMUP;
async function mark() {
  while (done >= nextMark) {
    const label = nextMark === WARMUP ? 'warm-up' : `${nextMark}`;
    const at = nextMark;
    nextMark = nextMark === WARMUP ? EVERY * Math.ceil((WARMUP + 1) / EVERY) : nextMark + EVERY;
    curve.push(await reading(label, at));
    if (label === 'warm-up' && options['heap-diff']) warmupSnapshot = await heapSnapshot('warm-up');
  }
}

const total = CLIENTS * COMMANDS;
const started = performance.now();
await Promise.all(
  handles.map(async (handle, c) => {
    for (let i = 0; i < COMMANDS; i += 1) {
      try {
        await step(handle, tabs[c], i);
      } catch (error) {
        failures += 1;
        if (failures <= 5) console.error(`client ${c} command ${i}: ${error.code ?? ''} ${error.message}`);
      }
      done += 1;
      await mark();
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
if (curve.at(-1).done !== total) curve.push(await reading('end', total));

console.log(
  `daemon memory: ${CLIENTS} clients x ${COMMANDS} commands (${total} total, ${failures} failed) in ${seconds.toFixed(1)} s`,
);
console.log(`${'after'.padEnd(10)}${'commands'.padStart(10)}${'heap MB'.padStart(10)}${'RSS MB'.padStart(10)}`);
for (const row of curve) {
  console.log(
    `${row.label.padEnd(10)}${String(row.done).padStart(10)}${row.heapMb.toFixed(1).padStart(10)}${row.rssMb.toFixed(1).padStart(10)}`,
  );
}
const warm = curve.find((row) => row.label === 'warm-up') ?? curve[0];
const end = curve.at(-1);
console.log(
  `end / warm-up: heap ${(end.heapMb / warm.heapMb).toFixed(2)}x, RSS ${(end.rssMb / warm.rssMb).toFixed(2)}x (goal: within 1.10x)`,
);

if (warmupSnapshot) {
  const endSnapshot = await heapSnapshot('end');
  const grown = [...endSnapshot]
    .map(([name, entry]) => {
      const before = warmupSnapshot.get(name) ?? { count: 0, size: 0 };
      return { name, count: entry.count - before.count, size: entry.size - before.size };
    })
    .filter((row) => row.size > 0)
    .sort((a, b) => b.size - a.size)
    .slice(0, 20);
  console.log('\ngrew most between warm-up and end (after GC):');
  for (const row of grown)
    console.log(`${String(row.size).padStart(10)} B ${String(row.count).padStart(7)}  ${row.name}`);
}

for (const handle of handles) handle.close();
await inspector.close();
await daemon.stop();
await server.close();
