import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@argus/cdp';
import { startFixtureServer, type FixtureServer } from '@argus/test-kit';
import { SnapshotEngine, click, hover } from '../src/index.js';
import { actionPoint } from '../src/actionability.js';
import { html, openPage, startBrowser, type TestBrowser } from './harness.js';

/**
 * Every pointer and mouse event that reaches the document, as `type:id`, in the page's own world.
 * (A listener the page adds to the window itself before Argus arms its guard, capturing, sees an
 * event the guard stops: the same holds for Playwright's.)
 */
const RECORD = `<script>
window.seen = [];
for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'dblclick'])
  document.addEventListener(type, (e) => seen.push(type + ':' + (e.target.id || e.target.tagName)), true);
</script>`;

// A notice above Save collapses when the mouse comes over Save: Save moves up by the notice's height
// and Delete slides under the mouse, where the press would land.
const SHIFT = html(`
<div id="notice" style="height:40px;margin:0">Saving keeps a draft</div>
<button id="save" style="display:block;height:40px;width:200px;margin:0"
  onmouseenter="document.getElementById('notice').style.display = 'none'"
  onclick="window.clicked = (window.clicked || []).concat('save')" ondblclick="window.dbl = 'save'">Save</button>
<button id="delete" style="display:block;height:40px;width:200px;margin:0"
  onclick="window.clicked = (window.clicked || []).concat('delete')" ondblclick="window.dbl = 'delete'">Delete</button>
${RECORD}`);

// A button that jumps away whenever the mouse comes over it: no click can land on it.
const RUNAWAY = html(`
<div style="position:relative;height:200px;width:200px">
  <button id="decoy" style="position:absolute;inset:0;width:200px;height:200px" onclick="window.clicked = 'decoy'">Decoy</button>
  <button id="shy" style="position:absolute;left:0;top:0;width:200px;height:40px;z-index:1"
    onmouseenter="this.style.top = this.style.top === '150px' ? '0px' : '150px'"
    onclick="window.clicked = 'shy'">Shy</button>
</div>
${RECORD}`);

// As SHIFT, but what slides under the mouse is a frame: the press goes into its document, where no
// listener of the top document can stop it.
const INTO_FRAME = html(`
<div id="notice" style="height:40px;margin:0">Saving keeps a draft</div>
<button id="save" style="display:block;height:40px;width:200px;margin:0"
  onmouseenter="document.getElementById('notice').style.display = 'none'"
  onclick="window.clicked = 'save'">Save</button>
<iframe id="ad" title="ad" src="/ad" style="display:block;height:40px;width:200px;border:0;margin:0"></iframe>`);

const AD = html(`<div style="height:40px" onclick="parent.adClicks = (parent.adClicks || 0) + 1">Ad</div>`);

let tb: TestBrowser;
let served: FixtureServer;

beforeAll(async () => {
  [tb, served] = await Promise.all([
    startBrowser(),
    startFixtureServer({
      pages: {
        '/shift': SHIFT,
        '/runaway': RUNAWAY,
        '/into-frame': INTO_FRAME,
        '/ad': AD,
        '/framed': html(`<iframe title="form" src="/shift" style="width:400px;height:300px;border:0"></iframe>`),
      },
    }),
  ]);
});
afterAll(async () => {
  await tb?.close();
  await served?.close();
});

async function withPage<T>(path: string, run: (page: Page, engine: SnapshotEngine) => Promise<T>): Promise<T> {
  const page = await openPage(tb.browser, `${served.origin}${path}`);
  try {
    return await run(page, new SnapshotEngine(page));
  } finally {
    await tb.browser.closePage(page.id);
  }
}

