import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRef, refsInLine } from '@argus/protocol/snapshot-refs';
import type { Page } from '@argus/cdp';
import { SnapshotEngine, click, selectOption } from '../src/index.js';
import { startFixtureServer, type FixtureServer } from '@argus/test-kit';
import { html, openPage, startBrowser, type TestBrowser } from './harness.js';

const FORM = html(`
<header><nav aria-label="Main"><a href="/a">Home</a> <a href="/b">Docs</a></nav></header>
<main>
  <h1>Settings</h1>
  <p>Change how <span style="cursor:pointer" id="inline">this word</span> behaves, or read <a href="/help">the help</a>.</p>
  <form>
    <label>Email <input id="email" type="email" value="a@b.c" required></label>
    <label><input type="checkbox" id="dark" checked> Dark mode</label>
    <label for="size">Size</label><select id="size"><option value="s">Small</option><option value="m" selected>Medium</option></select>
    <button type="button" disabled>Locked</button>
    <button type="button" id="reply"><svg class="icon icon-reply" width="16" height="16"><path d="M0 0h16v16H0z"/></svg></button>
    <button type="button" id="star"><i class="fa fa-star"></i></button>
    <div onclick="this.textContent='clicked'" id="divbtn">Custom action</div>
    <div hidden><button>Hidden button</button></div>
    <div aria-hidden="true">decorative</div>
  </form>
  <h2>Shadow</h2>
  <x-card></x-card>
</main>
<script>
customElements.define('x-card', class extends HTMLElement {
  constructor() { super(); const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = '<p>Inside shadow</p><button id="sb" onclick="this.textContent = \\'pressed\\'">Shadow button</button>'; }
});
</script>`);

const TOGGLE =
  html(`<h1>Toggle</h1><button>Before</button><button id="t" aria-expanded="false" onclick="const open = this.getAttribute('aria-expanded') === 'true'; this.setAttribute('aria-expanded', String(!open)); document.getElementById('panel').hidden = open">Details</button><button>After</button>
<div id="panel" hidden><a href="/x">Secret link</a></div><p>Footer text</p>`);

const MULTI =
  html(`<label>Colors <select id="colors" multiple><option>Red</option><option>Green</option><option>Blue</option></select></label>
<label>Sizes <select id="sizes" size="3"><option>S</option><option selected>M</option><option>L</option></select></label>`);

const LABELS = html(`<label>Email <input type="email"></label>
<label for="size">Size</label><select id="size"><option>Small</option><option selected>Medium</option></select>
<label><input type="checkbox"> I agree to the <a href="/terms">terms</a></label>
<label>Search <input aria-label="Site search"></label>
<label for="notes">Notes</label><textarea id="notes" hidden></textarea>`);

/** What `argus text` must read as a person sees it (innerText's rules), and the snapshot too. */
const READING = html(`<details><summary>More</summary><p>Collapsed content</p></details>
<p aria-hidden="true">Aria hidden but visible</p>
<pre>  code
    indented</pre>
<p>Normal paragraph</p>
<details open><summary>Open one</summary><p>Shown content</p></details>
<details aria-label="Labelled"><summary>Labelled summary</summary><p>Labelled collapsed</p><button>Inside closed</button></details>
<p hidden>Hidden attribute</p><p style="display:none">Display none</p><p style="visibility:hidden">Visibility hidden</p>
<div style="content-visibility:hidden">Content visibility hidden</div><div hidden="until-found">Until found</div>
<p style="white-space:pre-line">Line one
Line two</p>`);

/** Unlabelled fields beside text a person never sees: none of it may become their hint. */
const UNSEEN = html(`<p><noscript>No script text</noscript><input id="a"></p>
<p><template>Template text</template><input id="b"></p>
<p><script>var scriptText = 1;</script><input id="c"></p>
<p><style>.style-text { color: red }</style><input id="d"></p>
<p><span hidden>Hidden span text</span><input id="e"></p>
<div><noscript>Cell noscript</noscript></div><div><input id="f"></div>`);

const LONG = html(Array.from({ length: 40 }, (_, i) => `<button>Button number ${i}</button>`).join('<br>'));

let tb: TestBrowser;
let served: FixtureServer;
let page: Page;

