#!/usr/bin/env node
// Where an agent's call spends its time: each operation three ways on the small form page, in turns,
// medians of --runs:
//   raw     the CDP call itself (chrome-remote-interface) in a Chromium launched here with the same flags;
//   own     the same CDP call in the daemon's own Chromium (another tab of it, on the same page, reached
//           through a debugging port the bench adds to the daemon's flags): the floor without a second
//           browser competing for the two cores, which the raw series pays in turns with the others;
//   daemon  the manifest command straight to the daemon (no MCP) from this process, over one
//           WebSocket held open (ClientHandle.call with calls: 'ws'), as a sharing server sends it;
//   mcp     the tool through argus-mcp with the official SDK client (stdio), as an agent calls it:
//           the server hosts the daemon (its default), so its calls reach the router in-process;
//   shared  the tool through a second argus-mcp in the same workspace, which finds that daemon
//           running and shares it over its WebSocket: a daemon in another process, as every
//           server's was before hosting (and is with --keep-browser or ARGUS_MCP_DAEMON=process).
// Each Argus call follows a raw one (consecutive captures of one tab wait for the next frame).
// daemon - raw is the daemon's own cost (WebSocket, validation, journal, its CDP messages); mcp -
// daemon is what the MCP path adds (stdio both ways, the server's validation and rendering, minus
// the WebSocket it does not use). A `tabs.list` (no browser work) is printed as the bare per-call
// cost of the daemon.
// Then each operation's CPU per call, the other measure of a hop (on a machine whose cores Chromium
// keeps busy, CPU spent is time someone waits for): the raw CDP client's own (this process, calling
// alone) against the hosting argus-mcp's (its utime + stime from /proc over its calls alone: the MCP
// server, the router, the journal and its CDP client, in one process), and the sharing server's
// (MCP work only; its daemon's is counted in the hosting process's).
// --warmup N: calls of each series before the timed ones (3 by default: a fresh server's first calls,
// still running unoptimised code; an agent's session of hundreds of calls runs at the steady state a
// few hundred give, see the CPU note below).
//   pnpm build && node bench/mcp-hops-bench.mjs [--runs 31] [--warmup 3]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import CDP from 'chrome-remote-interface';
import { launchChrome } from '@argus/cdp';
import { connectToDaemon, createArgusClient, isProcessAlive, readState } from '@argus/client';
import { AGENT_SCREENSHOT_QUALITY } from '@argus/protocol';
import { startFixtureServer } from '@argus/test-kit';
import { benchOptions } from './lib-args.mjs';
import { processCpuMs } from './lib-proc.mjs';
import { median } from './lib-stats.mjs';

const { runs, warmup } = benchOptions({ runs: 31, warmup: 3 });
const pluginDir = fileURLToPath(new URL('../apps/plugin/', import.meta.url));
const require = createRequire(`${pluginDir}package.json`);
const { Client } = await import(require.resolve('@modelcontextprotocol/sdk/client/index.js'));
const { StdioClientTransport } = await import(require.resolve('@modelcontextprotocol/sdk/client/stdio.js'));
const { agentScreenshotInput } = await import(`${pluginDir}dist/index.js`);
const { WebSocket } = require('ws');

const FLAGS = '--proxy-server=http://127.0.0.1:9';
// the daemon's browser also listens on a debugging port, for the `own` series (its DevToolsActivePort file)
const OWN_FLAGS = `${FLAGS} --remote-debugging-port=0`;
const fixtures = await startFixtureServer();
const workspace = mkdtempSync(join(tmpdir(), 'argus-hops-bench-'));
const stateDir = join(workspace, '.argus');
const env = {
  ARGUS_STATE_DIR: stateDir,
  ARGUS_CHROME_FLAGS: OWN_FLAGS,
  PATH: process.env.PATH ?? '',
  ...(process.env.CHROME_PATH ? { CHROME_PATH: process.env.CHROME_PATH } : {}),
  ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
};
const url = fixtures.urlFor('/form.html');
/** An argus-mcp in the workspace with the official SDK client (stdio). */
async function mcpServer(extraEnv = {}) {
  const client = new Client({ name: 'argus-hops-bench', version: '0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [`${pluginDir}bin/argus-mcp.js`, '--profile', 'core'],
    env: { ...env, ...extraEnv },
    cwd: workspace,
    stderr: 'inherit',
  });
  await client.connect(transport);
  serverPids.set(client, transport.pid);
  return client;
}
const serverPids = new Map();
/**
 * A CDP client on a new tab of the daemon's own Chromium: its profile dir from the browser's command
 * line, its port from the DevToolsActivePort file Chromium writes there.
 */
