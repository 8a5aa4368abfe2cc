import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@argus/cdp';
import { SnapshotEngine, click, elementText, fill } from '../src/index.js';
import { startFixtureServer, type FixtureServer } from '@argus/test-kit';
import { html, openPage, startBrowser, type TestBrowser } from './harness.js';

const CHILD = (label: string) =>
  html(
    `<h2>${label} frame</h2><div style="height:30px"></div><button id="b" onclick="this.textContent = '${label} clicked'">${label} button</button><input id="i" aria-label="${label} input">`,
  );

let tb: TestBrowser;
let main: FixtureServer;
let otherPort: FixtureServer;
let otherSite: FixtureServer;
let page: Page;
let engine: SnapshotEngine;

function refOf(text: string, pattern: string): string {
  const ref = new RegExp(`${pattern}(?: \\[[^\\]]*\\])* ((?:f\\d+)?e\\d+)`).exec(text)?.[1];
  if (!ref) throw new Error(`no ref for ${pattern} in:\n${text}`);
  return ref;
}

beforeAll(async () => {
  tb = await startBrowser();
  // a second port on 127.0.0.1 is cross-origin but same-site (same renderer); `localhost` is another
  // site, so Chromium puts that frame in its own process (an OOPIF with its own CDP session)
  otherPort = await startFixtureServer({ pages: { '/child': CHILD('Port') } });
  otherSite = await startFixtureServer({ hostname: 'localhost', pages: { '/child': CHILD('Site') } });
  main = await startFixtureServer({
    pages: {
      '/child': CHILD('Same'),
      '/frames': () =>
        html(`<h1>Frames</h1><button>Top button</button>
      <iframe title="same" src="/child" style="width:400px;height:150px;border:4px solid #000"></iframe>
      <iframe title="port" src="${otherPort.origin}/child" style="width:400px;height:150px;border:0"></iframe>
      <div style="height:40px"></div>
      <iframe title="site" src="${otherSite.origin}/child" style="width:400px;height:150px;border:7px solid #000;padding:5px"></iframe>
      <iframe title="hidden" src="/child" style="display:none"></iframe>`),
    },
  });
  page = await openPage(tb.browser, `${main.origin}/frames`);
  // frames load after the top document's load event in some orders; wait for all three buttons
  await page.evaluate(
    `new Promise((resolve) => { const check = () => document.querySelectorAll('iframe').length === 4 ? resolve(true) : setTimeout(check, 20); check(); })`,
  );
  engine = new SnapshotEngine(page);
});
afterAll(async () => {
  await tb?.close();
  await Promise.all([main?.close(), otherPort?.close(), otherSite?.close()]);
});

async function snapshotWithFrames(): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const { text } = await engine.snapshot();
    if (['Same frame', 'Port frame', 'Site frame'].every((name) => text.includes(name))) return text;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('frames never loaded');
}

describe('frames', () => {
  it('snapshots same-origin, cross-origin and out-of-process iframes with frame-prefixed refs', async () => {
    const text = await snapshotWithFrames();
    expect(text).toMatch(/button "Top button" e\d+/);
    expect(text).toMatch(/iframe "same"\n\s+heading "Same frame"/);
    for (const label of ['Same', 'Port', 'Site']) expect(refOf(text, `button "${label} button"`)).toMatch(/^f\d+e\d+$/);
    expect(
      new Set(['Same', 'Port', 'Site'].map((label) => refOf(text, `button "${label} button"`).split('e')[0])).size,
    ).toBe(3);
    expect(page.frames.all().some((frame) => frame.session !== page.session)).toBe(true);
  });

  it('clicks and fills inside every kind of frame', async () => {
    const text = await snapshotWithFrames();
    for (const label of ['Same', 'Port', 'Site']) {
      const ref = refOf(text, `button "${label} button"`);
      await click(engine, ref);
      expect((await elementText(engine, ref, 100)).text).toBe(`${label} clicked`);
      const input = refOf(text, `textbox "${label} input"`);
      expect((await fill(engine, input, `typed in ${label}`)).value).toBe(`typed in ${label}`);
    }
  });

  it('a locator the top document does not match is looked for in its iframes', async () => {
    await snapshotWithFrames();
    for (const label of ['Port', 'Site']) {
      const clicked = await click(engine, `role=button[name*="${label}"]`);
      expect(clicked.element).toMatch(new RegExp(`^button "${label} (button|clicked)" \\[f\\d+e\\d+\\]`));
      expect((await fill(engine, `label=${label} input`, `by locator in ${label}`)).value).toBe(
        `by locator in ${label}`,
      );
    }
    // the same-origin frame and the hidden one hold the same page: only the visible one counts
    // (earlier clicks renamed the frames' buttons "<label> clicked")
    await click(engine, 'role=button[name*="Same"]');
    // in the top document first: its own button wins over none
    expect((await click(engine, 'text=Top button')).element).toMatch(/^button "Top button" \[e\d+\]/);
    // a match in several frames is ambiguous, with a ref for each
    const several = await click(engine, 'role=button[name*="clicked"]', { timeoutMs: 0 }).catch((e: unknown) => e);
    expect(several).toMatchObject({ code: 'element_ambiguous' });
  });

  it('annotates refs inside every kind of frame and removes every overlay', async () => {
    const text = await snapshotWithFrames();
    const overlayIn = (frameId: string) => {
      const frame = page.frames.get(frameId)!;
      const expression = `(() => { const o = document.getElementById('__argus_overlay__'); return o ? [...o.children].map((el) => el.textContent).filter(Boolean) : null; })()`;
      return page.evaluate<string[] | null>(expression, {
        session: frame.session,
        contextId: page.frames.mainWorld(frameId)!,
      });
    };
    const remove = await engine.annotate();
    const children = page.frames
      .children(page.mainFrameId)
      .filter((frame) => page.frames.mainWorld(frame.id) !== undefined);
    const labels = (await Promise.all(children.map((frame) => overlayIn(frame.id)))).flatMap((list) => list ?? []);
    for (const label of ['Same', 'Port', 'Site'])
      expect(labels).toContain(refOf(text, `"${label} (?:button|clicked)"`));
    expect(await overlayIn(page.mainFrameId)).toContain(refOf(text, 'button "Top button"'));
    await remove();
    for (const frame of [...children, page.frames.get(page.mainFrameId)!]) expect(await overlayIn(frame.id)).toBeNull();
  });

  it('--scope with a selector that only matches inside a frame snapshots that frame', async () => {
    await snapshotWithFrames();
    const { text } = await engine.snapshot({ scope: '#i', interactive: true });
    expect(text).toMatch(/^textbox "(?:Same|Port|Site) input" f\d+e\d+/);
    expect(text.split('\n')).toHaveLength(1);
    const ref = refOf(text, 'textbox "(?:Same|Port|Site) input"');
    expect((await fill(engine, ref, 'scoped')).value).toBe('scoped');
    await expect(engine.snapshot({ scope: '#nowhere' })).rejects.toMatchObject({ code: 'element_not_found' });
  });

  it('keeps frame refs stable and interactive mode shows the frame boundary', async () => {
    const first = await snapshotWithFrames();
    const { text } = await engine.snapshot({ interactive: true });
    expect(text).toMatch(/iframe "site"/);
    expect(refOf(text, 'button "Site clicked"')).toBe(refOf(first, 'button "Site clicked"'));
  });
});