beforeAll(async () => {
  [tb, served] = await Promise.all([
    startBrowser(),
    startFixtureServer({
      pages: {
        '/form': FORM,
        '/toggle': TOGGLE,
        '/long': LONG,
        '/multi': MULTI,
        '/labels': LABELS,
        '/reading': READING,
        '/unseen': UNSEEN,
      },
    }),
  ]);
});
afterAll(async () => {
  await tb?.close();
  await served?.close();
});

describe('snapshot', () => {
  it('renders roles, names, states and values with refs', async () => {
    page = await openPage(tb.browser, `${served.origin}/form`);
    const engine = new SnapshotEngine(page);
    const snap = await engine.snapshot();
    const text = snap.text;
    expect(snap.title).toBe('fixture');
    expect(text).toMatch(/navigation "Main"/);
    expect(text).toMatch(/link "Home" e\d+/);
    expect(text).toMatch(/heading "Settings" \[level=1\]/);
    expect(text).toMatch(/textbox "Email" \[required\] e\d+: a@b\.c/);
    expect(text).toMatch(/checkbox "Dark mode" \[checked\] e\d+/);
    expect(text).toMatch(/combobox "Size" e\d+: Medium/);
    expect(text).toMatch(/button "Locked" \[disabled\] e\d+/);
    expect(text).not.toContain('Hidden button');
    expect(text).not.toContain('decorative');
    expect(snap.refs).toBeGreaterThan(8);
  });

  it("prints a label's text once, as its control's name, and keeps it when the control says otherwise", async () => {
    const labelPage = await openPage(tb.browser, `${served.origin}/labels`);
    const text = (await new SnapshotEngine(labelPage).snapshot()).text;
    expect(text).toMatch(/textbox "Email" e\d+/);
    expect(text).toMatch(/combobox "Size" e\d+: Medium/);
    expect(text).toMatch(/checkbox "I agree to the terms" e\d+/);
    expect(text).toMatch(/link "terms" e\d+/);
    expect(text).not.toMatch(/text: (Email|Size|I agree)/);
    // named otherwise (aria-label), or not shown: the label's text is the only place it is said
    expect(text).toMatch(/textbox "Site search" e\d+/);
    expect(text).toContain('text: Search');
    expect(text).toContain('text: Notes');
    await tb.browser.closePage(labelPage.id);
  });

  it('a native select shown as a list box is a control with a ref and its selection as value', async () => {
    const listPage = await openPage(tb.browser, `${served.origin}/multi`);
    const engine = new SnapshotEngine(listPage);
    const before = (await engine.snapshot()).text;
    const colors = /listbox "Colors" (e\d+)/.exec(before)?.[1];
    expect(colors).toBeDefined();
    expect(before).toMatch(/listbox "Sizes" e\d+: M/);
    // in a multiple select each choice adds to the selection
    // a multi-select holds exactly the options given
    await selectOption(engine, colors!, ['Red', 'Blue']);
    expect((await engine.snapshot()).text).toMatch(/listbox "Colors" e\d+: Red, Blue/);
    await tb.browser.closePage(listPage.id);
  });

  it('gives icon-only controls a fallback name, never an empty one', async () => {
    const engine = new SnapshotEngine(page);
    const { text } = await engine.snapshot({ interactive: true });
    // buttons side by side share a line in interactive mode: `button "Locked" [disabled] e5 (icon: reply) e6 …`
    expect(text).toMatch(/(?:button | )\(icon: reply\) e\d+/);
    expect(text).toMatch(/(?:button | )\(icon: star\) e\d+/);
    // every ref follows a quoted name or a parenthesised hint
    for (const line of text.split('\n'))
      for (const { index } of refsInLine(line)) expect(line.slice(0, index), line).toMatch(/[")\]] $/);
  });

  it('gives refs to onclick divs, pointer spans inside a paragraph, and shadow DOM controls', async () => {
    const engine = new SnapshotEngine(page);
    const { text } = await engine.snapshot();
    expect(text).toMatch(/clickable "Custom action" e\d+/);
    expect(text).toMatch(/clickable "this word" e\d+/);
    expect(text).toMatch(/link "the help" e\d+/);
    expect(text).toMatch(/button "Shadow button" e\d+/);
    expect(text).toContain('Inside shadow');
    const ref = /button "Shadow button" (e\d+)/.exec(text)?.[1] ?? '';
    await click(engine, ref);
    expect(await page.evaluate(`document.querySelector('x-card').shadowRoot.getElementById('sb').textContent`)).toBe(
      'pressed',
    );
  });

  it('finds click listeners added after the last snapshot of the document', async () => {
    const engine = new SnapshotEngine(page);
    await page.evaluate(`document.body.insertAdjacentHTML('beforeend', '<span id="late">Late action</span>')`);
    expect((await engine.snapshot()).text).not.toMatch(/clickable "Late action"/);
    // a listener alone (no DOM change, no cursor): the document handle kept from that snapshot still sees it
    await page.evaluate(`document.getElementById('late').addEventListener('click', (window.lateFn = () => {}))`);
    expect((await engine.snapshot()).text).toMatch(/clickable "Late action" e\d+/);
    // and one removed (the element stays): the next snapshot no longer gives it a ref
    await page.evaluate(`document.getElementById('late').removeEventListener('click', window.lateFn)`);
    expect((await engine.snapshot()).text).not.toMatch(/clickable "Late action"/);
    await page.evaluate(`document.getElementById('late').remove()`);
  });

  it('a snapshot of an unchanged document is one round trip: the walk goes out with the listener question', async () => {
    const engine = new SnapshotEngine(page);
    await engine.snapshot();
    await engine.resolve('#email'); // an element handle: the next snapshot releases it
    // each call sent, with how many were still unanswered then
    const sent: string[] = [];
    let unanswered = 0;
    const session = page.session;
    const send = session.send.bind(session);
    session.send = ((method: string, params?: object) => {
      sent.push(`${method} ${unanswered++}`);
      return send(method, params).finally(() => unanswered--);
    }) as typeof session.send;
    try {
      await engine.snapshot();
      expect(sent).toEqual([
        'Runtime.releaseObjectGroup 0',
        'DOMDebugger.getEventListeners 1',
        'Runtime.callFunctionOn 2',
      ]);
      sent.length = 0;
      const { text } = await engine.snapshot();
      // nothing resolved since: nothing to release; both calls sent before either answer
      expect(sent).toEqual(['DOMDebugger.getEventListeners 0', 'Runtime.callFunctionOn 1']);
      expect(text).toMatch(/clickable "Custom action" e\d+/);
    } finally {
      session.send = send;
    }
  });

  it('keeps refs stable across snapshots while the nodes live', async () => {
    const engine = new SnapshotEngine(page);
    const first = await engine.snapshot();
    const second = await engine.snapshot({ interactive: true });
    const refOf = (text: string, name: string) => findRef(text, name);
    for (const name of ['Home', 'Email', 'Dark mode', 'Docs', 'Custom action']) {
      expect(refOf(second.text, name)).toBeDefined();
      expect(refOf(second.text, name)).toBe(refOf(first.text, name));
    }
  });

  it('interactive mode keeps landmark and heading context only', async () => {
    const engine = new SnapshotEngine(page);
    const { text } = await engine.snapshot({ interactive: true });
    expect(text).toMatch(/^ *navigation "Main"$/m);
    expect(text).toMatch(/heading "Settings"/);
    expect(text).not.toContain('text:');
    expect(text).not.toContain('Inside shadow');
  });

  it('honours depth and scope', async () => {
    const engine = new SnapshotEngine(page);
    const shallow = await engine.snapshot({ depth: 0 });
    expect(shallow.text.split('\n').every((line) => !line.startsWith(' '))).toBe(true);
    const scoped = await engine.snapshot({ scope: 'form' });
    expect(scoped.text).toContain('Dark mode');
    expect(scoped.text).not.toContain('Home');
    await expect(engine.snapshot({ scope: '#nope' })).rejects.toMatchObject({ code: 'element_not_found' });
  });

  it('truncates at a line boundary and continues from the cursor', async () => {
    const longPage = await openPage(tb.browser, `${served.origin}/long`);
    const engine = new SnapshotEngine(longPage);
    const full = await engine.snapshot();
    const first = await engine.snapshot({ maxChars: 200 });
    expect(first.truncated).toBe(true);
    expect(first.text.length).toBeLessThanOrEqual(200);
    expect(full.text.startsWith(first.text)).toBe(true);
    let joined = first.text;
    let cursor = first.cursor;
    while (cursor) {
      const next = await engine.snapshot({ maxChars: 200, cursor });
      joined += '\n' + next.text;
      cursor = next.cursor;
    }
    expect(joined).toBe(full.text);
    await longPage.session
      .send('Target.closeTarget' as never, { targetId: longPage.targetId } as never)
      .catch(() => undefined);
  });

  it('annotate draws each ref label over its box and removes the overlay', async () => {
    const engine = new SnapshotEngine(page);
    const snap = await engine.snapshot({ interactive: true });
    const remove = await engine.annotate();
    const labels = (await page.evaluate(
      `[...document.getElementById('__argus_overlay__').children].map((el) => el.textContent).filter(Boolean)`,
    )) as string[];
    expect(labels).toContain(/link "Home" (e\d+)/.exec(snap.text)?.[1]);
    expect(labels.length).toBe(snap.refs);
    const shot = await page.screenshot();
    expect(shot.width).toBeGreaterThan(0);
    await remove();
    expect(await page.evaluate(`document.getElementById('__argus_overlay__') === null`)).toBe(true);
  });

  it('diff reports what a toggle changed', async () => {
    const togglePage = await openPage(tb.browser, `${served.origin}/toggle`);
    const engine = new SnapshotEngine(togglePage);
    const before = await engine.snapshot();
    const ref = /button "Details" \[expanded=false\] (e\d+)/.exec(before.text)?.[1] ?? '';
    await click(engine, ref);
    const diff = await engine.snapshot({ diff: true });
    expect(diff.text).toMatch(new RegExp(`^~ button "Details" \\[expanded\\] ${ref}$`, 'm'));
    expect(diff.text).toMatch(/^\+ link "Secret link" e\d+$/m);
    expect(diff.text).not.toContain('Footer text');
    const again = await engine.snapshot({ diff: true });
    expect(again.text).toMatch(/no changes/);
  });

  it('a diff after the page moved to another document is the full snapshot of the new one, said so', async () => {
    const movingPage = await openPage(tb.browser, `${served.origin}/toggle`);
    try {
      const engine = new SnapshotEngine(movingPage);
      await engine.snapshot();
      await movingPage.navigate(`${served.origin}/reading`);
      const diff = await engine.snapshot({ diff: true });
      expect(diff.baseline).toBe('navigated');
      // the new page as it is, not "- every old line, + every new one"
      expect(diff.text).not.toMatch(/^[-+~] /m);
      expect(diff.text).toBe((await engine.snapshot()).text);
      // and it is the next diff's baseline
      expect((await engine.snapshot({ diff: true })).baseline).toBe('previous');
    } finally {
      await tb.browser.closePage(movingPage.id);
    }
  });

  it('interactive diff reports the one element of a run that changed, not its whole line', async () => {
    const togglePage = await openPage(tb.browser, `${served.origin}/toggle`);
    try {
      const engine = new SnapshotEngine(togglePage);
      const before = await engine.snapshot({ interactive: true });
      // the premise: the three buttons share one line; the state sits before its own ref, never after
      // it where it would read as the next button's
      expect(before.text).toMatch(/^button "Before" e\d+ "Details" \[expanded=false\] e\d+ "After" e\d+$/m);
      const ref = /"Details" \[expanded=false\] (e\d+)/.exec(before.text)?.[1] ?? '';
      await click(engine, ref);
      const diff = await engine.snapshot({ interactive: true, diff: true });
      expect(diff.text.split('\n')).toEqual([
        `~ button "Details" [expanded] ${ref}`,
        expect.stringMatching(/^\+ link "Secret link" e\d+$/),
      ]);
    } finally {
      await tb.browser.closePage(togglePage.id);
    }
  });

  it('text reads what a person sees, as innerText does: no closed <details> content, aria-hidden text, <pre> kept', async () => {
    const readingPage = await openPage(tb.browser, `${served.origin}/reading`);
    try {
      const engine = new SnapshotEngine(readingPage);
      const { text } = await engine.text(undefined, 10_000);
      expect(text.split('\n')).toEqual([
        'More',
        'Aria hidden but visible',
        '  code',
        '    indented',
        'Normal paragraph',
        'Open one',
        'Shown content',
        'Labelled summary',
        'Line one',
        'Line two',
      ]);
      // the same lines as the browser's own innerText, less its blank lines
      const inner = (await readingPage.evaluate('document.body.innerText')) as string;
      expect(text.split('\n')).toEqual(inner.split('\n').filter((line) => line.trim()));
      // one element: the <pre> alone
      expect((await engine.text('pre', 100)).text).toBe('  code\n    indented');
    } finally {
      await tb.browser.closePage(readingPage.id);
    }
  });

  it('a closed <details> shows only its summary in the snapshot, labelled or not', async () => {
    const readingPage = await openPage(tb.browser, `${served.origin}/reading`);
    try {
      const engine = new SnapshotEngine(readingPage);
      const { text } = await engine.snapshot();
      expect(text).toContain('More');
      expect(text).toContain('Labelled summary');
      expect(text).toContain('Shown content');
      expect(text).not.toContain('Collapsed content');
      expect(text).not.toContain('Labelled collapsed');
      expect(text).not.toContain('Inside closed');
      expect(text).not.toContain('Content visibility hidden');
      expect(text).not.toContain('Until found');
    } finally {
      await tb.browser.closePage(readingPage.id);
    }
  });

  it('never takes a hint from <noscript>, <template>, <script>, <style> or hidden text', async () => {
    const unseenPage = await openPage(tb.browser, `${served.origin}/unseen`);
    try {
      const { text } = await new SnapshotEngine(unseenPage).snapshot();
      const fields = text.split('\n').filter((line) => line.includes('textbox'));
      expect(fields).toHaveLength(6);
      for (const line of fields)
        expect(line).not.toMatch(/No script|Template text|scriptText|style-text|Hidden span|Cell noscript/);
    } finally {
      await tb.browser.closePage(unseenPage.id);
    }
  });
});

describe('interactive view: one ref per action, states with their own element, what the page says', () => {
  it("a card's headline link and its overlay link to the same place are one ref; the same name to another place stays", async () => {
    const cardsPage = await openPage(tb.browser, served.urlFor('/cards.html'));
    try {
      const engine = new SnapshotEngine(cardsPage);
      const { text } = await engine.snapshot({ interactive: true });
      const refsNamed = (name: string) =>
        [...text.matchAll(new RegExp(`"${name}" ((?:f\\d+)?e\\d+)`, 'g'))].map((match) => match[1]);
      // one per card: the story's own card and the link to it from another section
      expect(refsNamed('Rescuers rush to…'), text).toHaveLength(2);
      expect(refsNamed('Nearly 30 whales…'), text).toHaveLength(1);
      // same name, different destinations: two actions
      expect(refsNamed('Benny the beluga'), text).toHaveLength(2);
      // the one kept is the headline link, not the overlay
      const kept = await engine.resolve(refsNamed('Nearly 30 whales…')[0]!);
      const { result } = await kept.session.send('Runtime.callFunctionOn', {
        objectId: kept.objectId,
        functionDeclaration: 'function () { return this.parentElement.tagName; }',
        returnByValue: true,
      });
      expect(result.value).toBe('H3');
      // the default view still lists every element
      expect((await engine.snapshot()).text.match(/link "Nearly 30 whales stranded"/g)).toHaveLength(2);
    } finally {
      await tb.browser.closePage(cardsPage.id);
    }
  });

  it("a state in a run of controls stands before its own element's ref, not after it where the next name starts", async () => {
    const statusPage = await openPage(tb.browser, served.urlFor('/live-status.html'));
    try {
      const { text } = await new SnapshotEngine(statusPage).snapshot({ interactive: true });
      expect(text).toMatch(/^ button "Save" e\d+ "Details" \[expanded=false\] e\d+ "Delete" e\d+ /m);
      expect(findRef(text, 'Details')).toMatch(/^e\d+$/);
    } finally {
      await tb.browser.closePage(statusPage.id);
    }
  });

  it('prints the text of status, alert and aria-live regions, cut to size; the diff shows what a click made them say', async () => {
    const statusPage = await openPage(tb.browser, served.urlFor('/live-status.html'));
    try {
      const engine = new SnapshotEngine(statusPage);
      const before = await engine.snapshot({ interactive: true });
      expect(before.text).not.toMatch(/status:|alert:/);
      await click(engine, findRef(before.text, 'Save')!);
      const saved = await engine.snapshot({ interactive: true, diff: true });
      expect(saved.text).toBe('+ status: Saved');
      await click(engine, findRef(before.text, 'Sync')!);
      expect((await engine.snapshot({ interactive: true, diff: true })).text).toBe('+ status: Synced 3 notes');
      await click(engine, findRef(before.text, 'Flood')!);
      const flooded = await engine.snapshot({ interactive: true, diff: true });
      expect(flooded.text).toMatch(/^\+ alert: Problem number 0 with this draft\. .*…$/);
      expect(flooded.text.length).toBeLessThan(120);
    } finally {
      await tb.browser.closePage(statusPage.id);
    }
  });
});
