#!/usr/bin/env node
// A fresh MCP server's snapshot calls by phase of its life: how far its first calls are from the
// steady state, against raw CDP in the same windows. Each round starts a new argus-mcp (official SDK
// client over stdio, hosting its daemon), opens /form.html, makes 3 warm-up calls, then times
// argus_snapshot in three windows: calls 4-53, 54-153, and (after 250 more) 404-503. Each call
// follows a raw CDP `Accessibility.getFullAXTree` on the same page in a Chromium launched here (the
// floor), so load on the machine hits both alike. Per window: the median of each, their ratio, and the
// server's CPU per call (/proc, utime + stime over its calls: what a cold JIT, GC and every layer
// cost). A fresh server runs our path unoptimised at first; an agent's session makes its first calls
// there. With --baseline-tree DIR (another built checkout), its server runs the same rounds in turns.
//   pnpm build && pnpm bench mcp-warmup [--rounds 4] [--baseline-tree DIR]
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import CDP from 'chrome-remote-interface';
import { launchChrome } from '@argus/cdp';
import { startFixtureServer } from '@argus/test-kit';
import { benchOptions } from './lib-args.mjs';
import { processCpuMs } from './lib-proc.mjs';
import { median } from './lib-stats.mjs';

const { rounds, 'baseline-tree': baselineTree } = benchOptions({ rounds: 4, 'baseline-tree': '' });
const pluginDir = fileURLToPath(new URL('../apps/plugin/', import.meta.url));
const require = createRequire(`${pluginDir}package.json`);
const { Client } = await import(require.resolve('@modelcontextprotocol/sdk/client/index.js'));
const { StdioClientTransport } = await import(require.resolve('@modelcontextprotocol/sdk/client/stdio.js'));

const FLAGS = '--proxy-server=http://127.0.0.1:9';
const WARMUP = 3;
/** [label, calls timed, calls made before it and not timed] */
const WINDOWS = [
  ['calls 4-53', 50, 0],
  ['calls 54-153', 100, 0],
  ['calls 404-503', 100, 250],
];
const trees = [
  { name: 'this tree', server: join(pluginDir, 'bin', 'argus-mcp.js') },
  ...(baselineTree ? [{ name: 'baseline', server: join(baselineTree, 'apps', 'plugin', 'bin', 'argus-mcp.js') }] : []),
];

const fixtures = await startFixtureServer();
const url = fixtures.urlFor('/form.html');
const chrome = await launchChrome({ extraFlags: [FLAGS] });
const { port } = new URL(chrome.wsEndpoint);
const raw = await CDP({ host: '127.0.0.1', port, target: await CDP.New({ host: '127.0.0.1', port }) });
await raw.Page.enable();
const loaded = raw.Page.loadEventFired();
await raw.Page.navigate({ url });
await loaded;

const time = async (fn) => {
  const started = performance.now();
  await fn();
  return performance.now() - started;
};
const rawCall = () => raw.Accessibility.getFullAXTree({});
/** per tree, per window: { mcp: medians, raw: medians, cpu: per-call CPU } of each round */
const results = trees.map(() => WINDOWS.map(() => ({ mcp: [], raw: [], cpu: [] })));

async function round(tree, into) {
  const workspace = mkdtempSync(join(tmpdir(), 'argus-warmup-bench-'));
  const client = new Client({ name: 'argus-warmup-bench', version: '0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [tree.server, '--profile', 'core'],
    env: {
      ARGUS_STATE_DIR: join(workspace, '.argus'),
      ARGUS_CHROME_FLAGS: FLAGS,
      PATH: process.env.PATH ?? '',
      ...(process.env.CHROME_PATH ? { CHROME_PATH: process.env.CHROME_PATH } : {}),
      ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
    },
    cwd: workspace,
    stderr: 'inherit',
  });
  try {
    await client.connect(transport);
    const snapshot = async () => {
      const result = await client.callTool({ name: 'argus_snapshot', arguments: {} });
      if (result.isError) throw new Error(JSON.stringify(result.content));
    };
    const goto = await client.callTool({ name: 'argus_goto', arguments: { url } });
    if (goto.isError) throw new Error(JSON.stringify(goto.content));
    for (let i = 0; i < WARMUP; i++) await snapshot();
    for (const [index, [, count, before]] of WINDOWS.entries()) {
      for (let i = 0; i < before; i++) await snapshot();
      const mcp = [];
      const floor = [];
      let cpu = 0;
      for (let i = 0; i < count; i++) {
        floor.push(await time(rawCall));
        // the server's CPU over its own calls only (the raw call does not touch it)
        const cpuBefore = processCpuMs(transport.pid);
        mcp.push(await time(snapshot));
        cpu += processCpuMs(transport.pid) - cpuBefore;
      }
      into[index].mcp.push(median(mcp));
      into[index].raw.push(median(floor));
      into[index].cpu.push(cpu / count);
    }
  } finally {
    await client.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}

try {
  for (let r = 0; r < rounds; r++) for (const [index, tree] of trees.entries()) await round(tree, results[index]);
} finally {
  await raw.close();
  await chrome.kill();
  await fixtures.close();
}

console.log(
  `argus_snapshot of /form.html by phase of a fresh argus-mcp (${WARMUP} warm-up calls), median over ${rounds} rounds of each window's median (load ${loadavg()[0].toFixed(1)})`,
);
console.log('tree        window            raw ms   mcp ms   mcp/raw   server CPU ms/call');
for (const [index, tree] of trees.entries()) {
  for (const [w, [label]] of WINDOWS.entries()) {
    const { mcp, raw: floor, cpu } = results[index][w];
    const m = median(mcp);
    const f = median(floor);
    console.log(
      `${tree.name.padEnd(11)} ${label.padEnd(16)} ${f.toFixed(2).padStart(7)} ${m.toFixed(2).padStart(8)} ${`${(m / f).toFixed(2)}x`.padStart(9)} ${median(cpu).toFixed(2).padStart(20)}`,
    );
  }
}
