#!/usr/bin/env node
// Reply size of the core MCP tools, in tokens (chars / 4), and the untrusted-content envelope's
// share of it: every call runs on a server with the envelope off (the baseline, same run, same
// page state) and on one with it on; the envelope's share is counted in each reply (its marker
// and notice lines). The first wrapped reply of a session
// states the notice once; later replies should carry only the nonce markers (goal <= 12 tokens).
//   pnpm --filter @argus/plugin build && node bench/mcp-reply-bench.mjs [--json]
// Counts the text blocks an agent reads (structuredContent is for programs).
// Then times, on the small form page, a viewport screenshot and a snapshot over MCP (the official SDK
// client, the core profile as agents get it) against the raw CDP floor in a Chromium launched here
// with the same flags: `Page.captureScreenshot` of the viewport in the agent's format (JPEG q70; PNG
// as well, asked explicitly on both sides) and `Accessibility.getFullAXTree` (warm). Calls run in
// turns so load hits both sides alike; medians of --runs. Screenshots are timed a second time with
// the frame phase swept (`, swept`, 3 x --runs pairs: see timings), the fair comparison of two
// browsers' captures.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import CDP from 'chrome-remote-interface';
import { launchChrome } from '@argus/cdp';
import { connectToDaemon, isProcessAlive, readState } from '@argus/client';
import { AGENT_SCREENSHOT_QUALITY } from '@argus/protocol';
import { startFixtureServer } from '@argus/test-kit';
import { benchOptions } from './lib-args.mjs';
import { median } from './lib-stats.mjs';

/** One frame of Chromium's 60 Hz frame clock, in ms. */
const FRAME_MS = 1000 / 60;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const OPTIONS = benchOptions({ json: false, verbose: false, runs: 21 });
const pluginDir = fileURLToPath(new URL('../apps/plugin/', import.meta.url));
const require = createRequire(`${pluginDir}package.json`);
const { Client } = await import(require.resolve('@modelcontextprotocol/sdk/client/index.js'));
const { StdioClientTransport } = await import(require.resolve('@modelcontextprotocol/sdk/client/stdio.js'));
const SERVER = `${pluginDir}bin/argus-mcp.js`;

const fixtures = await startFixtureServer();
const workspace = mkdtempSync(join(tmpdir(), 'argus-reply-bench-'));
const stateDir = join(workspace, '.argus');
const env = {
  ARGUS_STATE_DIR: stateDir,
  ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9',
  ...(process.env.CHROME_PATH ? { CHROME_PATH: process.env.CHROME_PATH } : {}),
  ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
};

async function start(args) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER, ...args],
    env,
    cwd: workspace,
    stderr: 'inherit',
  });
  const client = new Client({ name: 'argus-reply-bench', version: '0' });
  await client.connect(transport);
  return client;
}

/**
 * Characters the envelope adds to a reply: its marker lines and the notice line. Measured inside the
 * reply itself, because the envelope-off baseline runs earlier on the same tab (refs and request
 * counts there differ by a few characters).
 */
function envelopeChars(reply) {
  const stripped = reply
    .replace(/<<page [0-9a-f]+>>\n(Below, up to the closing page marker[^\n]*\n)?/g, '')
    .replace(/\n<<\/page [0-9a-f]+>>/g, '');
  return reply.length - stripped.length;
}

const text = (result) =>
  result.content
    .filter((item) => item.type === 'text')
    .map((item) => item.text)
    .join('\n');
const tokens = (chars) => Math.ceil(chars / 4);

// the title of /form.html is "Sign up": 7 characters; the eval below reads a 14-character title
const url = fixtures.urlFor('/form.html');
const CALLS = [
  ['argus_goto', { url }],
  ['argus_eval', { js: 'document.title = "Example title!"; document.title' }],
  ['argus_snapshot', { interactive: true }],
  ['argus_click', { target: '#name' }],
  ['argus_fill', { target: '#email', text: 'ada@example.com' }],
  ['argus_type', { text: 'x', target: '#bio' }],
  ['argus_press', { key: 'Tab' }],
  ['argus_select', { target: '#country', value: 'Canada' }],
  ['argus_text', {}],
  ['argus_tabs', {}],
  ['argus_wait', { ms: 1 }],
  ['argus_console', {}],
  ['argus_network', { limit: 2 }],
  ['argus_eval', { js: 'document.title' }],
];

async function run(args) {
  const client = await start(args);
  const replies = [];
  try {
    for (const [name, input] of CALLS) {
      const result = await client.callTool({ name, arguments: input });
      replies.push({ name, error: result.isError === true, chars: text(result).length, text: text(result) });
    }
  } finally {
    await client.close();
  }
  return replies;
}

const time = async (fn) => {
  const started = performance.now();
  const result = await fn();
  if (result?.isError) throw new Error(`tool failed: ${text(result)}`);
  return performance.now() - started;
};

