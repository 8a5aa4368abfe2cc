import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER, callTool, pluginEnv, stopDaemon, textOf } from './helpers.js';

/**
 * Issue 11, policy and approvals: a command the policy holds for approval is asked of the person at
 * the MCP client through elicitation (official SDK client, real daemon and Chromium); their answer
 * approves or denies it at the daemon.
 */
describe('approvals through MCP elicitation', () => {
  let fixtures: FixtureServer;
  let workspace: string;
  let stateDir: string;
  let client: Client;
  const questions: string[] = [];
  let answer: ElicitResult = { action: 'accept', content: { approve: true } };

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    workspace = mkdtempSync(join(tmpdir(), 'argus-elicit-'));
    stateDir = join(workspace, '.argus');
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(
      join(stateDir, 'config.json'),
      JSON.stringify({ policy: { approve: { commands: ['goto'], timeoutMs: 30_000 } } }),
      { mode: 0o600 },
    );
    client = new Client({ name: 'elicit-test', version: '0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      questions.push(request.params.message);
      return answer;
    });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [SERVER],
        env: pluginEnv(stateDir),
        cwd: workspace,
        stderr: 'pipe',
      }),
    );
  });

  afterAll(async () => {
    await client?.close();
    await stopDaemon(stateDir);
    await fixtures?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('asks the user; yes runs the command, no fails it with approval_denied', async () => {
    const url = fixtures.urlFor('/form.html');
    const approved = await callTool(client, 'argus_goto', { url });
    expect(approved.isError, textOf(approved)).toBeFalsy();
    expect(textOf(approved)).toContain('/form.html');
    expect(questions).toHaveLength(1);
    expect(questions[0]).toContain('page.goto waits for your approval');
    expect(questions[0]).toContain('policy.approve.commands lists "goto"');

    answer = { action: 'accept', content: { approve: false } };
    const denied = await callTool(client, 'argus_goto', { url: fixtures.urlFor('/nav-a.html') });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toMatch(/^error\[approval_denied\]/);
    expect(questions).toHaveLength(2);

    answer = { action: 'decline' };
    const declined = await callTool(client, 'argus_goto', { url: fixtures.urlFor('/nav-a.html') });
    expect(textOf(declined)).toMatch(/^error\[approval_denied\]/);

    // commands the policy does not hold ask nothing
    await callTool(client, 'argus_snapshot', {});
    expect(questions).toHaveLength(3);
  });
});
