import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const h = useHarness();

const click = async (name: string) =>
  (await h.client.input.click.mutate({ target: `role=button[name="${name}"]`, diff: true })).diff;

/**
 * An action's diff says what short text it made appear that `-i` does not print: a bare toast or
 * message (no role, no aria-live) was missing from it, so the agent did not learn the outcome.
 */
describe("text an action made appear, in the action's diff", () => {
  it('a bare toast a click handler adds, text set on an empty element, a hidden toast shown by a class', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/toasts.html') });
    expect(await click('Save')).toBe('+ text: Saved!');
    expect(await click('Update')).toBe('+ text: Profile updated');
    expect(await click('Copy link')).toBe('+ text: Link copied to clipboard');
  });

  it('a toast holding a control: the control as a control, the rest as text', async () => {
    const diff = await click('Archive');
    expect(diff).toMatch(/^\+ button "Undo" e\d+\n\+ text: Message archived$/);
  });

  it('says nothing of a toast added and taken out again within the action, of what a live region already says, or of the same text re-rendered', async () => {
    // gone before the action answered: the diff is what the page shows after the action
    expect(await click('Flash')).toBe('(no changes since the previous snapshot)');
    expect(await click('Announce')).toBe('+ status: Settings saved');
    expect(await click('Re-render')).toBe('(no changes since the previous snapshot)');
    expect(await click('Nothing')).toBe('(no changes since the previous snapshot)');
  });

  it('a page adding 10,000 nodes of text: a few lines, cut, and a count', async () => {
    const diff = (await click('Flood'))!;
    const lines = diff.split('\n');
    expect(lines.slice(0, 3)).toEqual(
      [0, 1, 2].map((n) => expect.stringMatching(`^\\+ text: Row number ${n} of the flood.*…$`)),
    );
    expect(lines[3]).toBe('+ (9997 more new texts)');
    expect(lines).toHaveLength(4);
    expect(diff.length).toBeLessThan(400);
  });

  it('a snapshot --diff of the page is no action diff: it never carries the text', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/toasts.html') });
    await h.client.snapshot.take.mutate({ interactive: true });
    await h.client.input.click.mutate({ target: 'role=button[name="Save"]' });
    const after = await h.client.snapshot.take.mutate({ interactive: true, diff: true });
    expect(after.text).toBe('(no changes since the previous snapshot)');
  });
});
