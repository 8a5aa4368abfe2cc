import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@argus/cdp';
import {
  SnapshotEngine,
  click,
  elementBox,
  elementHtml,
  elementText,
  fill,
  focus,
  hover,
  scrollIntoView,
  selectOption,
} from '../src/index.js';
import { startFixtureServer, type FixtureServer } from '@argus/test-kit';
import { html, openPage, startBrowser, type TestBrowser } from './harness.js';

const ACTIONS = html(`
<h1>Actions</h1>
<button id="count" onclick="this.dataset.n = (+(this.dataset.n || 0) + 1); this.textContent = 'Clicked ' + this.dataset.n">Count</button>
<input id="name" oninput="window.inputs = (window.inputs || 0) + 1" onchange="window.changes = (window.changes || 0) + 1">
<textarea id="notes">old</textarea>
<div id="editor" contenteditable="true">old text</div>
<select id="fruit"><option value="a">Apple</option><option value="b">Banana split</option></select>
<select id="colours" multiple onchange="window.colourChanges = (window.colourChanges || 0) + 1"><option value="r" selected>Red</option><option value="g">Green</option><option value="b">Blue</option><optgroup label="Sold out" disabled><option value="p">Purple</option></optgroup></select>
<span id="hovered" onmouseover="this.textContent = 'hovering'">Hover me</span>
<div style="height: 2000px"></div>
<button id="far" onclick="this.textContent = 'far clicked'">Far away</button>
<a id="nav" href="/next">Go next</a>
<div id="slot"><button id="old" onclick="window.hit = 'old'">Item</button></div>
<button id="rerender" onclick="document.getElementById('slot').innerHTML = '<button id=new onclick=&quot;window.hit = \\'new\\'&quot;>Item</button>'">Rerender</button>
<button id="mover" style="transition: transform 300ms linear" onclick="this.textContent = 'caught'">Mover</button>
<button id="later" disabled onclick="this.textContent='enabled click'">Later</button>
<button id="quoted" aria-label='Say "hi"&#10;  now'>x</button>
`);

const MODAL = html(`
<button id="under" onclick="window.bought = true">Buy</button>
<div id="modal" style="position:fixed;inset:0;background:rgba(0,0,0,.4)"><div class="box">Subscribe to our newsletter</div></div>`);

const NEXT = html('<h1>Next page</h1>');

// no doctype: quirks mode, where documentElement.clientHeight is the document's height, not the viewport's
const QUIRKS = `<html><head><title>quirks</title></head><body><div style="height:3000px">tall</div><button id="deep" onclick="window.deep = true">Deep button</button></body></html>`;

// a link wrapped over two lines: the centre of its bounding box is on neither line box
// (monospace and widths in ch: 20 characters a line whatever the font's metrics)
const WRAPPED = html(
  `<p style="width:20ch;font:16px/20px monospace;margin:0">xxxxxxxxxxxxxxx <a href="#" id="two-lines" onclick="window.twoLines = true; return false">ab cd</a> xxxxxxxxxxxxxxxxxxxx</p>`,
);

const HITS = html(`
<button id="glass" onclick="window.glass = true">Under glass</button>
<div style="position:fixed;inset:0;pointer-events:none;background:rgba(0,0,0,.1)"></div>
<button id="wrapped" onclick="window.wrapped = true"><span style="padding:8px">Wrapped label</span></button>
<button id="away" style="position:absolute;left:-5000px;top:10px">Off screen</button>
<div style="height:1600px"></div>
<div id="scroller" style="overflow:auto;height:60px;width:300px"><div style="height:400px"></div><button id="nested" onclick="window.nested = true">Nested scroll</button></div>`);

let tb: TestBrowser;
let served: FixtureServer;
let page: Page;
let engine: SnapshotEngine;

function refOf(text: string, pattern: string): string {
  const ref = new RegExp(`${pattern}(?: \\[[^\\]]*\\])* (e\\d+)`).exec(text)?.[1];
  if (!ref) throw new Error(`no ref for ${pattern} in:\n${text}`);
  return ref;
}

/** Controls a script adds after the load, as apps that render late do. */
const LATE = html(`<div id="slot"></div><script>
setTimeout(() => {
  document.getElementById('slot').innerHTML = '<button id="ready" onclick="this.textContent = \\'done\\'">Ready</button><input id="code" aria-label="Code">';
}, 400);
</script>`);

beforeAll(async () => {
  [tb, served] = await Promise.all([
    startBrowser(),
    startFixtureServer({
      pages: {
        '/actions': ACTIONS,
        '/modal': MODAL,
        '/next': NEXT,
        '/hits': HITS,
        '/quirks': QUIRKS,
        '/wrapped': WRAPPED,
        '/late': LATE,
      },
    }),
  ]);
  page = await openPage(tb.browser, `${served.origin}/actions`);
  engine = new SnapshotEngine(page);
});
afterAll(async () => {
  await tb?.close();
  await served?.close();
});