async function ownBrowserClient(handle) {
  const { browser } = await handle.call('daemon.status', 'query', {});
  const args = readFileSync(`/proc/${browser.pid}/cmdline`, 'utf8').split('\0');
  const profile = args.find((arg) => arg.startsWith('--user-data-dir='))?.slice('--user-data-dir='.length);
  if (!profile) throw new Error("the daemon's Chromium has no --user-data-dir");
  const port = Number(readFileSync(join(profile, 'DevToolsActivePort'), 'utf8').split('\n')[0]);
  // a window of its own, as the daemon opens its tabs: a tab in the daemon's window would make the
  // daemon's a background tab, whose captures wait for frames that do not come
  const browserClient = await CDP({ host: '127.0.0.1', port });
  try {
    const { targetId } = await browserClient.Target.createTarget({ url: 'about:blank', newWindow: true });
    return await CDP({ host: '127.0.0.1', port, target: targetId });
  } finally {
    await browserClient.close();
  }
}
/** CPU ms per call of `fn`, `count` calls in a row: this process's own (pid undefined) or another's. */
async function cpuPerCall(fn, count, pid) {
  const before = pid === undefined ? process.cpuUsage() : processCpuMs(pid);
  for (let i = 0; i < count; i++) await fn();
  if (pid === undefined) {
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / count;
  }
  return (processCpuMs(pid) - before) / count;
}
const mcp = await mcpServer();
let shared;
const chrome = await launchChrome({ extraFlags: [FLAGS] });
let raw;
let own;
try {
  await mcp.callTool({ name: 'argus_goto', arguments: { url } });
  // started once the first server hosts the daemon: it finds it running and shares it
  shared = await mcpServer({ ARGUS_MCP_DAEMON: 'process' });
  const state = readState(stateDir);
  const handle = createArgusClient({
    url: `http://127.0.0.1:${state.port}`,
    token: state.token,
    calls: 'ws',
    WebSocket,
  });
  /** One manifest command by path, as argus-mcp's link sends it. */
  const daemon = (path, input, kind = 'mutation') => handle.call(path, kind, input);
  const toolOf = (client) => (name, args) => async () => {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(JSON.stringify(result.content));
  };
  const hostedTool = toolOf(mcp);
  const sharedTool = toolOf(shared);
  const tool = (name, args) => [hostedTool(name, args), sharedTool(name, args)];

  const { port } = new URL(chrome.wsEndpoint);
  raw = await CDP({ host: '127.0.0.1', port, target: await CDP.New({ host: '127.0.0.1', port }) });
  own = await ownBrowserClient(handle);
  for (const client of [raw, own]) {
    await client.Page.enable();
    const loaded = client.Page.loadEventFired();
    await client.Page.navigate({ url });
    await loaded;
  }

  // the agent's screenshot exactly as argus-mcp asks for it (JPEG, pixel budget, inline and kept as a file)
  const shot = agentScreenshotInput({});
  const rows = [
    [
      'snapshot',
      () => raw.Accessibility.getFullAXTree({}),
      () => own.Accessibility.getFullAXTree({}),
      () => daemon('snapshot.take', {}),
      ...tool('argus_snapshot', {}),
    ],
    [
      'eval document.title',
      () => raw.Runtime.evaluate({ expression: 'document.title', returnByValue: true }),
      () => own.Runtime.evaluate({ expression: 'document.title', returnByValue: true }),
      () => daemon('page.eval', { js: 'document.title' }),
      ...tool('argus_eval', { js: 'document.title' }),
    ],
    [
      'screenshot (jpeg)',
      () => raw.Page.captureScreenshot({ format: 'jpeg', quality: AGENT_SCREENSHOT_QUALITY }),
      () => own.Page.captureScreenshot({ format: 'jpeg', quality: AGENT_SCREENSHOT_QUALITY }),
      () => daemon('page.screenshot', shot),
      ...tool('argus_screenshot', {}),
    ],
    [
      'tabs.list (no browser)',
      () => raw.Target.getTargets(),
      () => own.Target.getTargets(),
      () => daemon('tabs.list', {}, 'query'),
      ...tool('argus_tabs', {}),
    ],
  ];
  const time = async (fn) => {
    const started = performance.now();
    await fn();
    return performance.now() - started;
  };
  console.log(
    `medians of ${runs} in turns after ${warmup} warm-up calls of each, /form.html (load ${loadavg()[0].toFixed(1)})`,
  );
  console.log(
    'operation                     raw       own    daemon       mcp    shared   daemon-own  mcp-daemon   mcp/raw   mcp/own  shared/own',
  );
  for (const [name, ...fns] of rows) {
    for (let i = 0; i < warmup; i++) for (const fn of fns) await fn(); // domains enabled, JIT
    const samples = fns.map(() => []);
    // the two raw calls (another Chromium, another tab of the daemon's) before each Argus call:
    // consecutive screenshots of one tab would otherwise wait for the compositor's next frame and
    // charge that to the second
    for (let i = 0; i < runs; i++)
      for (const k of [2, 3, 4]) {
        samples[0].push(await time(fns[0]));
        samples[1].push(await time(fns[1]));
        samples[k].push(await time(fns[k]));
      }
    const [r, o, d, m, sh] = samples.map(median);
    const cell = (value, width) => value.toFixed(2).padStart(width);
    console.log(
      `${name.padEnd(24)} ${cell(r, 8)} ${cell(o, 9)} ${cell(d, 9)} ${cell(m, 9)} ${cell(sh, 9)} ${cell(d - o, 12)} ${cell(m - d, 11)} ${cell(m / r, 8)}x ${cell(m / o, 8)}x ${cell(sh / o, 10)}x`,
    );
  }
  // CPU per call, each series alone (another's calls would be counted in the same process), after as
  // many calls again un-counted: a process's per-call CPU halves over its first few hundred calls as
  // V8 optimises the path (measured here: 2.7 -> 1.3 ms for a snapshot over 3 x 500 calls)
  console.log(
    `\nCPU per call (ms), ${runs * 5} calls of each series in a row (screenshots ${runs * 2}), after as many`,
  );
  console.log('operation                raw client  argus-mcp (hosting)  argus-mcp (sharing)   hosting/raw');
  for (const [name, rawCall, , , hostedCall, sharedCall] of rows) {
    const count = name.startsWith('screenshot') ? runs * 2 : runs * 5;
    const measure = async (fn, pid) => {
      await cpuPerCall(fn, count, pid);
      return cpuPerCall(fn, count, pid);
    };
    const r = await measure(rawCall);
    const h = await measure(hostedCall, serverPids.get(mcp));
    const sh = await measure(sharedCall, serverPids.get(shared));
    console.log(
      `${name.padEnd(24)} ${r.toFixed(3).padStart(10)} ${h.toFixed(3).padStart(20)} ${sh.toFixed(3).padStart(20)} ${(h / r).toFixed(2).padStart(12)}x`,
    );
  }
  handle.close();
} finally {
  await raw?.close().catch(() => undefined);
  await own?.close().catch(() => undefined);
  await chrome.kill();
  const state = readState(stateDir);
  if (state && isProcessAlive(state.pid)) {
    const connection = await connectToDaemon({ stateDir });
    await connection.client.daemon.stop.mutate({}).catch(() => undefined);
    connection.close();
  }
  await shared?.close();
  await mcp.close();
  await fixtures.close();
  rmSync(workspace, { recursive: true, force: true, maxRetries: 5 });
}
