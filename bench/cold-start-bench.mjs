#!/usr/bin/env node
// Cold start: from nothing running to the first navigation done. Three series, run in turns so load
// on the machine hits them alike:
//   floor  raw CDP: spawn Chromium with Argus's flags and a fresh profile, read its DevTools URL from
//          stderr, connect with chrome-remote-interface, navigate a new page and wait for `load`;
//   cli    `node apps/cli/dist/argus.js goto URL` with a fresh state dir (starts the daemon, which
//          launches Chromium), the whole process;
//   mcp    an agent's first call: spawn `argus-mcp` (official SDK client over stdio), initialize,
//          call argus_goto at once (the server prestarts the daemon, which launches Chromium at
//          that first browser call);
//   elicit the mcp series with a client that answers elicitations (as agents' clients do): the
//          server then follows the daemon's approval stream before a call;
//   turn   the same with the call 1 s after initialize (an agent's first turn); only the call is
//          timed, against the floor (Chromium starts at the call);
//   proc   the mcp series with ARGUS_MCP_DAEMON=process: the daemon in a process of its own, started
//          by the server's entry before the SDK loads (the server hosts it by default);
//   node   `node -e 0`, the price of any Node process.
// For the floor and cli series it also prints the CPU each cold start took (Linux /proc, to the first
// navigation done): Chromium's processes, and the CLI's and its daemon's. A cold start keeps this
// machine's cores busy (Chromium alone takes more CPU than the wall time), so the CPU our Node
// processes spend while Chromium starts is time Chromium waits for a core.
// With --baseline-tree DIR (another built checkout, e.g. a git worktree of the commit before a
// change), its CLI and MCP server run the cli and mcp series too, in the same turns: a before/after
// in one run, on the same floor.
// Each Argus run is followed by `argus stop` / closing the MCP client (not timed). Prints medians
// and ratios to the floor, and to the floor plus `node -e 0` (what a Node process started at the
// spawn pays before its first line: the floor itself is timed inside a running process).
//   pnpm build && pnpm bench cold-start [--runs 9] [--baseline-tree DIR]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import CDP from 'chrome-remote-interface';
import { connectToDaemon, readState, waitForExit } from '@argus/client';
import { DEFAULT_CHROME_FLAGS, findChrome } from '@argus/cdp';
import { runProcess, startFixtureServer } from '@argus/test-kit';
import { benchOptions } from './lib-args.mjs';
import { groupCpuMs, processCpuMs } from './lib-proc.mjs';
import { median, ms } from './lib-stats.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'apps', 'cli', 'dist', 'argus.js');
const mcpServer = join(root, 'apps', 'plugin', 'bin', 'argus-mcp.js');
// the MCP SDK is a dependency of apps/plugin: resolve it from there
const require = createRequire(join(root, 'apps', 'plugin', 'package.json'));
const { Client } = await import(require.resolve('@modelcontextprotocol/sdk/client/index.js'));
const { StdioClientTransport } = await import(require.resolve('@modelcontextprotocol/sdk/client/stdio.js'));
const { runs, 'baseline-tree': baselineTree } = benchOptions({ runs: 9, 'baseline-tree': '' });
/** The checkouts whose CLI and MCP server run: this one, and the baseline when given. */
const trees = [
  { cli, mcpServer, suffix: '' },
  ...(baselineTree
    ? [
        {
          cli: join(baselineTree, 'apps', 'cli', 'dist', 'argus.js'),
          mcpServer: join(baselineTree, 'apps', 'plugin', 'bin', 'argus-mcp.js'),
          suffix: ' [baseline]',
        },
      ]
    : []),
];
const EXTRA = ['--proxy-server=http://127.0.0.1:9'];
const chrome = findChrome();
const server = await startFixtureServer();
const url = new URL('/buttons.html', server.url).href;

const cpu = { floorChromium: [], cliProcess: [], cliDaemon: [], cliChromium: [] };

