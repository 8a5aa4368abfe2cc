import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeOf, refOf, useHarness } from './harness.js';

/** Targets through the daemon's API: whole matches win, never-matching targets fail at once, --scope takes any target. */

const h = useHarness();

const PAGE = `<!doctype html><title>Targets</title>
<header><a href="/home">Home</a></header>
<nav aria-label="Primary"><a href="/x">Nav X</a></nav>
<main><label>Languages <input id="languages"></label><label>Age <input id="age"></label>
<button onclick="window.hit = 'save'">Save</button></main>`;

const js = async <T>(code: string): Promise<T> => (await h.client.page.eval.mutate({ js: code })).value as T;

describe('targets', () => {
  it('label=Age fills Age, a ref in capitals is the ref, unknown roles and frame refs fail at once, --scope takes a landmark', async () => {
    writeFileSync(join(h.workspace, 'targets.html'), PAGE);
    await h.client.dom.loadHtml.mutate({ file: 'targets.html' });
    await h.client.input.fill.mutate({ target: 'label=Age', text: '42' });
    expect(await js('document.getElementById("age").value')).toBe('42');
    expect(await js('document.getElementById("languages").value')).toBe('');

    const { text } = await h.client.snapshot.take.mutate({ interactive: true });
    const save = refOf(text, /button "Save"/);
    await h.client.input.click.mutate({ target: save.toUpperCase() });
    expect(await js('window.hit')).toBe('save');
    expect(await codeOf(h.client.input.click.mutate({ target: 'role=nosuchrole' }))).toBe('invalid_input');
    expect(await codeOf(h.client.input.click.mutate({ target: 'f9e1' }))).toBe('ref_not_found');

    expect((await h.client.snapshot.take.mutate({ scope: 'navigation "Primary"' })).text).toMatch(
      /^navigation "Primary"\n {2}link "Nav X" e\d+$/,
    );
    expect((await h.client.snapshot.take.mutate({ scope: 'banner' })).text).toMatch(/^banner\n {2}link "Home" e\d+$/);
    expect((await h.client.snapshot.take.mutate({ scope: 'role=button[name="Save"]' })).text).toBe(
      `button "Save" ${save}`,
    );
  });
});
