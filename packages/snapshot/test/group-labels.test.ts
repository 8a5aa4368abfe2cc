import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@argus/cdp';
import { SnapshotEngine } from '../src/index.js';
import { startFixtureServer, type FixtureServer } from '@argus/test-kit';
import { html, openPage, startBrowser, type TestBrowser } from './harness.js';

/**
 * -i keeps short text that labels a small group of controls, decided by the page's structure; running
 * text never. Each block below is one case, told apart by its own words.
 */
const LABELS = html(`
<div class="picker"><a href="#p">Prev</a><div class="title"><span>May</span>&#xa0;<span>2026</span></div><a href="#n">Next</a></div>
<nav aria-label="Pages"><a href="?p=1">Previous</a> page 2 of 5 <a href="?p=3">Following</a></nav>
<ul><li><a href="/lamp">Desk lamp</a> <span class="price">39 €</span> <button type="button">Buy</button></li></ul>
<p>Read <a href="/guide">the guide</a> or else <a href="/faq">the FAQ</a> first.</p>
<div class="hatnote">Main article: <a href="/firefox">Firefox</a></div>
<div>Published today, <a href="/u">Someone</a></div>
<div><label for="q">Query words</label> <input id="q"> <button type="button">Go</button></div>
<div><span>Sections</span>${Array.from({ length: 10 }, (_, i) => `<a href="/s${i}">Section ${i}</a>`).join(' ')}</div>
${Array.from({ length: 3 }, (_, i) => `<div class="card"><span>Sponsored</span> <a href="/ad${i}">Offer number ${i}</a></div>`).join('\n')}
`);

/** Same-named controls: told apart by their row only where that changes what a click does. */
const ROWS = html(`
<ul class="menu">
  <li><a href="/desktop">Desktop</a><ul><li><a href="/desktop/overview">Overview</a></li><li><a href="/desktop/trust">Trusted</a></li></ul></li>
  <li><a href="/mobile">Mobile</a><ul><li><a href="/mobile/overview">Overview</a></li></ul></li>
</ul>
<article><a href="/author/jo">Jo Writer</a> <a href="/story/1">Story one</a></article>
<article><a href="/author/jo">Jo Writer</a> <a href="/story/2">Story two</a></article>
<table><tr><td>Green mug</td><td><button type="button">Edit</button></td></tr><tr><td>Tea towel</td><td><button type="button">Edit</button></td></tr></table>
`);

let tb: TestBrowser;
let served: FixtureServer;
let page: Page;

beforeAll(async () => {
  [tb, served] = await Promise.all([
    startBrowser(),
    startFixtureServer({ pages: { '/labels': LABELS, '/rows': ROWS } }),
  ]);
});
afterAll(async () => {
  await tb?.close();
  await served?.close();
});

describe('-i group labels (issue 12 §5)', () => {
  it('keeps the short text that labels a few controls, once', async () => {
    page = await openPage(tb.browser, `${served.origin}/labels`);
    const { text } = await new SnapshotEngine(page).snapshot({ interactive: true });
    // a month title made of two spans reads as one label
    expect(text.match(/text: May 2026$/gm)).toHaveLength(1);
    // bare text between two controls
    expect(text).toMatch(/text: page 2 of 5$/m);
    // a value beside its button
    expect(text).toMatch(/text: 39 €$/m);
  });

  it('never keeps running text, text beside a single link, label text, a big section title or boilerplate', async () => {
    const { text } = await new SnapshotEngine(page).snapshot({ interactive: true });
    for (const words of [
      'or else',
      'first.',
      'Main article',
      'Published today',
      'Query words',
      'Sections',
      'Sponsored',
    ])
      expect(text, words).not.toContain(`text: ${words}`);
    // the controls themselves are all there
    expect(text).toMatch(/"Desk lamp" e\d+/);
    expect(text).toMatch(/textbox "Query words" e\d+/);
    expect(text).toMatch(/"Section 9" e\d+/);
    // the full snapshot still reads the page
    const full = (await new SnapshotEngine(page).snapshot()).text;
    for (const words of ['or else', 'Main article:', 'Sections', 'Sponsored', 'May 2026', 'page 2 of 5'])
      expect(full, words).toContain(words);
  });
});

describe('row context (issue 12 §4)', () => {
  it('names the row where same-named controls act differently, not where they go to one place', async () => {
    page = await openPage(tb.browser, `${served.origin}/rows`);
    const { text } = await new SnapshotEngine(page).snapshot({ interactive: true });
    // a submenu's items take the item they open from, not the text of a sibling item
    expect(text).toMatch(/"Overview" \(in "Desktop"\) e\d+/);
    expect(text).toMatch(/"Overview" \(in "Mobile"\) e\d+/);
    expect(text).not.toContain('in "Trusted"');
    // a name no other control shares needs no context
    expect(text).toMatch(/"Trusted" e\d+/);
    // two links to the same author page are one action wherever they sit
    expect(text).toMatch(/"Jo Writer" e\d+ /);
    expect(text).not.toMatch(/"Jo Writer" \(in/);
    expect(text).toMatch(/"Edit" \(in "Green mug"\) e\d+/);
    expect(text).toMatch(/"Edit" \(in "Tea towel"\) e\d+/);
  });
});