async function floor() {
  const profile = mkdtempSync(join(tmpdir(), 'argus-bench-floor-'));
  const started = performance.now();
  const child = spawn(
    chrome,
    [
      '--headless=new',
      ...DEFAULT_CHROME_FLAGS,
      `--user-data-dir=${profile}`,
      '--remote-debugging-port=0',
      ...EXTRA,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  try {
    const ws = await new Promise((resolve, reject) => {
      let text = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk) => {
        text += chunk;
        const match = /DevTools listening on (ws:\/\/\S+)/.exec(text);
        if (match) resolve(match[1]);
      });
      child.once('exit', () => reject(new Error(`chromium exited: ${text.slice(-300)}`)));
    });
    const { port } = new URL(ws);
    const target = await CDP.New({ port, host: '127.0.0.1' });
    const client = await CDP({ port, host: '127.0.0.1', target });
    await client.Page.enable();
    const loaded = client.Page.loadEventFired();
    await client.Page.navigate({ url });
    await loaded;
    const elapsed = performance.now() - started;
    cpu.floorChromium.push(groupCpuMs(child.pid));
    await client.close();
    return elapsed;
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGKILL');
    await exited;
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Runs `node args` to its end without blocking this process (the fixture server lives here). */
const run = (args, env) => runProcess(process.execPath, args, { cwd: root, env });

async function argusRun(cli, countCpu) {
  const stateDir = mkdtempSync(join(tmpdir(), 'argus-bench-cold-'));
  const env = { ...process.env, ARGUS_STATE_DIR: stateDir, ARGUS_CHROME_FLAGS: EXTRA.join(' ') };
  try {
    const childrenBefore = processCpuMs('self', { children: true });
    const started = performance.now();
    const result = await run([cli, 'goto', url], env);
    const elapsed = performance.now() - started;
    if (result.code !== 0) throw new Error(`argus goto failed: ${result.stderr}`);
    if (countCpu) {
      // the CLI is this process's waited-for child; its daemon and Chromium run on, detached
      cpu.cliProcess.push(processCpuMs('self', { children: true }) - childrenBefore);
      cpu.cliDaemon.push(processCpuMs(readState(stateDir)?.pid ?? 0));
      // looking is not using: status does not keep the daemon for anyone
      const connection = await connectToDaemon({ stateDir, name: 'cold-start-bench' });
      const { browser } = await connection.client.daemon.status.query({});
      connection.close();
      cpu.cliChromium.push(browser.pid ? groupCpuMs(browser.pid) : 0);
    }
    return elapsed;
  } finally {
    await run([cli, 'stop'], env);
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/**
 * `thinkMs` 0: the first call right after initialize (the server's prestarted daemon may still be
 * starting). Otherwise the call comes `thinkMs` after initialize, as an agent's first turn does, and
 * only the call is timed: Chromium starts at that call (the prestarted daemon has none), so the
 * floor's launch + connect + navigate is what it is compared with.
 */
async function mcpRun(mcpServer, thinkMs = 0, capabilities = {}, extraEnv = {}) {
  const stateDir = mkdtempSync(join(tmpdir(), 'argus-bench-cold-mcp-'));
  const env = { ...process.env, ARGUS_STATE_DIR: stateDir, ARGUS_CHROME_FLAGS: EXTRA.join(' '), ...extraEnv };
  const client = new Client({ name: 'argus-cold-start-bench', version: '0' }, { capabilities });
  try {
    let started = performance.now();
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [mcpServer], env, cwd: root, stderr: 'ignore' }),
    );
    if (thinkMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, thinkMs));
      started = performance.now();
    }
    const result = await client.callTool({ name: 'argus_goto', arguments: { url } });
    const elapsed = performance.now() - started;
    if (result.isError) throw new Error(`argus_goto failed: ${JSON.stringify(result.content)}`);
    return elapsed;
  } finally {
    const state = readState(stateDir);
    // the server stops the daemon it started when its agent goes
    await client.close();
    if (state) await waitForExit(state.pid, 15_000);
    rmSync(stateDir, { recursive: true, force: true });
  }
}

