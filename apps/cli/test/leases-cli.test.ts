import { type Connection, connectToDaemon } from '@argus/client';
import { ArgusError } from '@argus/protocol/errors';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, useCli } from './cli-harness.js';

// Issue 19, many clients: a CLI process, two typed tRPC scripts and an MCP agent (the official SDK
// client over stdio) drive one daemon at once. The cap is set below the number of queue keys in
// play (two tabs and the structure key), so commands also wait for slots.
process.env.ARGUS_MAX_PARALLEL_COMMANDS = '2';

const cli = useCli('argus-leases-');
const clients: Connection[] = [];
const agents: Client[] = [];
let tabs: string[] = [];

async function script(name: string, extra: Parameters<typeof connectToDaemon>[0] = {}): Promise<Connection> {
  const connection = await connectToDaemon({ stateDir: cli.stateDir, cwd: cli.workspace, name, ...extra });
  clients.push(connection);
  return connection;
}

/** An MCP agent: `argus mcp` spawned by the official SDK client, as an agent's MCP client does. */
async function agent(): Promise<{ client: Client; pid: number }> {
  const pass = (name: string) => (process.env[name] ? { [name]: process.env[name] } : {});
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--profile', 'full'],
    env: {
      ARGUS_STATE_DIR: cli.stateDir,
      ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9',
      ...pass('CHROME_PATH'),
      ...pass('TMPDIR'),
      ...pass('PATH'),
    },
    cwd: cli.workspace,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'argus-leases-test', version: '0' });
  await client.connect(transport);
  agents.push(client);
  return { client, pid: transport.pid! };
}

