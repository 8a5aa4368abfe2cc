import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type Connection, connectToDaemon } from '@argus/client';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonEntry } from '../src/daemon-link.js';
import { callTool, ok, pluginEnv, refOf, stopDaemon, textOf } from './helpers.js';

// MCP over Streamable HTTP on the daemon's tunnel listener, with the official SDK client: the tools
// are the shared token's allow-list, and goto/snapshot/click run on the agent's own tab.
let fixtures: FixtureServer;
let workspace: string;
let stateDir: string;
let operator: Connection;

async function mcpClient(url: string, token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'remote-agent-test', version: '0' });
  await client.connect(transport);
  return client;
}

beforeAll(async () => {
  fixtures = await startFixtureServer();
  workspace = mkdtempSync(join(tmpdir(), 'argus-mcp-http-'));
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
  await stopDaemon(stateDir);
  await fixtures?.close();
  rmSync(workspace, { recursive: true, force: true });
});

describe('MCP over Streamable HTTP on the tunnel', () => {
  it("lists only the allowed tools and drives the agent's own tab with goto, snapshot and click", async () => {
    await operator.client.page.goto.mutate({ url: fixtures.urlFor('/form.html') });
    const shared = await operator.client.token.share.mutate({ name: 'mcp-agent' });
    const agent = await mcpClient(shared.url, shared.token);
    try {
      const names = (await agent.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(
        expect.arrayContaining(['argus_goto', 'argus_snapshot', 'argus_click', 'argus_text', 'argus_tabs']),
      );
      expect(names).not.toContain('argus_eval');
      expect(names).not.toContain('argus_cookies');
      expect(names).not.toContain('argus_pdf');
      const screenshot = (await agent.listTools()).tools.find((tool) => tool.name === 'argus_screenshot')!;
      expect(Object.keys(screenshot.inputSchema.properties ?? {})).not.toContain('path');

      await ok(agent, 'argus_goto', { url: fixtures.urlFor('/buttons.html') });
      const snapshot = await ok(agent, 'argus_snapshot', { interactive: true });
      await ok(agent, 'argus_click', { target: refOf(snapshot, /button "Increment"/) });
      expect(await ok(agent, 'argus_text', { target: '#count' })).toContain('Count: 1');
      // its own tab only: the operator's form page is not listed, the operator's tab still shows it
      const tabs = await ok(agent, 'argus_tabs');
      expect(tabs).toContain('/buttons.html');
      expect(tabs).not.toContain('/form.html');
      expect((await operator.client.page.url.query({})).url).toContain('/form.html');
      // a tool outside the list is unknown to it
      const denied = await callTool(agent, 'argus_eval', { js: '1' });
      expect(denied.isError).toBe(true);
      expect(textOf(denied)).toContain('Unknown tool');
    } finally {
      await agent.close();
    }
  });

  it('an explicit allow-list is exactly the tool list; the root token and a revoked token are refused', async () => {
    const narrow = await operator.client.token.share.mutate({ name: 'mcp-narrow', commands: ['goto', 'snapshot'] });
    const agent = await mcpClient(narrow.url, narrow.token);
    expect((await agent.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['argus_goto', 'argus_snapshot']);
    await agent.close();

    await expect(mcpClient(narrow.url, operator.state.token)).rejects.toThrow(/401|nauthorized/);
    await operator.client.token.revoke.mutate({ id: narrow.id });
    await expect(mcpClient(narrow.url, narrow.token)).rejects.toThrow(/401|nauthorized/);
  });
});
