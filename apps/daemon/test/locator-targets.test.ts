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

  it('a role the page makes up is targetable; a role no element has still fails at once with the nearest roles', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/custom-roles.html') });
    const hit = () => js<string>('document.getElementById("hit").textContent');
    await h.client.input.click.mutate({ target: 'role=foo' });
    expect(await hit()).toBe('foo');
    // the first token of the attribute, in any case
    await h.client.input.click.mutate({ target: 'role=tile[name="Tile A"]' });
    expect(await hit()).toBe('tile-a');
    // an element with the role, hidden for now, is waited for, not refused
    await js('setTimeout(() => { document.getElementById("late").style.display = ""; }, 800); true');
    expect(await codeOf(h.client.input.click.mutate({ target: 'role=late', timeoutMs: 0 }))).toBe('element_not_found');
    await h.client.input.click.mutate({ target: 'role=late', timeoutMs: 10_000 });
    expect(await hit()).toBe('late');
    expect((await h.client.page.wait.mutate({ selector: 'role=foo[name="Foo widget"]' })).matched).toBe(
      'role=foo[name="Foo widget"]',
    );

    // nobody has these roles: refused before any wait, with suggestions
    const started = performance.now();
    const refused = await h.client.input.click
      .mutate({ target: 'role=buton[name="Save"]', timeoutMs: 5000 })
      .catch((error: unknown) => error as { code: string; message: string });
    expect(refused).toMatchObject({ code: 'invalid_input', message: expect.stringContaining('role=button') });
    expect(await codeOf(h.client.input.click.mutate({ target: 'role=nosuchrole', timeoutMs: 5000 }))).toBe(
      'invalid_input',
    );
    expect(await codeOf(h.client.page.wait.mutate({ selector: 'role=nosuchrole', timeoutMs: 5000 }))).toBe(
      'invalid_input',
    );
    expect(performance.now() - started).toBeLessThan(4000);

    // the scope is the selected frame: its document has no role=foo, though the top one has
    await h.client.dom.frame.mutate({ target: '#plain' });
    try {
      expect(await codeOf(h.client.input.click.mutate({ target: 'role=foo', timeoutMs: 5000 }))).toBe('invalid_input');
    } finally {
      await h.client.dom.frame.mutate({ main: true });
    }
  });
});
