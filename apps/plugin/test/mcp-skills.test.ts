import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PluginProcess,
  SERVER,
  callTool,
  ok,
  pluginEnv,
  startPlugin,
  stopDaemon,
  textOf,
  waitFor,
} from './helpers.js';

// Issue 19: an agent records a flow with the skill tools, and the flow comes back as one tool,
// `skill_login`, whose input schema is the skill's parameters.

let fixtures: FixtureServer;
let workspace: string;
let stateDir: string;
let plugin: PluginProcess;
let listChanged = 0;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  workspace = mkdtempSync(join(tmpdir(), 'argus-mcp-skills-'));
  stateDir = join(workspace, '.argus');
  plugin = await startPlugin({
    args: [SERVER, '--profile', 'full'],
    // HOME: the user tier of this test, not the machine's
    env: { ...pluginEnv(stateDir), HOME: workspace, ARGUS_PRELAUNCH: '0' },
    cwd: workspace,
  });
  plugin.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    listChanged++;
  });
});

afterAll(async () => {
  await plugin?.close();
  await stopDaemon(stateDir);
  await fixtures?.close();
  rmSync(workspace, { recursive: true, force: true });
});

describe('skills as MCP tools (SDK client, real daemon and Chromium)', () => {
  it('records a login through the tools, then lists and runs it as skill_login', async () => {
    const before = (await plugin.client.listTools()).tools.map((tool) => tool.name);
    expect(before).not.toContain('skill_login');
    // the bundled example is for the demo page, not an agent's tool
    expect(before.filter((name) => name.startsWith('skill_'))).toEqual([]);
    // listing tools starts no daemon (skills are read from their files; ARGUS_PRELAUNCH=0: no prestart)
    expect(existsSync(join(stateDir, 'daemon.json'))).toBe(false);
    expect(plugin.client.getServerCapabilities()?.tools?.listChanged).toBe(true);

    await ok(plugin.client, 'argus_skill_record', { name: 'login', description: 'Sign in to the fixture site' });
    await ok(plugin.client, 'argus_goto', { url: fixtures.urlFor('/login.html') });
    await ok(plugin.client, 'argus_fill', { target: 'label=Username', text: 'jane' });
    await ok(plugin.client, 'argus_fill', { target: 'label=Password', text: 'hunter2' });
    await ok(plugin.client, 'argus_click', { target: 'role=button[name="Sign in"]' });
    expect(await ok(plugin.client, 'argus_text', { target: 'h1' })).toContain('Signed in as jane');
    expect(await ok(plugin.client, 'argus_skill_save')).toContain('saved skill login');
    expect(readFileSync(join(stateDir, 'skills', 'login.json'), 'utf8')).not.toContain('hunter2');

    await waitFor(() => listChanged > 0, 5_000, 'notifications/tools/list_changed');
    const { tools } = await plugin.client.listTools();
    const login = tools.find((tool) => tool.name === 'skill_login');
    expect(login?.description).toContain('Sign in to the fixture site');
    expect(login?.inputSchema).toMatchObject({
      type: 'object',
      properties: { username: { type: 'string' }, password: { type: 'string' } },
      required: ['username', 'password'],
    });
    expect(
      String((login?.inputSchema.properties as Record<string, { description: string }>).password?.description),
    ).toContain('secret');

    // from another page: the tool opens the start URL itself
    await ok(plugin.client, 'argus_goto', { url: fixtures.urlFor('/form.html') });
    const replay = await ok(plugin.client, 'skill_login', { username: 'ada', password: 'hunter2' });
    expect(replay).toMatch(/skill login \(project\): 3 steps in/);
    expect(await ok(plugin.client, 'argus_text', { target: 'h1' })).toContain('Signed in as ada');

    const missing = await callTool(plugin.client, 'skill_login', { username: 'ada' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/skill_params_missing.*password/s);
  });
});