async function tool(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

const textOf = (result: CallToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

/** Appends `entry` to the tab's page-side log. */
const push = (entry: string) => `(window.__log ||= []).push(${JSON.stringify(entry)})`;

async function pageLog(connection: Connection, tab: string): Promise<string[]> {
  return (await connection.client.page.eval.mutate({ tab, js: 'window.__log || []' })).value as string[];
}

beforeAll(async () => {
  // the CLI starts the daemon (and Chromium), then opens the two tabs everyone hammers
  const first = await cli.argus('--json', 'newtab', cli.server.urlFor('/nav-a.html'));
  expect(first.code, first.stderr).toBe(0);
  const second = await cli.argus('--json', 'newtab', cli.server.urlFor('/nav-b.html'));
  expect(second.code, second.stderr).toBe(0);
  tabs = [JSON.parse(first.stdout).id as string, JSON.parse(second.stdout).id as string];
});

afterAll(async () => {
  for (const client of agents) await client.close().catch(() => undefined);
  for (const connection of clients) connection.close();
});

describe('four clients on two tabs', () => {
  it('runs each client’s commands on each tab in its send order, none lost, none doubled', async () => {
    const ws = await script('script-ws', { transport: 'ws', WebSocket });
    const batch = await script('script-batch', { transport: 'batch' });
    const mcp = (await agent()).client;
    const counts = { 'script-ws': 15, 'script-batch': 15, mcp: 8, cli: 4 };

    const runs = [
      // one WebSocket, every call sent before any answer: FIFO of one socket's pipelined commands
      Promise.all(
        tabs.flatMap((tab) =>
          Array.from({ length: counts['script-ws'] }, (_, index) =>
            ws.client.page.eval.mutate({ tab, js: push(`script-ws:${index}`) }),
          ),
        ),
      ),
      // HTTP (batched), each call after the last answered, both tabs at once
      ...tabs.map(async (tab) => {
        for (let index = 0; index < counts['script-batch']; index++)
          await batch.client.page.eval.mutate({ tab, js: push(`script-batch:${index}`) });
      }),
      // the MCP agent, one tool call after another, alternating tabs
      (async () => {
        for (let index = 0; index < counts.mcp; index++) {
          for (const tab of tabs) {
            const result = await tool(mcp, 'argus_eval', { tab, js: push(`mcp:${index}`) });
            expect(result.isError, textOf(result)).toBeFalsy();
          }
        }
      })(),
      // CLI processes, one after another, alternating tabs
      (async () => {
        for (let index = 0; index < counts.cli; index++) {
          for (const tab of tabs) {
            const result = await cli.argus('eval', '--tab', tab, push(`cli:${index}`));
            expect(result.code, result.stderr).toBe(0);
          }
        }
      })(),
    ];
    await Promise.all(runs);

    const probe = await script('probe');
    for (const tab of tabs) {
      const log = await pageLog(probe, tab);
      expect(log).toHaveLength(Object.values(counts).reduce((sum, count) => sum + count, 0));
      expect(new Set(log).size).toBe(log.length);
      for (const [client, count] of Object.entries(counts)) {
        const own = log.filter((entry) => entry.startsWith(`${client}:`));
        expect(own, `${client} on ${tab}`).toEqual(Array.from({ length: count }, (_, index) => `${client}:${index}`));
      }
    }
    const status = await probe.client.daemon.status.query({});
    expect(status.scheduler).toEqual({ running: expect.any(Number), waiting: 0, maxParallel: 2 });
  });
});

describe('tab leases across clients', () => {
  it('the CLI takes a lease, presents it with --lease, and others are refused until it releases', async () => {
    const [tab] = tabs as [string];
    const taken = await cli.argus('--json', 'tab', 'lease', '--tab', tab, '--ttl', '2m');
    expect(taken.code, taken.stderr).toBe(0);
    const { lease, holder } = JSON.parse(taken.stdout) as { lease: string; holder: string };
    expect(holder).toBe('cli');

    const refused = await cli.argus('eval', '--tab', tab, push('no-lease'));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/error\[tab_leased\].*leased by cli/);
    // reads still work
    expect((await cli.argus('text', '--tab', tab)).code).toBe(0);

    expect((await cli.argus('--lease', lease, 'eval', '--tab', tab, push('with-lease'))).code).toBe(0);
    // text names the tab by its short id, as `argus tabs` lists it
    const { tabs: open } = JSON.parse((await cli.argus('tabs', '--json')).stdout) as {
      tabs: Array<{ id: string; shortId: string }>;
    };
    const short = open.find((each) => each.id === tab)?.shortId;
    const listed = await cli.argus('tab', 'leases');
    expect(listed.stdout).toContain(`tab ${short}  held by cli`);
    expect(listed.stdout).not.toContain(lease);
    expect((await cli.argus('status')).stdout).toMatch(/lease +tab .* held by cli/);

    const other = await script('other-script');
    const error = await other.client.page.eval.mutate({ tab, js: push('other') }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ArgusError);
    expect((error as ArgusError).code).toBe('tab_leased');

    expect((await cli.argus('tab', 'release', lease)).stdout).toContain(`released the lease on tab ${short}`);
    await other.client.page.eval.mutate({ tab, js: push('other') });
  });

  it("an MCP agent's lease holds for its own calls and ends when the agent disconnects; a waiting CLI write then runs", async () => {
    const [, tab] = tabs as [string, string];
    const { client: mcp } = await agent();
    // a TTL far past the CLI's wait: only the release on disconnect can let the CLI's write through
    const taken = await tool(mcp, 'argus_tab_lease', { tab, ttl: '10m' });
    expect(taken.isError, textOf(taken)).toBeFalsy();
    // the MCP server presents the id for its agent
    const own = await tool(mcp, 'argus_eval', { tab, js: push('mcp-held') });
    expect(own.isError, textOf(own)).toBeFalsy();
    const refused = await cli.argus('eval', '--tab', tab, push('cli-refused'));
    expect(refused.stderr).toMatch(/error\[tab_leased\].*leased by mcp-\d+-[0-9a-f]+/);

    const waiting = cli.argus('--lease-wait', '60s', 'eval', '--tab', tab, push('cli-after-disconnect'));
    await mcp.close();
    const result = await waiting;
    expect(result.code, result.stderr).toBe(0);
    const probe = await script('probe-2');
    expect((await probe.client.tabs.leases.query({})).leases).toEqual([]);
    expect((await pageLog(probe, tab)).slice(-2)).toEqual(['mcp-held', 'cli-after-disconnect']);
  });
});
