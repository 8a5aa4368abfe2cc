import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callTool, ok, refOf, textOf, usePluginWorkspace } from './helpers.js';

const w = usePluginWorkspace({ prefix: 'argus-core-' });

describe('the core profile finishes an ordinary form and navigation task', () => {
  it('fill, select, upload, hover, answer a confirm, follow a link, back, reload, close a tab', async () => {
    const { tools } = await w.plugin.client.listTools();
    expect(JSON.stringify({ tools }).length / 4).toBeLessThan(2_000);
    writeFileSync(join(w.workspace, 'cv.txt'), 'Ada Lovelace, analyst');
    await ok(w.plugin.client, 'argus_goto', { url: w.fixtures.urlFor('/core-task.html') });
    const form = await ok(w.plugin.client, 'argus_snapshot', { interactive: true });
    await ok(w.plugin.client, 'argus_fill', { target: refOf(form, /textbox "Name"/), text: 'Ada' });
    await ok(w.plugin.client, 'argus_select', { target: refOf(form, /combobox "Plan"/), value: 'Pro' });
    await ok(w.plugin.client, 'argus_upload', { target: 'label=CV', files: ['cv.txt'] });
    await ok(w.plugin.client, 'argus_hover', { target: 'text=What is Pro?' });
    expect(await ok(w.plugin.client, 'argus_text', { target: '#tip-text' })).toContain('Pro has more seats.');

    await ok(w.plugin.client, 'argus_dialog_dismiss');
    await ok(w.plugin.client, 'argus_click', { target: '#send' });
    expect(await ok(w.plugin.client, 'argus_text', { target: '#result' })).toContain('cancelled');
    await ok(w.plugin.client, 'argus_dialog_accept');
    await ok(w.plugin.client, 'argus_click', { target: '#send' });
    expect(await ok(w.plugin.client, 'argus_text', { target: '#result' })).toContain('sent Ada pro cv.txt');

    expect(await ok(w.plugin.client, 'argus_click', { target: '#next' })).toContain('nav-a.html');
    expect(await ok(w.plugin.client, 'argus_back')).toContain('core-task.html');
    expect(await ok(w.plugin.client, 'argus_reload')).toContain('Apply');

    expect(await ok(w.plugin.client, 'argus_click', { target: '#terms' })).toMatch(/opened tab .*nav-b\.html/);
    // the popup is tab 2 (tab order); the active tab stays 1
    expect(await ok(w.plugin.client, 'argus_tabs')).toMatch(
      /^\* 1 {2}[0-9A-F]{4,} {2}Apply.*\n {2}2 {2}[0-9A-F]{4,} /m,
    );
    expect(await ok(w.plugin.client, 'argus_closetab', { id: '2' })).toMatch(/^closed tab .*; active tab /);
    expect(await ok(w.plugin.client, 'argus_tabs')).not.toMatch(/^ {2}2 /m);
  });

  it('a cut eval value says the limit that applied and an argument core accepts, which reads more', async () => {
    await ok(w.plugin.client, 'argus_goto', { url: w.fixtures.urlFor('/form.html') });
    const cut = await ok(w.plugin.client, 'argus_eval', { js: '"x".repeat(150000)' });
    expect(cut).toContain(
      '[truncated at 100000 characters of a 150000-character string: call argus_eval again with the argument maxChars: 400000',
    );
    // following it works in core, though its tool list does not show maxChars
    const whole = await callTool(w.plugin.client, 'argus_eval', { js: '"x".repeat(150000)', maxChars: 400000 });
    expect(whole.structuredContent).not.toHaveProperty('truncated');
    expect(textOf(whole)).not.toContain('[truncated');
  });

  it('a tab is named by its index as a number too, as the description says', async () => {
    await ok(w.plugin.client, 'argus_goto', { url: w.fixtures.urlFor('/form.html') });
    expect(await ok(w.plugin.client, 'argus_tab', { id: 1 })).toMatch(/Sign up/);
    // a number reaches the daemon as the index it is: no such tab, not a type error
    const missing = await callTool(w.plugin.client, 'argus_closetab', { id: 7 });
    expect(textOf(missing)).toMatch(/^error\[tab_not_found\]: /);
    const fraction = await callTool(w.plugin.client, 'argus_tab', { id: 1.5 });
    expect(textOf(fraction)).toMatch(/^error\[invalid_input\]: .*id: /);
  });

  it('a challenge hint never offers argus_handoff, which core lacks, as a tool to call: it says how to get it', async () => {
    const shown = await ok(w.plugin.client, 'argus_goto', { url: w.fixtures.urlFor('/login.html') });
    expect(shown).toMatch(/challenge: login: /);
    expect(shown).toContain(
      "the tool argus_handoff is not in this server's core profile: starting argus-mcp with `--tools core,handoff` or `--profile full` adds it",
    );
  });
});
