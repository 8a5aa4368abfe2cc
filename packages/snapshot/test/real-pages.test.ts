import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refsInLine } from '@argus/protocol/snapshot-refs';
import { type FixtureServer, realPages, startFixtureServer } from '@argus/test-kit';
import { SnapshotEngine } from '../src/index.js';
import { openPage, startBrowser, type TestBrowser } from './harness.js';

// The shared real saved pages (tooling/test-kit/fixtures/real-pages), not only the benches': every
// page must give a snapshot whose refs are unique, named, and resolve back to live elements.
const SAMPLE_REFS = 20;

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
    expect(pages.length).toBeGreaterThanOrEqual(20);
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