describe('a click lands on its element or fails', () => {
  it('clicks an element its own hover effect moves: the press that would hit another is stopped and sent again', async () => {
    await withPage('/shift', async (page, engine) => {
      expect((await click(engine, '#save')).element).toMatch(/^button "Save"/);
      expect(await page.evaluate('window.clicked')).toEqual(['save']);
      // Delete never saw a press, nor any mouse event of the stopped one
      const seen = await page.evaluate<string[]>('window.seen');
      expect(seen.filter((entry) => entry.endsWith(':delete'))).toEqual([]);
      expect(seen).toEqual(['pointerdown:save', 'mousedown:save', 'pointerup:save', 'mouseup:save', 'click:save']);
    });
  });

  it('double-clicks it the same way', async () => {
    await withPage('/shift', async (page, engine) => {
      await click(engine, '#save', { double: true });
      expect(await page.evaluate('window.dbl')).toBe('save');
      expect(await page.evaluate('window.clicked')).toEqual(['save', 'save']);
    });
  });

  it('hovers it and reports the element the mouse reached', async () => {
    await withPage('/shift', async (page, engine) => {
      expect((await hover(engine, '#save')).element).toMatch(/^button "Save"/);
      expect(await page.evaluate(`getComputedStyle(document.getElementById('notice')).display`)).toBe('none');
      // and a click after the hover needs no second try
      await click(engine, '#save');
      expect(await page.evaluate('window.clicked')).toEqual(['save']);
    });
  });

  it('clicks such an element inside a frame', async () => {
    await withPage('/framed', async (page, engine) => {
      let text = '';
      for (let attempt = 0; attempt < 50 && !/button "Save"/.test(text); attempt++) {
        text = (await engine.snapshot({ interactive: true })).text;
        if (!/button "Save"/.test(text)) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const ref = /button "Save" (f\d+e\d+)/.exec(text)?.[1];
      expect(ref).toBeDefined();
      await click(engine, ref ?? '');
      const frame = await page.evaluate<string[] | undefined>(`document.querySelector('iframe').contentWindow.clicked`);
      expect(frame).toEqual(['save']);
    });
  });

  it('a guard left armed (its click cancelled before the press) does not stop the next click on another element', async () => {
    await withPage('/shift', async (page, engine) => {
      await actionPoint(page, await engine.resolve('#save'), 1_000, { guard: 'press' });
      await click(engine, '#delete');
      expect(await page.evaluate('window.clicked')).toEqual(['delete']);
    });
  });

  it('fails with element_obscured, naming what it would hit, when the element runs from the mouse; nothing else is clicked', async () => {
    await withPage('/runaway', async (page, engine) => {
      const error = await click(engine, '#shy', { timeoutMs: 600 }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({
        code: 'element_obscured',
        message: expect.stringMatching(
          /^button "Shy".* moved or was covered as the mouse reached it .*not let through/,
        ),
        details: {
          element: expect.stringMatching(/^button "Shy"/),
          coveredBy: expect.stringContaining('button#decoy'),
        },
      });
      expect(await page.evaluate('window.clicked')).toBeUndefined();
      expect(await page.evaluate<string[]>('window.seen')).toEqual([]);
    });
  });

  it('says so when the press went into a frame that slid under the mouse, and does not press again', async () => {
    await withPage('/into-frame', async (page, engine) => {
      await page.evaluate(
        `new Promise((resolve) => { const f = document.getElementById('ad'); const ready = () => f.contentDocument && f.contentDocument.readyState === 'complete' && f.contentDocument.body; const check = () => ready() ? resolve(true) : setTimeout(check, 20); check(); })`,
      );
      const error = await click(engine, '#save').catch((caught: unknown) => caught);
      expect(error).toMatchObject({
        code: 'element_obscured',
        message: expect.stringContaining('the click may have gone to iframe#ad instead'),
        details: { coveredBy: expect.stringContaining('iframe#ad'), clickedElsewhere: true },
      });
      expect(await page.evaluate('window.adClicks')).toBe(1);
      expect(await page.evaluate('window.clicked')).toBeUndefined();
    });
  });
});
