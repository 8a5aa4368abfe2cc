import { describe, expect, it } from 'vitest';
import { callTool, ok, textOf, usePluginWorkspace, waitFor } from './helpers.js';

const w = usePluginWorkspace({ prefix: 'argus-dialogs-', args: ['--profile', 'full'] });

/** The text between a reply's untrusted-content markers. */
function inside(text: string): string {
  const match = /<<page ([0-9a-f]{12})>>\n[\s\S]*?<<\/page \1>>/.exec(text);
  if (!match) throw new Error(`No page-content boundary in:\n${text}`);
  return match[0];
}

describe('dialogs an agent did not see open', () => {
  it('come in the next reply, inside the page-content boundary (text and structured copy)', async () => {
    // an alert while the page loads: goto's reply says so, marked as the page's words
    const loaded = await callTool(w.plugin.client, 'argus_goto', {
      url: w.fixtures.urlFor('/dialog-timing.html?greet'),
    });
    expect(inside(textOf(loaded))).toContain('dialog alert "Welcome back" (accepted)');
    expect(loaded.structuredContent).toMatchObject({
      dialogs: expect.stringMatching(/^<<page \w+>>\n.*Welcome back.*\n<<\/page \w+>>$/s),
    });

    // a confirm a timer opens after the click returned: the next snapshot carries it
    await ok(w.plugin.client, 'argus_click', { target: '#late' });
    await waitFor(
      async () => (await ok(w.plugin.client, 'argus_text', { target: '#dialog-result' })).includes('late confirm'),
      5_000,
      'the late confirm',
    );
    const snapshot = await ok(w.plugin.client, 'argus_snapshot', { interactive: true });
    expect(inside(snapshot)).toContain('dialog confirm "Delete everything?" (dismissed)');
    expect(await ok(w.plugin.client, 'argus_snapshot', { interactive: true })).not.toContain('Delete everything?');

    // eval's own confirm; a wait's reply without dialogs carries no page content at all
    expect(inside(await ok(w.plugin.client, 'argus_eval', { js: "confirm('From eval?')" }))).toContain(
      'dialog confirm "From eval?" (dismissed)',
    );
    expect(await ok(w.plugin.client, 'argus_wait', { ms: 1 })).not.toContain('<<page');
  });

  it('arming twice answers two dialogs; the reply says how many are armed', async () => {
    await ok(w.plugin.client, 'argus_goto', { url: w.fixtures.urlFor('/dialog-timing.html') });
    expect(await ok(w.plugin.client, 'argus_dialog_accept')).toMatch(/^the next dialog will be accepted \(1 armed/);
    expect(await ok(w.plugin.client, 'argus_dialog_dismiss')).toMatch(/^dialog 2 from now will be dismissed \(2 armed/);
    const clicked = await ok(w.plugin.client, 'argus_click', { target: '#two' });
    expect(inside(clicked)).toMatch(
      /dialog confirm "First question\?" \(accepted\)\ndialog confirm "Second question\?" \(dismissed\)/,
    );
    expect(await ok(w.plugin.client, 'argus_text', { target: '#dialog-result' })).toContain('two: true false');
  });
});
