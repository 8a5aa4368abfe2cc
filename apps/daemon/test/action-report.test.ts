import { describe, expect, it } from 'vitest';
import { refOf, useHarness } from './harness.js';

const h = useHarness();

/** The id of the element a target resolves to, read in the page. */
const idOf = async (target: string): Promise<unknown> =>
  (await h.client.page.eval.mutate({ js: 'el.closest("[id]").id', target })).value;

/**
 * Issue 12 §8: an action returns the snapshot diff it caused (`diff: true`) and a stable locator for
 * its element that still names the same element after a reload.
 */
describe('action results: diff and stable locator', () => {
  it('a click returns the diff it caused and a role locator', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/action-report.html') });
    const snap = await h.client.snapshot.take.mutate({ interactive: true });
    const result = await h.client.input.click.mutate({ target: refOf(snap.text, /button "Show details"/), diff: true });
    expect(result.locator).toBe('role=button[name="Show details"]');
    expect(result.diff).toMatch(/^~ button "Show details" \[expanded\] e\d+$/m);
    expect(result.diff).toMatch(/^\+ button "Close details" e\d+$/m);
    // without diff: the locator only
    const again = await h.client.input.click.mutate({ target: 'role=button[name="Close details"]' });
    expect(again.diff).toBeUndefined();
    expect(again.locator).toBe('role=button[name="Close details"]');
  });

  it('the locator names the element as it was before the action, also when the action removes it', async () => {
    // read in the action's own round trips (one resolution), before its input reaches the page
    await h.client.page.goto.mutate({ url: h.server.urlFor('/action-report.html') });
    await h.client.page.eval.mutate({
      js: `document.body.insertAdjacentHTML('beforeend', '<button id="del" onclick="this.remove()">Delete row</button><button id="ren" onclick="this.textContent = \\'Renamed\\'">Rename me</button>')`,
    });
    const removed = await h.client.input.click.mutate({ target: '#del' });
    expect(removed.locator).toBe('role=button[name="Delete row"]');
    expect((await h.client.page.eval.mutate({ js: 'document.querySelector("#del") !== null' })).value).toBe(false);
    const renamed = await h.client.input.click.mutate({ target: 'text=Rename me' });
    expect(renamed.locator).toBe('role=button[name="Rename me"]');
    expect((await h.client.read.text.query({ target: '#ren' })).text).toBe('Renamed');
  });

  it('fill, check, select-free fields: label locators; the diff shows the new value', async () => {
    const filled = await h.client.input.fill.mutate({ target: '#email', text: 'ada@example.com', diff: true });
    expect(filled.locator).toBe('label="Email"');
    expect(filled.diff).toMatch(/^~ textbox "Email" e\d+: ada@example.com$/m);
    const checked = await h.client.input.check.mutate({ target: '#gift', diff: true });
    expect(checked.locator).toBe('label="Gift wrap"');
    expect(checked.diff).toMatch(/^~ checkbox "Gift wrap" \[checked\] e\d+$/m);
    const pressed = await h.client.input.press.mutate({ key: 'Tab', diff: true });
    expect(typeof pressed.diff).toBe('string');
  });

  it('two buttons with the same name: a CSS path, unique, that names the same one after a reload', async () => {
    const snap = await h.client.snapshot.take.mutate({ interactive: true });
    // look-alike buttons carry their row: `"Delete" (in "Order 2") e5`
    const second = [...snap.text.matchAll(/"Delete" (?:\(in "[^"]*"\) )?(e\d+)/g)][1]?.[1];
    expect(second, snap.text).toBeDefined();
    const result = await h.client.input.click.mutate({ target: second! });
    expect(await h.client.page.eval.mutate({ js: 'window.deleted' })).toMatchObject({ value: 'row-2' });
    expect(result.locator).toBeDefined();
    expect(result.locator).not.toMatch(/^(role|text|label)=/);
    const locators = [result.locator!, 'role=button[name="Show details"]', 'label="Email"', 'label="Gift wrap"'];
    const before = await Promise.all(locators.map(idOf));
    await h.client.page.reload.mutate({});
    expect(await Promise.all(locators.map(idOf))).toEqual(before);
    expect(before[0]).toBe('row-2');
  });

  it('a click that makes the page say something (status, alert, aria-live) has that text in its diff, cut to size', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/live-status.html') });
    const saved = await h.client.input.click.mutate({ target: 'role=button[name="Save"]', diff: true });
    expect(saved.diff).toBe('+ status: Saved');
    const deleted = await h.client.input.click.mutate({ target: 'role=button[name="Delete"]', diff: true });
    expect(deleted.diff).toBe('+ alert: Could not delete: the draft is locked by Ada.');
    const synced = await h.client.input.click.mutate({ target: 'role=button[name="Sync"]', diff: true });
    expect(synced.diff).toBe('+ status: Synced 3 notes');
    // 7,000 characters of alert: the reply carries its start, cut
    const flooded = await h.client.input.click.mutate({ target: 'role=button[name="Flood"]', diff: true });
    expect(flooded.diff).toMatch(
      /^- alert: Could not delete: the draft is locked by Ada\.\n\+ alert: Problem number 0 .*…$/,
    );
    expect(flooded.diff!.length).toBeLessThan(200);
    await h.client.page.goto.mutate({ url: h.server.urlFor('/action-report.html') });
  });

  it('a click that navigates returns the new page in place of a diff', async () => {
    const result = await h.client.input.click.mutate({ target: 'role=link[name="Next page"]', diff: true });
    expect(result.navigated).toBe(true);
    expect(result.diff).toMatch(/^\(navigated: the new page\)\n/);
    expect(result.diff).toMatch(/textbox "Email" e\d+/);
  });
});

/**
 * A submission the browser's own validation stops shows a person a bubble and changes nothing in the
 * DOM: the action's result says which fields and why, so an agent does not take the silence for success.
 */
describe('a form the browser would not submit', () => {
  const FORM = `<!doctype html><title>Sign up</title>
<form onsubmit="event.preventDefault(); document.getElementById('r').textContent = 'sent'">
<label>Email <input type="email" name="email" required></label>
<label>Age <input type="number" name="age" min="18" value="20"></label>
<button>Send</button></form><p id="r"></p>
<form novalidate onsubmit="event.preventDefault(); document.getElementById('r').textContent = 'sent without checks'">
<label>Code <input name="code" required></label><button>Skip checks</button></form>`;
  const url = `data:text/html,${encodeURIComponent(FORM)}`;

  it('a click on submit, Enter in a field: each invalid field with its message and ref; nothing once valid', async () => {
    await h.client.page.goto.mutate({ url });
    const blocked = await h.client.input.click.mutate({ target: 'role=button[name="Send"]' });
    expect(blocked.invalid).toEqual([
      {
        element: expect.stringMatching(/^textbox "Email" \[e\d+\]$/),
        message: expect.stringMatching(/fill (out|in) this field/i),
      },
    ]);
    expect(blocked.navigated).toBe(false);
    const ref = /\[(e\d+)\]/.exec(blocked.invalid?.[0]?.element ?? '')?.[1];
    // the ref names the field, as a snapshot's would
    await h.client.input.fill.mutate({ target: ref!, text: 'bob' });
    await h.client.input.fill.mutate({ target: 'label=Age', text: '12' });
    const pressed = await h.client.input.press.mutate({ key: 'Enter' });
    expect(pressed.invalid?.map((field) => field.element.replace(/ \[e\d+\]$/, ''))).toEqual([
      'textbox "Email"',
      'spinbutton "Age"',
    ]);
    expect(pressed.invalid?.[0]?.message).toContain("'@'");
    await h.client.input.fill.mutate({ target: 'label=Email', text: 'bob@example.com' });
    await h.client.input.fill.mutate({ target: 'label=Age', text: '30' });
    const sent = await h.client.input.click.mutate({ target: 'role=button[name="Send"]' });
    expect(sent.invalid).toBeUndefined();
    expect((await h.client.page.eval.mutate({ js: 'document.getElementById("r").textContent' })).value).toBe('sent');
  });

  it('a form that opts out of validation (novalidate), and actions that submit nothing, report none', async () => {
    await h.client.page.goto.mutate({ url });
    const skipped = await h.client.input.click.mutate({ target: 'role=button[name="Skip checks"]' });
    expect(skipped.invalid).toBeUndefined();
    expect((await h.client.page.eval.mutate({ js: 'document.getElementById("r").textContent' })).value).toBe(
      'sent without checks',
    );
    // an invalid field the page itself reported earlier is not blamed on a later action
    await h.client.page.eval.mutate({ js: 'document.forms[0].reportValidity()' });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const focused = await h.client.input.click.mutate({ target: 'label=Age' });
    expect(focused.invalid).toBeUndefined();
  });
});
