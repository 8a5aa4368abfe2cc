#!/usr/bin/env node
// Reply size of the core MCP tools, in tokens (chars / 4), and the untrusted-content envelope's
// share of it: every call runs on a server with the envelope off (the baseline, same run, same
// page state) and on one with it on; the envelope's share is counted in each reply (its marker
// and notice lines). The first wrapped reply of a session
// states the notice once; later replies should carry only the nonce markers (goal <= 12 tokens).
//   pnpm --filter @argus/plugin build && node bench/mcp-reply-bench.mjs [--json]
// Counts the text blocks an agent reads (structuredContent is for programs).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectToDaemon, isProcessAlive, readState } from '@argus/client';
import { startFixtureServer } from '@argus/test-kit';
import { benchOptions } from './lib-args.mjs';

const OPTIONS = benchOptions({ json: false, verbose: false });
const pluginDir = fileURLToPath(new URL('../apps/plugin/', import.meta.url));
const require = createRequire(`${pluginDir}package.json`);
const { Client } = await import(require.resolve('@modelcontextprotocol/sdk/client/index.js'));
const { StdioClientTransport } = await import(require.resolve('@modelcontextprotocol/sdk/client/stdio.js'));
const SERVER = `${pluginDir}dist/argus-mcp.js`;

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

let rows;
try {
  const off = await run(['--profile', 'core', '--no-untrusted-envelope']);
  const on = await run(['--profile', 'core']);
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
  console.log(JSON.stringify(rows, null, 2));
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
}
