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
    expect(result.diff).toMatch(/^~ button "Show details" e\d+ \[expanded\]$/m);
    expect(result.diff).toMatch(/^\+ button "Close details" e\d+$/m);
    // without diff: the locator only
    const again = await h.client.input.click.mutate({ target: 'role=button[name="Close details"]' });
    expect(again.diff).toBeUndefined();
    expect(again.locator).toBe('role=button[name="Close details"]');
  });

  it('fill, check, select-free fields: label locators; the diff shows the new value', async () => {
    const filled = await h.client.input.fill.mutate({ target: '#email', text: 'ada@example.com', diff: true });
    expect(filled.locator).toBe('label="Email"');
    expect(filled.diff).toMatch(/^~ textbox "Email" e\d+: ada@example.com$/m);
    const checked = await h.client.input.check.mutate({ target: '#gift', diff: true });
    expect(checked.locator).toBe('label="Gift wrap"');
    expect(checked.diff).toMatch(/^~ checkbox "Gift wrap" e\d+ \[checked\]$/m);
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

  it('a click that navigates returns the new page in place of a diff', async () => {
    const result = await h.client.input.click.mutate({ target: 'role=link[name="Next page"]', diff: true });
    expect(result.navigated).toBe(true);
    expect(result.diff).toMatch(/^\(navigated: the new page\)\n/);
    expect(result.diff).toMatch(/textbox "Email" e\d+/);
  });
});
