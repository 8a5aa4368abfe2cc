// A snapshot cut at --max-chars is continued with its cursor: the rest of that same snapshot, while
// the tab still shows the document it was taken of, in the view it was taken in, saying whether that
// document changed since the cut.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@argus/cdp';
import { startFixtureServer, type FixtureServer } from '@argus/test-kit';
import { SnapshotEngine } from '../src/index.js';
import { html, openPage, startBrowser, type TestBrowser } from './harness.js';

const LONG = html(
  `<h1>Long form</h1>` + Array.from({ length: 40 }, (_, i) => `<p>Line ${i}</p><button>Save ${i}</button>`).join(''),
);
const OTHER = html('<h1>Done</h1><p>Thanks</p>');

let tb: TestBrowser;
let served: FixtureServer;
let page: Page;

beforeAll(async () => {
  [tb, served] = await Promise.all([startBrowser(), startFixtureServer({ pages: { '/long': LONG, '/done': OTHER } })]);
  page = await openPage(tb.browser, `${served.origin}/long`);
});
afterAll(async () => {
  await tb?.close();
  await served?.close();
});

describe('snapshot cursors', () => {
  it('refuse to continue a snapshot of a page the tab has left', async () => {
    const engine = new SnapshotEngine(page);
    const first = await engine.snapshot({ maxChars: 300 });
    expect(first.cursor).toBeDefined();
    // same document: the rest comes
    expect((await engine.snapshot({ cursor: first.cursor!, maxChars: 300 })).text).toMatch(/Save \d+/);
    await page.navigate(`${served.origin}/done`);
    // its refs are stale: the code an agent's recovery keys on
    await expect(engine.snapshot({ cursor: first.cursor! })).rejects.toMatchObject({
      code: 'ref_stale',
      message: expect.stringMatching(/from a page this tab has left .*\/long.*Run `argus snapshot` again/),
    });
    await page.navigate(`${served.origin}/long`);
  });

  it('refuse another view asked with a cursor, and continue a -i snapshot without repeating -i', async () => {
    const engine = new SnapshotEngine(page);
    const full = await engine.snapshot({ maxChars: 300 });
    await expect(engine.snapshot({ cursor: full.cursor!, interactive: true })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/continues a full snapshot; -i would be another snapshot/),
    });
    const interactive = await engine.snapshot({ interactive: true, maxChars: 300 });
    const rest = await engine.snapshot({ cursor: interactive.cursor!, interactive: false });
    expect(rest.text).toMatch(/button "Save \d+"/);
    expect(rest.text).not.toMatch(/Line \d+/);
    await expect(engine.snapshot({ cursor: interactive.cursor!, depth: 2 })).rejects.toMatchObject({
      code: 'invalid_input',
    });
  });

  it('say when the document changed since the cut, and only then', async () => {
    const engine = new SnapshotEngine(page);
    const first = await engine.snapshot({ maxChars: 300 });
    // nothing changed: the rest, with no sign
    const same = await engine.snapshot({ cursor: first.cursor!, maxChars: 300 });
    expect(same.pageChanged).toBeUndefined();
    // the list grew after the cut: the rest still comes (the stored lines), marked as of an older page
    await page.session.send('Runtime.evaluate', {
      expression: "document.body.append(Object.assign(document.createElement('p'), { textContent: 'Added' }))",
    });
    const changed = await engine.snapshot({ cursor: same.cursor!, maxChars: 300 });
    expect(changed.text).toMatch(/Save \d+/);
    expect(changed.text).not.toContain('Added');
    expect(changed.pageChanged).toBe(true);
    // a new snapshot is the page as it is now: its cursor starts clean
    const fresh = await engine.snapshot({ maxChars: 300 });
    expect((await engine.snapshot({ cursor: fresh.cursor!, maxChars: 300 })).pageChanged).toBeUndefined();
  });
});