/** MCP call time against the raw CDP floor, on the same page, in turns. */
async function timings() {
  const chrome = await launchChrome({ extraFlags: [env.ARGUS_CHROME_FLAGS] });
  const client = await start(['--profile', 'core']);
  try {
    const { port } = new URL(chrome.wsEndpoint);
    const target = await CDP.New({ host: '127.0.0.1', port });
    const raw = await CDP({ host: '127.0.0.1', port, target });
    await raw.Page.enable();
    const loaded = raw.Page.loadEventFired();
    await raw.Page.navigate({ url });
    await loaded;
    await client.callTool({ name: 'argus_goto', arguments: { url } });
    const pairs = {
      'viewport screenshot (jpeg)': [
        () => raw.Page.captureScreenshot({ format: 'jpeg', quality: AGENT_SCREENSHOT_QUALITY }),
        () => client.callTool({ name: 'argus_screenshot', arguments: {} }),
      ],
      'viewport screenshot (png)': [
        () => raw.Page.captureScreenshot({ format: 'png' }),
        () => client.callTool({ name: 'argus_screenshot', arguments: { format: 'png' } }),
      ],
      'snapshot, small form page': [
        () => raw.Accessibility.getFullAXTree({}),
        () => client.callTool({ name: 'argus_snapshot', arguments: {} }),
      ],
    };
    const rows = [];
    for (const [name, [floor, mcp]] of Object.entries(pairs)) {
      for (let i = 0; i < 3; i++) await time(floor).then(() => time(mcp)); // warm-up (enables domains)
      const samples = { floor: [], mcp: [] };
      for (let i = 0; i < OPTIONS.runs; i++) {
        samples.floor.push(await time(floor));
        samples.mcp.push(await time(mcp));
      }
      rows.push({ name, floor: median(samples.floor), mcp: median(samples.mcp) });
      if (!name.startsWith('viewport screenshot')) continue;
      // A capture is answered with the next frame its Chromium draws (a 60 Hz clock of its own), so
      // its time depends on when in the frame it is asked: raw CDP, a busy wait of 0-16 ms before
      // each capture moved the median between 44 and 56 ms. Back to back in turns, the loop's
      // period holds each side at one phase of its own browser's clock for the whole run (the
      // floor's browser is another process), which made the ratio swing between runs (1.05x-1.19x
      // on the same build). So each pair is asked again after an idle wait that sweeps one frame
      // (the same wait before both calls of a pair), and every phase counts alike on both sides.
      // (three times the runs: a uniform spread of a frame is a wide one to take a median of)
      const sweeps = OPTIONS.runs * 3;
      const swept = { floor: [], mcp: [] };
      for (let i = 0; i < sweeps; i++) {
        const wait = (i * FRAME_MS) / sweeps;
        await sleep(wait);
        swept.floor.push(await time(floor));
        await sleep(wait);
        swept.mcp.push(await time(mcp));
      }
      rows.push({ name: `${name}, swept`, floor: median(swept.floor), mcp: median(swept.mcp) });
    }
    await raw.close();
    return rows;
  } finally {
    await client.close();
    await chrome.kill();
  }
}

let rows;
let timed;
try {
  const off = await run(['--profile', 'core', '--no-untrusted-envelope']);
  const on = await run(['--profile', 'core']);
  timed = await timings();
  rows = CALLS.map(([name], index) => ({
    tool: name,
    first: index === 0 || undefined,
    off: tokens(off[index].chars),
    on: tokens(on[index].chars),
    overhead: tokens(envelopeChars(on[index].text)),
    overheadChars: envelopeChars(on[index].text),
    error:
      off[index].error || on[index].error
        ? (on[index].error ? on[index].text : off[index].text).slice(0, 120)
        : undefined,
  }));
  if (OPTIONS.verbose)
    for (const [index, reply] of on.entries())
      console.log(`--- ${CALLS[index][0]} (${reply.chars} chars)\n${reply.text}`);
} finally {
  const state = readState(stateDir);
  if (state && isProcessAlive(state.pid)) {
    const connection = await connectToDaemon({ stateDir });
    await connection.client.daemon.stop.mutate({}).catch(() => undefined);
    connection.close();
    for (let i = 0; i < 150 && isProcessAlive(state.pid); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await fixtures.close();
  rmSync(workspace, { recursive: true, force: true });
}

if (OPTIONS.json) {
  console.log(JSON.stringify({ replies: rows, timings: timed }, null, 2));
} else {
  console.log('tool               off  on  envelope (tokens, chars/4)');
  for (const row of rows)
    console.log(
      `${row.tool.padEnd(17)} ${String(row.off).padStart(4)} ${String(row.on).padStart(3)}  +${row.overhead} (${row.overheadChars} chars)${row.first ? '  first reply of the session' : ''}${row.error ? `  ERROR ${row.error}` : ''}`,
    );
  const later = rows.slice(1).filter((row) => row.overheadChars > 0);
  const max = Math.max(...later.map((row) => row.overhead));
  console.log(
    `\nenvelope overhead after the first reply: max ${max} tokens over ${later.length} wrapped replies (goal <= 12)`,
  );
  const evalRow = rows[rows.length - 1];
  console.log(
    `eval of document.title ("Example title!", 14 chars): ${evalRow.on} tokens with the envelope, ${evalRow.off} without`,
  );
  console.log(
    `\nover MCP vs raw CDP, /form.html, medians of ${OPTIONS.runs} in turns (load ${loadavg()[0].toFixed(1)})`,
  );
  console.log('operation                           raw CDP      MCP   ratio');
  for (const row of timed)
    console.log(
      `${row.name.padEnd(34)} ${row.floor.toFixed(1).padStart(8)} ${row.mcp.toFixed(1).padStart(8)}   ${(row.mcp / row.floor).toFixed(2)}x`,
    );
}
