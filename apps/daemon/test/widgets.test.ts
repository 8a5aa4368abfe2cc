import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refOf, useHarness } from './harness.js';

const h = useHarness();

const snapshotI = async () => (await h.client.snapshot.take.mutate({ interactive: true })).text;
const status = async () => (await h.client.read.text.query({ target: '#status' })).text;

describe('widgets an agent can operate from one snapshot -i (issue 12 §2-§5)', () => {
  it('a todo list: unnamed row controls carry their row, in -i too', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/todo.html') });
    const text = await snapshotI();
    expect(text).toMatch(/checkbox \(class: toggle, in "pay the gas bill"\) e\d+/);
    expect(text).toMatch(/button \(class: destroy, in "buy milk"\) e\d+/);
    await h.client.input.click.mutate({ target: refOf(text, /button \(class: destroy, in "buy milk"\)/) });
    expect(await status()).toBe('removed buy milk');
  });

  it('a jQuery UI date picker: prev/next (no href, delegated handler, text pushed away) get refs; the month title is kept', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/datepicker.html') });
    const text = await snapshotI();
    expect(text).toContain('text: May 2026');
    expect(text).not.toContain('text: Prev');
    await h.client.input.click.mutate({ target: refOf(text, /"Next"/) });
    const after = await snapshotI();
    expect(after).toContain('text: June 2026');
    await h.client.input.click.mutate({ target: refOf(after, /"Prev"/) });
    const back = await snapshotI();
    expect(back).toContain('text: May 2026');
    await h.client.input.click.mutate({ target: refOf(back, /"14"/) });
    expect((await h.client.snapshot.take.mutate({ interactive: true })).text).toMatch(
      /textbox "Date" e\d+: 2026-05-14/,
    );
  });

  it('a feed: icon-only controls styled as pointers get refs, told apart by their post', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/feed.html') });
    const text = await snapshotI();
    expect(text).toMatch(/\(class: like, in "@maria"\) e\d+/);
    expect(text).toMatch(/"Share" \(in "@tom"\) e\d+/);
    // an icon font's ligature is a hint, not a name
    expect(text).toMatch(/\(icon: expand_more\) e\d+/);
    await h.client.input.click.mutate({ target: refOf(text, /\(class: like, in "@tom"\)/) });
    expect(await status()).toBe('like @tom');
  });

  it('a table of records and paginated results: caption and header once, same-named buttons by row, page position, prices', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/records.html') });
    const full = (await h.client.snapshot.take.mutate({})).text;
    expect(full).toContain('row: Item | Price | Action');
    expect(full.match(/Open orders/g)).toHaveLength(1);
    const text = await snapshotI();
    expect(text).toContain('table "Open orders"');
    expect(text).toContain('row: Item | Price | Action');
    expect(text).toMatch(/"Edit" \(in "Green mug"\) e\d+/);
    expect(text).toContain('text: page 2 of 5');
    expect(text).toContain('text: 129 €');
    // options of an open listbox keep names that tell them apart
    expect(text).toContain('"Steamboat Springs, Colorado, United States"');
    expect(text).toContain('"Steamboat Springs Airport, Colorado, United States"');
    // a name no other control shares carries no context
    expect(text).toMatch(/link "Next" e\d+/);
  });

  it('a form: fields without a name take the label beside them, a file input says so; an open modal comes first, the page behind it inert', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/modal-form.html') });
    const text = await snapshotI();
    expect(text).toMatch(/textbox \(Last name:\) e\d+/);
    expect(text).toMatch(/textbox \(Email:\) e\d+/);
    expect(text).toMatch(/button "Avatar" \(file\) e\d+/);
    await h.client.input.click.mutate({ target: refOf(text, /"Delete account"/) });
    const modal = await snapshotI();
    const lines = modal.split('\n');
    expect(lines[0]).toMatch(/^dialog "Delete your account\?" \[modal\]/);
    expect(modal).toContain('[modal: background inert]');
    expect(modal).not.toContain('Save');
    await h.client.input.click.mutate({ target: refOf(modal, /"Cancel"/) });
    expect(await status()).toBe('kept');
  });

  it('a field behind an open modal takes no fill or type: each is refused naming the dialog, and the value stays', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/modal-form.html') });
    const text = await snapshotI();
    const first = refOf(text, /\(First name:\)/);
    await h.client.input.fill.mutate({ target: '#last', text: 'Before' });
    await h.client.input.click.mutate({ target: refOf(text, /"Delete account"/) });
    for (const attempt of [
      () => h.client.input.fill.mutate({ target: first, text: 'Behind' }),
      () => h.client.input.fill.mutate({ target: '#last', text: 'Behind' }),
      () => h.client.input.type.mutate({ target: '#email', text: 'x@y.z' }),
    ])
      await expect(attempt()).rejects.toMatchObject({
        code: 'element_obscured',
        message: expect.stringMatching(/behind the open modal dialog.*Answer or close the dialog first/),
      });
    const values = await h.client.page.eval.mutate({ js: '[first.value, last.value, email.value].join("|")' });
    expect(values.value).toBe('|Before|');
    // inside the dialog the page still takes input
    await h.client.input.click.mutate({ target: '#cancel' });
    await h.client.input.fill.mutate({ target: first, text: 'After' });
    expect((await h.client.page.eval.mutate({ js: 'first.value' })).value).toBe('After');
  });

  it('styled controls: a label standing in for a hidden checkbox, radio or file input is that control, by ref and by locator', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/styled-controls.html') });
    const text = await snapshotI();
    // each hidden control is reachable through its label, with the control's role and state
    expect(text).toMatch(/button "Choose avatar" \(file\) e\d+/);
    expect(text).toMatch(/checkbox "Dark mode" e\d+\n/);
    expect(text).toMatch(/radio "Left" \[checked\] e\d+/);
    expect(text).toMatch(/radio "Right" e\d+\n/);
    expect(text).toMatch(/checkbox "Remember me" e\d+/);
    expect(text).toMatch(/checkbox "Beta features" \[disabled\] e\d+/);
    // a transparent control keeps its own ref; its label is no second control
    expect(text.match(/"Newsletter"/g)).toHaveLength(1);
    const full = (await h.client.snapshot.take.mutate({})).text;
    expect(full).not.toContain('text: Dark mode');
    expect(full).not.toContain('text: Remember me');

    await h.client.input.click.mutate({ target: refOf(text, /checkbox "Dark mode"/) });
    expect(await status()).toContain('dark=true');
    await h.client.input.click.mutate({ target: 'role=radio[name="Right"]' });
    expect(await status()).toContain('align=right');
    const checked = await h.client.input.check.mutate({ target: 'label=Remember me' });
    expect(checked).toMatchObject({
      checked: true,
      changed: true,
      element: expect.stringMatching(/^checkbox "Remember me" \[e\d+\]/),
    });
    expect(await status()).toContain('remember=true');
    const after = await snapshotI();
    expect(after).toMatch(/checkbox "Dark mode" \[checked\] e\d+/);
    expect(after).toMatch(/radio "Right" \[checked\] e\d+/);

    mkdirSync(join(h.workspace, 'files'), { recursive: true });
    writeFileSync(join(h.workspace, 'files', 'me.png'), 'png');
    const uploaded = await h.client.files.upload.mutate({ target: 'label=Choose avatar', files: ['files/me.png'] });
    expect(uploaded.via).toBe('chooser');
    expect(await status()).toContain('avatar=me.png');
    expect(await snapshotI()).toMatch(/button "Choose avatar" \(file\) e\d+: me\.png/);
  });
});
