import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const h = useHarness();

/** Every hiding technique on the fixture page carries one of these; none may reach an agent. */
const TECHNIQUES = [
  'display-none',
  'visibility-hidden',
  'aria-hidden',
  'opacity',
  'offscreen',
  'font-size',
  'same-colour',
  'card-colour',
  'transparent',
  'height-zero',
  'clip-rect',
  'clip-path',
  'scale',
  'text-indent',
  'sr-only-paragraph',
  'opacity-link',
  'opacity-button',
];

describe('hidden text never reaches an agent (issue 11 item 6)', () => {
  it('the snapshot, snapshot -i and text leave out text a person cannot see', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/hidden-text.html') });
    const full = (await h.client.snapshot.take.mutate({})).text;
    const interactive = (await h.client.snapshot.take.mutate({ interactive: true })).text;
    const text = (await h.client.read.text.query({})).text;
    for (const output of [full, interactive]) {
      for (const technique of TECHNIQUES) expect(output).not.toContain(`INJECT-${technique}`);
      expect(output).not.toContain('ignore previous instructions');
    }
    // aria-hidden hides from screen readers, not from the eye: the snapshot (what assistive tech is
    // told) leaves it out, text (what a person sees, as innerText) keeps it
    for (const technique of TECHNIQUES.filter((name) => name !== 'aria-hidden'))
      expect(text).not.toContain(`INJECT-${technique}`);
    expect(text).toContain('INJECT-aria-hidden');
    // the page itself still reads
    expect(full).toContain('Visible paragraph: the weather is fine.');
    expect(text).toContain('Visible paragraph: the weather is fine.');
    expect(text).toContain('Last visible line.');
  });

  it('visually hidden text still names its control, and is not printed as page text', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/hidden-text.html') });
    const full = (await h.client.snapshot.take.mutate({})).text;
    // sr-only text names the button; an icon link whose text is indented away is named by its title
    expect(full).toMatch(/button "Close dialog" e\d+/);
    expect(full).toMatch(/link "Previous month" e\d+/);
    expect(full).toMatch(/button "Next month" e\d+/);
    // a transparent native checkbox over a styled box is still the control a click toggles
    expect(full).toMatch(/checkbox "Remember me" e\d+/);
    expect(full).not.toContain('text: Close dialog');
    expect(full).not.toContain('text: Prev');
    const text = (await h.client.read.text.query({})).text;
    expect(text).not.toContain('Close dialog');
    expect(text).not.toContain('Next month');
  });
});

describe('text reads the whole page once (issue 12 §7)', () => {
  it('frames (same- and cross-origin) in place, a separator between controls, the chosen option only', async () => {
    const other = h.server.urlFor('/frame-child.html').replace('127.0.0.1', 'localhost');
    await h.client.page.goto.mutate({ url: h.server.urlFor(`/text-read.html?xorigin=${encodeURIComponent(other)}`) });
    const { text } = await h.client.read.text.query({});
    expect(text).toContain('Delete Delete');
    expect(text).not.toContain('DeleteDelete');
    expect(text).toContain('Item | Price');
    expect(text).toContain('Size Medium');
    expect(text).not.toMatch(/Small|Large/);
    const lines = text.split('\n');
    const before = lines.indexOf('Before the frames.');
    const after = lines.indexOf('After the frames.');
    const frames = lines.map((line, index) => [line, index] as const).filter(([line]) => line.startsWith('[frame '));
    expect(frames.map(([line]) => line)).toEqual([
      expect.stringContaining('127.0.0.1'),
      expect.stringContaining('localhost'),
    ]);
    for (const [, index] of frames) {
      expect(index).toBeGreaterThan(before);
      expect(index).toBeLessThan(after);
      expect(lines[index + 1]).toBe('Inside the frame.');
    }
    // a target still reads one element
    expect((await h.client.read.text.query({ target: '#prices' })).text).toBe('Item | Price\nTea | 3 €');
  });
});