async function nodeRun() {
  const started = performance.now();
  await run(['-e', '0'], process.env);
  return performance.now() - started;
}

const samples = { floor: [], node: [] };
for (const { suffix } of trees)
  for (const series of ['cli', 'mcp', 'mcpElicit', 'mcpTurn', 'mcpProcess']) samples[series + suffix] = [];
await floor(); // page cache warm for every series alike
cpu.floorChromium.length = 0;
for (let run = 0; run < runs; run += 1) {
  samples.floor.push(await floor());
  // the checkouts take turns going first
  for (const tree of run % 2 ? [...trees].reverse() : trees) {
    samples[`cli${tree.suffix}`].push(await argusRun(tree.cli, tree.suffix === ''));
    samples[`mcp${tree.suffix}`].push(await mcpRun(tree.mcpServer));
    samples[`mcpElicit${tree.suffix}`].push(await mcpRun(tree.mcpServer, 0, { elicitation: {} }));
    samples[`mcpTurn${tree.suffix}`].push(await mcpRun(tree.mcpServer, 1_000));
    samples[`mcpProcess${tree.suffix}`].push(await mcpRun(tree.mcpServer, 0, {}, { ARGUS_MCP_DAEMON: 'process' }));
  }
  samples.node.push(await nodeRun());
}
await server.close();

const base = median(samples.floor);
console.log(
  `cold start to first navigation done, median of ${runs} runs in turns (Chromium ${chrome}; load ${loadavg()[0].toFixed(1)})`,
);
const series = [['floor', 'raw CDP: launch + connect + navigate']];
for (const { suffix } of trees)
  series.push(
    [`cli${suffix}`, `argus goto (daemon + Chromium start)${suffix}`],
    [`mcp${suffix}`, `MCP: spawn server, argus_goto${suffix}`],
    [`mcpElicit${suffix}`, `MCP, client answers elicitations${suffix}`],
    [`mcpTurn${suffix}`, `MCP: argus_goto 1 s after init (call)${suffix}`],
    [`mcpProcess${suffix}`, `MCP, daemon process (ARGUS_MCP_DAEMON=process)${suffix}`],
  );
series.push(['node', 'node -e 0']);
// The floor runs inside this already-running process; the CLI and an MCP server are processes
// started for the occasion, which pay Node's own start (node -e 0) before their first line runs. The
// second column is against that least: the floor plus a Node start.
const nodeStart = median(samples.node);
for (const [name, label] of series) {
  const value = median(samples[name]);
  // the floor itself, node, and the turn series (timed from its call, in a running server) start no process
  const started = name.startsWith('cli') || (name.startsWith('mcp') && !name.startsWith('mcpTurn'));
  const withNode = started ? `  ${(value / (base + nodeStart)).toFixed(2)}x floor + node -e 0` : '';
  console.log(`${label.padEnd(52)} ${ms(value).padStart(10)}  ${(value / base).toFixed(2)}x floor${withNode}`);
}
if (cpu.floorChromium.some((value) => value > 0)) {
  const [chromium, process_, daemon, cliChromium] = [
    cpu.floorChromium,
    cpu.cliProcess,
    cpu.cliDaemon,
    cpu.cliChromium,
  ].map(median);
  console.log(
    `\nCPU of a cold start to the first navigation done (median ms, 10 ms ticks; 2 cores give ${ms(2 * base)} in the floor's time)`,
  );
  console.log(`raw CDP: Chromium ${ms(chromium)}`);
  console.log(
    `argus goto: Chromium ${ms(cliChromium)}, CLI ${ms(process_)}, daemon ${ms(daemon)}; Node processes ${((process_ + daemon) / chromium).toFixed(2)}x of the floor's Chromium`,
  );
}
