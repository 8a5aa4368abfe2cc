#!/usr/bin/env node
// Tool-definition cost of the Argus MCP server per profile: spawns the built server
// (apps/plugin/dist/argus-mcp.js) with the official MCP client and measures the serialized
// `tools/list` result in tokens (chars / 4). Target: core <= 2,000 tokens.
//   pnpm --filter @argus/plugin build && node bench/plugin-tools.mjs [--json]
// No daemon or browser starts: listing tools never touches the daemon.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { benchOptions } from './lib-args.mjs';

const pluginDir = fileURLToPath(new URL('../apps/plugin/', import.meta.url));
// The SDK is a dependency of apps/plugin; resolve it from there (bench has no package of its own for it).
const require = createRequire(`${pluginDir}package.json`);
const { Client } = await import(require.resolve('@modelcontextprotocol/sdk/client/index.js'));
const { StdioClientTransport } = await import(require.resolve('@modelcontextprotocol/sdk/client/stdio.js'));

const SERVER = `${pluginDir}bin/argus-mcp.js`;
const BUDGET = { core: 2_000 };

async function measure(label, args) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER, ...args], stderr: 'inherit' });
  const client = new Client({ name: 'argus-bench', version: '0' });
  const started = performance.now();
  await client.connect(transport);
  const result = await client.listTools();
  const ms = performance.now() - started;
  await client.close();
  const chars = JSON.stringify(result).length;
  const perTool = result.tools.map((tool) => ({ name: tool.name, tokens: Math.ceil(JSON.stringify(tool).length / 4) }));
  return {
    profile: label,
    tools: result.tools.length,
    chars,
    tokens: Math.ceil(chars / 4),
    budget: BUDGET[label] ?? null,
    startAndListMs: Math.round(ms),
    perTool,
  };
}

const rows = [
  await measure('core', ['--profile', 'core']),
  await measure('full', ['--profile', 'full']),
  await measure('click,fill,snapshot', ['--tools', 'click,fill,snapshot']),
];

if (benchOptions({ json: false }).json) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  console.log('profile               tools   chars  tokens  budget  start+list');
  for (const row of rows) {
    const verdict =
      row.budget === null ? '-' : row.tokens <= row.budget ? `<= ${row.budget} ok` : `> ${row.budget} OVER`;
    console.log(
      `${row.profile.padEnd(20)} ${String(row.tools).padStart(6)} ${String(row.chars).padStart(7)} ${String(row.tokens).padStart(7)}  ${verdict.padEnd(10)} ${row.startAndListMs} ms`,
    );
  }
  const coreRow = rows.find((row) => row.profile === 'core');
  console.log(`\nper tool (core profile, tokens): ${coreRow.perTool.map((t) => `${t.name} ${t.tokens}`).join(', ')}`);
  const full = rows.find((row) => row.profile === 'full');
  console.log(`per tool (full profile, tokens): ${full.perTool.map((t) => `${t.name} ${t.tokens}`).join(', ')}`);
  const core = rows.find((row) => row.profile === 'core');
  console.log(`core/full ratio: ${(core.tokens / full.tokens).toFixed(2)}`);
}
