import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refsInLine } from '@argus/protocol/snapshot-refs';
import { type FixtureServer, realPages, startFixtureServer } from '@argus/test-kit';
import { SnapshotEngine } from '../src/index.js';
import { openPage, startBrowser, type TestBrowser } from './harness.js';

// The shared real saved pages (tooling/test-kit/fixtures/real-pages), not only the benches': every
// page must give a snapshot whose refs are unique, named, and resolve back to live elements.
const SAMPLE_REFS = 20;

const TOAST = `(() => {
  const toast = document.createElement('div');
  toast.textContent = 'Saved!';
  toast.style.cssText = 'position:fixed;bottom:8px;right:8px;z-index:2147483647;background:#222;color:#fff;font:16px sans-serif;padding:4px';
  document.body.append(toast);
})()`;

let tb: TestBrowser;
let server: FixtureServer;

beforeAll(async () => {
  [tb, server] = await Promise.all([startBrowser(), startFixtureServer()]);
});
afterAll(async () => {
  await tb?.close();
  await server?.close();
});

describe('snapshots of real saved pages', () => {
  const pages = realPages();

  it('has the shared pages to test', () => {
    expect(pages.length).toBe(24);
  });

  it.each(pages.map((page) => [page.name, page.path]))(
    '%s: unique, named refs that resolve, counted as printed; the page title',
    async (_name, path) => {
      const page = await openPage(tb.browser, server.urlFor(path));
      try {
        const engine = new SnapshotEngine(page);
        const full = await engine.snapshot();
        expect(full.title).toBe(await page.evaluate('document.title'));
        const interactive = await engine.snapshot({ interactive: true });
        const refs = interactive.text.split('\n').flatMap((line) =>
          refsInLine(line).map(({ ref, index }) => {
            // every ref follows a quoted name, a parenthesised fallback hint or a state, never an empty name
            expect(line.slice(0, index), line).toMatch(/[")\]] $/);
            return ref;
          }),
        );
        expect(new Set(refs).size).toBe(refs.length);
        // the count the formatter keeps as it writes is what the text holds, in every view
        const printed = (text: string) => text.split('\n').reduce((count, line) => count + refsInLine(line).length, 0);
        expect(interactive.refs).toBe(refs.length);
        expect(full.refs).toBe(printed(full.text));
        for (const depth of [0, 2]) {
          expect((await engine.snapshot({ depth })).refs).toBe(printed((await engine.snapshot({ depth })).text));
          const shallow = await engine.snapshot({ interactive: true, depth });
          expect(shallow.refs).toBe(printed(shallow.text));
        }
        for (const ref of refs.slice(0, SAMPLE_REFS)) {
          const handle = await engine.resolve(ref);
          expect(handle.label).toBeTruthy();
        }
      } finally {
        await tb.browser.closePage(page.targetId);
      }
    },
  );
});

// The text an action made appear (`+ text: …` in its diff) is for action diffs only: on the shared
// real saved pages no plain snapshot changes, an action's pair of snapshots with nothing done between
// them finds no text, and one where the page adds a bare toast finds exactly that toast.
describe('text an action made appear, on real saved pages', () => {
  const pages = realPages();

  it.each(pages.map((page) => [page.name, page.path]))(
    '%s: plain snapshots gain nothing; an action pair finds only the toast the page added',
    async (_name, path) => {
      const page = await openPage(tb.browser, server.urlFor(path));
      try {
        const engine = new SnapshotEngine(page);
        const plain = (await engine.snapshot({ interactive: true })).text;
        const full = (await engine.snapshot()).text;
        // an action's two snapshots with nothing done between them: nothing appeared
        await engine.snapshot({ interactive: true, appeared: true });
        const still = await engine.snapshot({ interactive: true, diff: true, appeared: true });
        expect(still.text).not.toMatch(/^\+ (text: |\(\d+ more new text)/m);
        // plain snapshots taken after an action's are what they were
        expect((await engine.snapshot({ interactive: true })).text).toBe(plain);
        expect((await engine.snapshot()).text).toBe(full);
        expect((await engine.snapshot({ interactive: true, diff: true })).text).not.toMatch(/^\+ text: /m);
        // a bare toast, added between an action's two snapshots: said, and nothing else
        await engine.snapshot({ interactive: true, appeared: true });
        await page.evaluate(TOAST);
        const after = await engine.snapshot({ interactive: true, diff: true, appeared: true });
        expect(after.text.split('\n').filter((line) => /^\+ (text: |\(\d+ more)/.test(line))).toEqual([
          '+ text: Saved!',
        ]);
      } finally {
        await tb.browser.closePage(page.targetId);
      }
    },
  );
});