describe('click points', () => {
  it('scrolls to and clicks an element below the fold of a quirks-mode page', async () => {
    const quirks = await openPage(tb.browser, `${served.origin}/quirks`);
    try {
      const quirksEngine = new SnapshotEngine(quirks);
      expect(await quirks.evaluate('document.compatMode')).toBe('BackCompat');
      const { text } = await quirksEngine.snapshot({ interactive: true });
      await click(quirksEngine, refOf(text, '"Deep button"'));
      expect(await quirks.evaluate('window.deep')).toBe(true);
    } finally {
      await tb.browser.closePage(quirks.id);
    }
  });

  it('clicks a link wrapped over two lines on one of its line boxes', async () => {
    const wrapped = await openPage(tb.browser, `${served.origin}/wrapped`);
    try {
      const wrappedEngine = new SnapshotEngine(wrapped);
      // the premise: two line boxes, and the centre of their union hits the paragraph, not the link
      const premise = await wrapped.evaluate<{ boxes: number; centre: string }>(
        `(() => { const a = document.getElementById('two-lines'); const r = a.getBoundingClientRect(); return { boxes: a.getClientRects().length, centre: document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2).tagName }; })()`,
      );
      expect(premise).toEqual({ boxes: 2, centre: 'P' });
      const { text } = await wrappedEngine.snapshot({ interactive: true });
      await click(wrappedEngine, refOf(text, '"ab cd"'));
      expect(await wrapped.evaluate('window.twoLines')).toBe(true);
    } finally {
      await tb.browser.closePage(wrapped.id);
    }
  });
});

