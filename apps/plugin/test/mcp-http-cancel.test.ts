import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type Connection, connectToDaemon } from '@argus/client';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonEntry } from '../src/daemon-link.js';
import { ok, pluginEnv, stopDaemon, waitFor } from './helpers.js';

/**
 * A remote agent on the tunnel's MCP endpoint (Streamable HTTP, the official SDK client) that gives
 * up on a call stops the command at the daemon, as an agent on stdio does: by MCP
 * `notifications/cancelled` (the SDK sends it, in a POST of its own, when the request's signal
 * aborts) and by dropping the HTTP request that carries the call (closing its client).
 */
const WAIT_MS = 30_000;

let fixtures: FixtureServer;
let workspace: string;
let stateDir: string;
let operator: Connection;

/** How each tools/call POST of the tests was answered (its HTTP status), by the call's JSON-RPC id. */
const toolCallStatus = new Map<unknown, number>();

async function mcpClient(url: string, token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      const sent = typeof init?.body === 'string' ? (JSON.parse(init.body) as { id?: unknown; method?: unknown }) : {};
      if (sent.method === 'tools/call') toolCallStatus.set(sent.id, response.status);
      return response;
    },
  });
  const client = new Client({ name: 'remote-agent-cancel-test', version: '0' });
  await client.connect(transport);
  return client;
}

beforeAll(async () => {
  fixtures = await startFixtureServer();
  workspace = mkdtempSync(join(tmpdir(), 'argus-mcp-http-cancel-'));
  stateDir = join(workspace, '.argus');
  // the daemon as the CLI and the plugin start it (the plugin's daemon-main: daemon + MCP endpoint)
  operator = await connectToDaemon({
    autoStart: true,
    daemonEntry: daemonEntry(),
    stateDir,
    cwd: workspace,
    env: { ...process.env, ...pluginEnv(stateDir) },
  });
});

afterAll(async () => {
  operator?.close();
  if (stateDir) await stopDaemon(stateDir);
  await fixtures?.close();
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

/** Commands running at the daemon (a tab command holds a scheduler slot while it runs). */
async function running(): Promise<number> {
  return (await operator.client.daemon.status.query({})).scheduler?.running ?? 0;
}

/** The journal's page.wait rows, newest last. */
async function waits() {
  const { entries } = await operator.client.journal.list.query({ limit: 50 });
  return entries.filter((entry) => entry.command === 'page.wait');
}

/** Starts a 30 s argus_wait and resolves once the daemon runs it; `signal` cancels the MCP request. */
async function startWait(agent: Client, signal?: AbortSignal) {
  expect(await running()).toBe(0);
  const before = (await waits()).length;
  const call = agent.callTool({ name: 'argus_wait', arguments: { ms: WAIT_MS } }, undefined, {
    ...(signal ? { signal } : {}),
    timeout: 2 * WAIT_MS,
  });
  // the call's own rejection is checked by each test; never an unhandled one meanwhile
  call.catch(() => undefined);
  await waitFor(async () => (await running()) > 0, 15_000, 'argus_wait to run at the daemon');
  return { call, before, started: performance.now() };
}

/** The wait ends in the journal as cancelled, well before its 30 s. */
async function expectCancelled(before: number, started: number): Promise<void> {
  await waitFor(async () => (await waits()).length > before, WAIT_MS / 3, 'the cancelled wait in the journal');
  expect(performance.now() - started).toBeLessThan(WAIT_MS / 3);
  const row = (await waits()).at(-1)!;
  expect(JSON.parse(row.input ?? '{}')).toMatchObject({ ms: WAIT_MS });
  expect(row).toMatchObject({ ok: false, errorCode: 'cancelled' });
  expect(row.durationMs).toBeLessThan(WAIT_MS / 3);
  await waitFor(async () => (await running()) === 0, 5_000, 'no command running');
}

describe('cancelling a tool call on the tunnel MCP endpoint', () => {
  it('notifications/cancelled stops the wait, and the next call on the tab runs at once', async () => {
    const shared = await operator.client.token.share.mutate({ name: 'mcp-cancel' });
    const agent = await mcpClient(shared.url, shared.token);
    const clientErrors: Error[] = [];
    agent.onerror = (error) => clientErrors.push(error);
    try {
      await ok(agent, 'argus_goto', { url: fixtures.urlFor('/form.html') });
      const cancel = new AbortController();
      const { call, before, started } = await startWait(agent, cancel.signal);
      cancel.abort('the agent moved on');
      await expect(call).rejects.toThrow(/moved on/);
      // queued behind the wait on the same tab: it runs once the wait has ended
      expect(await ok(agent, 'argus_text', { target: 'h1' })).toBeTruthy();
      await expectCancelled(before, started);
      // the cancelled call's POST was ended, with no answer for it (202, no body): it does not stay
      // open until the client goes, and the client has no answer to a call it no longer awaits
      expect([...toolCallStatus.values()]).toContain(202);
      expect(clientErrors).toEqual([]);
    } finally {
      await agent.close();
    }
  });

  it('a dropped HTTP request (the client closes) stops the wait', async () => {
    const shared = await operator.client.token.share.mutate({ name: 'mcp-drop' });
    const agent = await mcpClient(shared.url, shared.token);
    await ok(agent, 'argus_goto', { url: fixtures.urlFor('/form.html') });
    const { call, before, started } = await startWait(agent);
    // closing the SDK client aborts its pending fetch: the POST carrying the call is gone
    await agent.close();
    await expect(call).rejects.toThrow();
    await expectCancelled(before, started);
  });
});
