import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ArgusClient, createArgusClient } from '@argus/client';
import { type RunningDaemon, startDaemon } from '@argus/daemon';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { type FixtureServer, PickerDriver, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PluginProcess, TEST_CHROME_FLAGS, callTool, pluginEnv, startPlugin, waitFor } from './helpers.js';

// Issue 20: the agent hears of the person's annotations without polling, end to end. The real
// daemon (in this process, so the test can reach its tab's CDP session), argus-mcp over stdio with
// the official SDK client, and annotations made by a person: `inbox.annotate` from another client,
// the picker driven with real mouse and key events.

const HINT = '1 new annotation from the user: argus_inbox to read';

/** Every text block of a tool's reply (the hint is a block of its own, after the result). */
async function reply(plugin: PluginProcess, name: string, args: Record<string, unknown>): Promise<string[]> {
  const result = await callTool(plugin.client, name, args);
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
}

describe('the inbox hint over MCP, real daemon', () => {
  let fixtures: FixtureServer;
  let workspace: string;
  let daemon: RunningDaemon;
  let person: { client: ArgusClient; close: () => void };
  let plugin: PluginProcess;
  const notices: string[] = [];

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    workspace = mkdtempSync(join(tmpdir(), 'argus-mcp-inbox-'));
    const stateDir = join(workspace, '.argus');
    daemon = await startDaemon({
      stateDir,
      workspace,
      env: { ...process.env, ARGUS_CHROME_FLAGS: TEST_CHROME_FLAGS },
    });
    person = createArgusClient({ url: `http://127.0.0.1:${daemon.port}`, token: daemon.token });
    // argus-mcp finds this daemon through the state file in ARGUS_STATE_DIR
    plugin = await startPlugin({ env: pluginEnv(stateDir), cwd: workspace });
    plugin.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      notices.push(String(notification.params.data));
    });
  });

  afterAll(async () => {
    await plugin?.close();
    person?.close();
    await daemon?.stop('test done');
    await fixtures?.close();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  /** The person annotates the agent's tab: the picker, a click on the field, a note, Enter. */
  async function annotate(note: string): Promise<string> {
    const [tab] = (await person.client.tabs.list.query({})).tabs;
    const driver = new PickerDriver(await daemon.services.manager.page(tab!.id));
    const pending = person.client.inbox.annotate.mutate({ tab: tab!.id, timeout: 60 });
    await driver.ready();
    await driver.click(await driver.centre('#user'));
    await driver.type(note);
    await driver.press('Enter');
    const result = await pending;
    expect(result.status).toBe('sent');
    return result.annotation!.id;
  }

  it('an annotation is hinted once, on a reply after it arrived', async () => {
    expect(await reply(plugin, 'argus_goto', { url: fixtures.urlFor('/login.html') })).not.toContain(HINT);
    await annotate('first note');
    // a reply carries the line once the MCP server follows the inbox (it starts after the first call)
    await waitFor(async () => (await reply(plugin, 'argus_eval', { js: '1' })).includes(HINT), 15_000, 'the hint');
    expect(await reply(plugin, 'argus_eval', { js: '2' })).not.toContain(HINT);
    expect((await reply(plugin, 'argus_inbox', {})).join('\n')).toContain('first note');
  });

  it('a new annotation while the agent listens: a notification, the hint on the next reply only', async () => {
    const before = notices.length;
    const id = await annotate('second note');
    await waitFor(() => notices.length > before, 15_000, 'the inbox notification');
    expect(notices.slice(before)).toEqual([HINT]);

    // its own text block, after the tool's result: one line, Argus's words; once
    const next = await reply(plugin, 'argus_eval', { js: '3' });
    expect(next.at(-1)).toBe(HINT);
    expect(next.filter((text) => text.includes('annotation'))).toHaveLength(1);
    expect(await reply(plugin, 'argus_eval', { js: '4' })).not.toContain(HINT);

    const read = (await reply(plugin, 'argus_inbox', {})).join('\n');
    expect(read).toContain('second note');
    expect(read).toContain(id);
    expect((await person.client.inbox.list.query({ unread: true })).unread).toBe(0);
  });
});