describe('actions', () => {
  it('clicks by ref and by selector with real input', async () => {
    const { text } = await engine.snapshot({ interactive: true });
    const result = await click(engine, refOf(text, 'button "Count"'));
    expect(result.element).toMatch(/^button "Count" \[e\d+\]$/);
    await click(engine, '#count');
    expect(await page.evaluate(`document.getElementById('count').textContent`)).toBe('Clicked 2');
    await click(engine, '@' + refOf(text, 'button "Count"'), { double: true });
    expect(await page.evaluate(`document.getElementById('count').textContent`)).toBe('Clicked 4');
    // refs as other tools print them: `[ref=e12]` (Playwright MCP) and `ref=e12`
    await click(engine, `[ref=${refOf(text, 'button "Count"')}]`);
    await click(engine, `ref=${refOf(text, 'button "Count"')}`);
    expect(await page.evaluate(`document.getElementById('count').textContent`)).toBe('Clicked 6');
    // a whole snapshot line pasted as the target: a typed error that names the ref to pass
    const ref = refOf(text, 'button "Count"');
    for (const [pasted, code] of [[`button "Count" ${ref}`, 'invalid_input']] as const) {
      const error = await click(engine, pasted).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code, details: { ref } });
      expect((error as Error).message).toContain(`Did you mean ${ref}?`);
    }
    await expect(click(engine, 'div[')).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('Pass a ref from `argus snapshot`'),
    });
    // a name with quotes and a line break is reported on one line, its quotes escaped
    expect((await click(engine, '#quoted')).element).toBe('button "Say \\"hi\\" now"');
  });

  it('scrolls an element below the fold into view before clicking it', async () => {
    const { text } = await engine.snapshot({ interactive: true });
    await click(engine, refOf(text, 'button "Far away"'));
    expect(await page.evaluate(`document.getElementById('far').textContent`)).toBe('far clicked');
    expect(await page.evaluate('scrollY')).toBeGreaterThan(500);
  });

  it('refuses at once to fill what is no text field, saying what to use instead', async () => {
    const started = performance.now();
    await expect(fill(engine, '#count', 'hi', { timeoutMs: 20_000 })).rejects.toMatchObject({
      code: 'element_not_interactable',
      message: expect.stringMatching(/is not a text field .* Click it, or target the text field itself/),
    });
    await expect(fill(engine, '#fruit', 'Apple', { timeoutMs: 20_000 })).rejects.toMatchObject({
      message: expect.stringContaining('use `argus select`'),
    });
    // not waited for as a read-only field is (that wait takes the whole action timeout, 20 s here)
    expect(performance.now() - started).toBeLessThan(10_000);
    await expect(selectOption(engine, '#name', 'x')).rejects.toMatchObject({
      message: expect.stringContaining(
        'is not a <select>: `select` chooses the options of one. To put text in a field use `argus fill`',
      ),
    });
  });

  it('fills inputs (input + change events), textareas and contenteditable', async () => {
    const { text } = await engine.snapshot();
    const input = await fill(engine, refOf(text, 'textbox \\(id: name\\)'), 'hello world');
    expect(input.value).toBe('hello world');
    expect(await page.evaluate('[window.inputs > 0, window.changes > 0]')).toEqual([true, true]);
    expect((await fill(engine, '#notes', 'new notes')).value).toBe('new notes');
    const editable = await fill(engine, '#editor', 'fresh content');
    expect(editable.value).toBe('fresh content');
    // named as the snapshot names it: an editing host is a text box
    expect(editable.element).toMatch(/^textbox /);
    expect(await page.evaluate(`document.getElementById('editor').textContent`)).toBe('fresh content');
    expect((await fill(engine, '#name', '')).value).toBe('');
  });

  it('selects an option by label and by value, and reports the choice', async () => {
    const { text } = await engine.snapshot();
    const ref = refOf(text, 'combobox \\(id: fruit\\)');
    expect(await selectOption(engine, ref, 'Banana split')).toMatchObject({
      selected: [{ value: 'b', label: 'Banana split' }],
    });
    expect(await page.evaluate(`document.getElementById('fruit').value`)).toBe('b');
    expect((await selectOption(engine, ref, 'a')).selected).toEqual([{ value: 'a', label: 'Apple' }]);
    await expect(selectOption(engine, ref, 'Cherry')).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(selectOption(engine, '#count', 'x')).rejects.toMatchObject({ code: 'element_not_interactable' });
    // a single select takes one option, as a list too
    expect((await selectOption(engine, ref, ['Banana split'])).selected).toEqual([
      { value: 'b', label: 'Banana split' },
    ]);
    await expect(selectOption(engine, ref, ['a', 'b'])).rejects.toMatchObject({ code: 'invalid_input' });
    expect(await page.evaluate(`document.getElementById('fruit').value`)).toBe('b');
  });

  it('leaves a <select multiple> holding exactly the options given', async () => {
    const selected = () => page.evaluate(`[...document.getElementById('colours').selectedOptions].map((o) => o.value)`);
    // Red was selected: it is cleared, not added to
    expect(await selectOption(engine, '#colours', ['Green', 'b'])).toMatchObject({
      selected: [
        { value: 'g', label: 'Green' },
        { value: 'b', label: 'Blue' },
      ],
    });
    expect(await selected()).toEqual(['g', 'b']);
    expect((await selectOption(engine, '#colours', 'red')).selected).toEqual([{ value: 'r', label: 'Red' }]);
    expect(await selected()).toEqual(['r']);
    expect((await selectOption(engine, '#colours', [])).selected).toEqual([]);
    expect(await selected()).toEqual([]);
    expect(await page.evaluate('window.colourChanges')).toBe(3);
    // an option of a disabled group, or one that is not there, changes nothing
    await expect(selectOption(engine, '#colours', ['Red', 'Purple'])).rejects.toMatchObject({
      code: 'element_not_interactable',
      message: expect.stringContaining('"Purple"'),
    });
    await expect(selectOption(engine, '#colours', ['Red', 'Teal'])).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('no option "Teal"'),
    });
    expect(await selected()).toEqual([]);
  });

  it('hovers, focuses, scrolls and reads text, html and boxes', async () => {
    await hover(engine, '#hovered');
    expect(await page.evaluate(`document.getElementById('hovered').textContent`)).toBe('hovering');
    await focus(engine, '#name');
    expect(await page.evaluate('document.activeElement.id')).toBe('name');
    await scrollIntoView(engine, '#count');
    const whole = await elementText(engine, undefined, 10_000);
    expect(whole.text).toContain('Actions');
    const short = await elementText(engine, '#count', 3);
    expect(short).toEqual({ text: 'Cli', truncated: true });
    expect((await elementHtml(engine, '#fruit', 10_000)).html).toContain('<option value="b">');
    const box = await elementBox(engine, '#far');
    expect(box.width).toBeGreaterThan(10);
    expect(box.y).toBeGreaterThan(1000);
  });

  it('waits (bounded) for a disabled control and explains the failure', async () => {
    const { text } = await engine.snapshot();
    const ref = refOf(text, 'button "Later"');
    const started = Date.now();
    await expect(click(engine, ref, { timeoutMs: 300 })).rejects.toMatchObject({ code: 'element_not_interactable' });
    expect(Date.now() - started).toBeLessThan(2_000);
    void page.evaluate(`setTimeout(() => document.getElementById('later').disabled = false, 100)`);
    await click(engine, ref);
    expect(await page.evaluate(`document.getElementById('later').textContent`)).toBe('enabled click');
  });

  it('waits for a moving element to settle before clicking it', async () => {
    await page.evaluate(
      `document.getElementById('mover').getBoundingClientRect(); document.getElementById('mover').style.transform = 'translateX(300px)'`,
    );
    await click(engine, '#mover');
    expect(await page.evaluate(`document.getElementById('mover').textContent`)).toBe('caught');
  });

  it('does not let an old ref hit a re-rendered node', async () => {
    const { text } = await engine.snapshot();
    const oldRef = refOf(text, 'button "Item"');
    await click(engine, refOf(text, 'button "Rerender"'));
    const started = performance.now();
    await expect(click(engine, oldRef)).rejects.toMatchObject({ code: 'ref_stale' });
    expect(performance.now() - started).toBeLessThan(200);
    expect(await page.evaluate('window.hit ?? null')).toBeNull();
    const fresh = await engine.snapshot();
    const newRef = refOf(fresh.text, 'button "Item"');
    expect(newRef).not.toBe(oldRef);
    await click(engine, newRef);
    expect(await page.evaluate('window.hit')).toBe('new');
  });

  it('rejects refs never issued and selectors matching nothing', async () => {
    await expect(click(engine, 'e9999')).rejects.toMatchObject({ code: 'ref_not_found' });
    await expect(click(engine, '#missing', { timeoutMs: 200 })).rejects.toMatchObject({
      code: 'element_not_found',
      message: expect.stringContaining('snapshot'),
    });
    await expect(click(engine, '[[[')).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('a click that navigates makes old refs stale, fast', async () => {
    const { text } = await engine.snapshot();
    const countRef = refOf(text, 'button "Clicked \\d+"');
    const { effects } = await page.act(() => click(engine, refOf(text, 'link "Go next"')));
    expect(effects.navigated).toBe(true);
    expect(effects.url).toBe(`${served.origin}/next`);
    const started = performance.now();
    const error = await click(engine, countRef).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(200);
    expect(error).toMatchObject({
      code: 'ref_stale',
      message: `Ref ${countRef} is stale: the page changed since the snapshot. Run \`argus snapshot\` and use the new ref.`,
    });
    const after = await engine.snapshot();
    expect(after.text).toContain('Next page');
  });

  it('hit-tests like a real click: through pointer-events:none layers, onto child content, into scroll containers', async () => {
    const hitsPage = await openPage(tb.browser, `${served.origin}/hits`);
    const hitsEngine = new SnapshotEngine(hitsPage);
    const { text } = await hitsEngine.snapshot({ interactive: true });
    await click(hitsEngine, refOf(text, '"Under glass"'));
    await click(hitsEngine, refOf(text, '"Wrapped label"'));
    await click(hitsEngine, refOf(text, '"Nested scroll"'));
    expect(await hitsPage.evaluate('[window.glass, window.wrapped, window.nested]')).toEqual([true, true, true]);
    const started = performance.now();
    // an element placed outside the page gets no ref (a person cannot see it): target it by selector
    const error = await click(hitsEngine, '#away').catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'element_not_interactable',
      message: expect.stringContaining('outside the viewport'),
    });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('refuses to click an element covered by a modal, naming the cover', async () => {
    const modalPage = await openPage(tb.browser, `${served.origin}/modal`);
    const modalEngine = new SnapshotEngine(modalPage);
    const { text } = await modalEngine.snapshot({ interactive: true });
    const error = await click(modalEngine, refOf(text, 'button "Buy"')).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'element_obscured' });
    expect((error as Error).message).toContain('div#modal');
    expect(await modalPage.evaluate('window.bought ?? false')).toBe(false);
  });
});

describe('targets a page adds late', () => {
  it('a locator or a CSS selector that matches nothing yet is waited for, within the action timeout', async () => {
    const latePage = await openPage(tb.browser, `${served.origin}/late`);
    const lateEngine = new SnapshotEngine(latePage);
    expect((await click(lateEngine, 'text=Ready', { timeoutMs: 5_000 })).element).toMatch(/^button "Ready"/);
    expect(await latePage.evaluate(`document.getElementById('ready').textContent`)).toBe('done');
    expect((await fill(lateEngine, '#code', '1234', { timeoutMs: 5_000 })).value).toBe('1234');

    const started = performance.now();
    const missing = await click(lateEngine, 'text=Never there', { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 'element_not_found' });
    expect((missing as Error).message).toContain('within 300 ms');
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    const noSelector = await click(lateEngine, '#never', { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(noSelector).toMatchObject({ code: 'element_not_found' });
    await tb.browser.closePage(latePage.id);
  });
});
