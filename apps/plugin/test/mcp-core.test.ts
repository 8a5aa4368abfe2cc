import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PluginProcess, SERVER, ok, pluginEnv, refOf, startPlugin, stopDaemon } from './helpers.js';

let fixtures: FixtureServer;
let workspace: string;
let stateDir: string;
let plugin: PluginProcess;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  workspace = mkdtempSync(join(tmpdir(), 'argus-core-'));
  stateDir = join(workspace, '.argus');
  plugin = await startPlugin({ args: [SERVER], env: pluginEnv(stateDir), cwd: workspace });
});

afterAll(async () => {
  await plugin?.close();
  await stopDaemon(stateDir);
  await fixtures?.close();
  rmSync(workspace, { recursive: true, force: true });
});

describe('the core profile finishes an ordinary form and navigation task', () => {
  it('fill, select, upload, hover, answer a confirm, follow a link, back, reload, close a tab', async () => {
    const { tools } = await plugin.client.listTools();
    expect(JSON.stringify({ tools }).length / 4).toBeLessThan(2_000);
    writeFileSync(join(workspace, 'cv.txt'), 'Ada Lovelace, analyst');
    await ok(plugin.client, 'argus_goto', { url: fixtures.urlFor('/core-task.html') });
    const form = await ok(plugin.client, 'argus_snapshot', { interactive: true });
    await ok(plugin.client, 'argus_fill', { target: refOf(form, /textbox "Name"/), text: 'Ada' });
    await ok(plugin.client, 'argus_select', { target: refOf(form, /combobox "Plan"/), value: 'Pro' });
    await ok(plugin.client, 'argus_upload', { target: 'label=CV', files: ['cv.txt'] });
    await ok(plugin.client, 'argus_hover', { target: 'text=What is Pro?' });
    expect(await ok(plugin.client, 'argus_text', { target: '#tip-text' })).toContain('Pro has more seats.');

    await ok(plugin.client, 'argus_dialog_dismiss');
    await ok(plugin.client, 'argus_click', { target: '#send' });
    expect(await ok(plugin.client, 'argus_text', { target: '#result' })).toContain('cancelled');
    await ok(plugin.client, 'argus_dialog_accept');
    await ok(plugin.client, 'argus_click', { target: '#send' });
    expect(await ok(plugin.client, 'argus_text', { target: '#result' })).toContain('sent Ada pro cv.txt');

    expect(await ok(plugin.client, 'argus_click', { target: '#next' })).toContain('nav-a.html');
    expect(await ok(plugin.client, 'argus_back')).toContain('core-task.html');
    expect(await ok(plugin.client, 'argus_reload')).toContain('Apply');

    expect(await ok(plugin.client, 'argus_click', { target: '#terms' })).toMatch(/opened tab .*nav-b\.html/);
    // the popup is tab 2 (tab order); the active tab stays 1
    expect(await ok(plugin.client, 'argus_tabs')).toMatch(/^\* 1 {2}[0-9A-F]{4,} {2}Apply.*\n {2}2 {2}[0-9A-F]{4,} /m);
    expect(await ok(plugin.client, 'argus_closetab', { id: '2' })).toMatch(/^closed tab .*; active tab /);
    expect(await ok(plugin.client, 'argus_tabs')).not.toMatch(/^ {2}2 /m);
  });
});
