import { describe, expect, it } from 'vitest';
import { callTool, ok, textOf, usePluginWorkspace, waitFor } from './helpers.js';

const w = usePluginWorkspace({ prefix: 'argus-dialogs-', args: ['--profile', 'full'] });

/**
 * How many dialogs the tab's log holds, as a debug trace counts them: every read of the page (argus_is
 * too) reports the dialogs no reply has reported yet, and the dialog log marks them reported, so
 * polling either would take the report a test looks for. A trace counts them and reports none.
 */
async function dialogsLogged(): Promise<number> {
  const trace = await ok(w.plugin.client, 'argus_debug_trace');
  const count = /(\d+) dialogs$/m.exec(trace)?.[1];
  if (count === undefined) throw new Error(`No dialog count in:\n${trace}`);
  return Number(count);
}

/**
 * Clicks the button whose confirm a timer opens 300 ms later and waits until the tab has answered
 * it (polling a debug trace's count), so the confirm is still unreported when this returns.
 */
async function lateConfirm(): Promise<void> {
  const before = await dialogsLogged();
  await ok(w.plugin.client, 'argus_click', { target: '#late' });
  await waitFor(async () => (await dialogsLogged()) > before, 5_000, 'the late confirm');
}

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

    // a confirm a timer opens after the click returned: the agent reads the text next, and a read says so, once
    await ok(w.plugin.client, 'argus_click', { target: '#late' });
    const reads: string[] = [];
    await waitFor(
      async () => {
        reads.push(await ok(w.plugin.client, 'argus_text', { target: '#dialog-result' }));
        return reads.at(-1)?.includes('late confirm') ?? false;
      },
      5_000,
      'the late confirm',
    );
    const told = reads.filter((read) => read.includes('Delete everything?'));
    expect(told).toHaveLength(1);
    expect(inside(told[0] ?? '')).toContain('dialog confirm "Delete everything?" (dismissed)');
    expect(await ok(w.plugin.client, 'argus_snapshot', { interactive: true })).not.toContain('Delete everything?');

    // or the next snapshot, when that comes first
    await lateConfirm();
    const snapshot = await ok(w.plugin.client, 'argus_snapshot', { interactive: true });
    expect(inside(snapshot)).toContain('dialog confirm "Delete everything?" (dismissed)');
    expect(await ok(w.plugin.client, 'argus_snapshot', { interactive: true })).not.toContain('Delete everything?');

    // eval's own confirm; a wait's reply without dialogs carries no page content at all
    expect(inside(await ok(w.plugin.client, 'argus_eval', { js: "confirm('From eval?')" }))).toContain(
      'dialog confirm "From eval?" (dismissed)',
    );
    expect(await ok(w.plugin.client, 'argus_wait', { ms: 1 })).not.toContain('<<page');
  });

  it('a screenshot reply carries them beside the image, inside the boundary, once', async () => {
    await ok(w.plugin.client, 'argus_goto', { url: w.fixtures.urlFor('/dialog-timing.html') });
    await lateConfirm();
    const shot = await callTool(w.plugin.client, 'argus_screenshot');
    expect(shot.isError).toBeFalsy();
    expect(shot.content.some((block) => block.type === 'image')).toBe(true);
    expect(inside(textOf(shot))).toContain('dialog confirm "Delete everything?" (dismissed)');
    expect(shot.structuredContent).toMatchObject({
      dialogs: expect.stringMatching(/^<<page \w+>>\n.*Delete everything\?.*\n<<\/page \w+>>$/s),
    });
    const again = await callTool(w.plugin.client, 'argus_screenshot');
    expect(textOf(again)).not.toContain('<<page');
    expect(again.structuredContent).not.toHaveProperty('dialogs');
  });

  it('a list or document reply (argus_accessibility) puts them first, inside the boundary, once', async () => {
    await ok(w.plugin.client, 'argus_goto', { url: w.fixtures.urlFor('/dialog-timing.html') });
    await lateConfirm();
    const tree = await callTool(w.plugin.client, 'argus_accessibility');
    expect(tree.isError).toBeFalsy();
    // the dialog line before the tree: a long tree must not bury it
    const told = inside(textOf(tree)).split('\n');
    const line = told.indexOf('dialog confirm "Delete everything?" (dismissed)');
    expect(line).toBeGreaterThan(0);
    expect(told.findIndex((text) => text.includes('Dialog timing'))).toBeGreaterThan(line);
    expect(tree.structuredContent).toMatchObject({
      dialogs: expect.stringMatching(/^<<page \w+>>\n.*Delete everything\?.*\n<<\/page \w+>>$/s),
    });
    const again = await callTool(w.plugin.client, 'argus_accessibility');
    expect(textOf(again)).not.toContain('Delete everything?');
    expect(again.structuredContent).not.toHaveProperty('dialogs');
  });

  it('a one-line reply (argus_is) puts them after its line, inside the boundary, once', async () => {
    await ok(w.plugin.client, 'argus_goto', { url: w.fixtures.urlFor('/dialog-timing.html') });
    await lateConfirm();
    const state = await callTool(w.plugin.client, 'argus_is', { target: '#late', state: 'visible' });
    expect(state.isError).toBeFalsy();
    expect(inside(textOf(state)).split('\n').slice(1, -1)).toEqual([
      'true',
      'dialog confirm "Delete everything?" (dismissed)',
    ]);
    expect(state.structuredContent).toMatchObject({
      value: true,
      dialogs: expect.stringMatching(/^<<page \w+>>\n.*Delete everything\?.*\n<<\/page \w+>>$/s),
    });
    // nothing more to report: the answer alone (still in a boundary: the element it names is page text)
    const again = await callTool(w.plugin.client, 'argus_is', { target: '#late', state: 'visible' });
    expect(inside(textOf(again)).split('\n').slice(1, -1)).toEqual(['true']);
    expect(again.structuredContent).not.toHaveProperty('dialogs');
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
