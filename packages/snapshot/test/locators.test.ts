import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@argus/cdp';
import { SnapshotEngine, click, fill } from '../src/index.js';
import { startFixtureServer, type FixtureServer } from '@argus/test-kit';
import { html, openPage, startBrowser, type TestBrowser } from './harness.js';

const PAGE = html(`
<h1>Locators</h1>
<button style="display:none" onclick="window.hit = 'hidden'">Sign up</button>
<button onclick="window.hit = 'button'">Sign up</button>
<a href="#" onclick="window.hit = 'link'; return false">Sign up now</a>
<label>Email <input id="email"></label>
<input id="search" aria-label="Search" placeholder="Search the site">
<p id="greeting">Hello <b>World</b></p>
<button onclick="window.hit = 'delete-1'">Delete</button><button onclick="window.hit = 'delete-2'">Delete</button>
<x-host></x-host>
<script>
customElements.define('x-host', class extends HTMLElement {
  constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<button onclick="window.hit = \\'shadow\\'">Shadow save</button>'; }
});
</script>`);

let tb: TestBrowser;
let served: FixtureServer;
let page: Page;
let engine: SnapshotEngine;
const hit = () => page.evaluate<string>('window.hit');

beforeAll(async () => {
  [tb, served] = await Promise.all([startBrowser(), startFixtureServer({ pages: { '/locators': PAGE } })]);
  page = await openPage(tb.browser, `${served.origin}/locators`);
  engine = new SnapshotEngine(page);
});
afterAll(async () => {
  await tb?.close();
  await served?.close();
});

describe('semantic locators', () => {
  it('role with an exact name skips hidden elements and other roles', async () => {
    const result = await click(engine, 'role=button[name="Sign up"]');
    expect(await hit()).toBe('button');
    expect(result.element).toMatch(/^button "Sign up" \[e\d+\]$/);
  });

  it('text: exact when quoted, contains otherwise; name*= contains, case-insensitive; through shadow roots', async () => {
    await click(engine, 'text="Sign up now"');
    expect(await hit()).toBe('link');
    await click(engine, 'role=button[name*="SHADOW"]');
    expect(await hit()).toBe('shadow');
    // text of an open shadow tree, which the host's textContent leaves out
    for (const target of ['text=shadow save', 'text="Shadow save"']) {
      await page.evaluate(`window.hit = ''`);
      await click(engine, target);
      expect(await hit()).toBe('shadow');
    }
    // the innermost element holding the text: the paragraph, not body
    const { element } = await click(engine, 'text=hello world');
    expect(element).toMatch(/^paragraph \(id: greeting\) \[e\d+\]$/);
  });

  it('label fills the field its label names; aria-label and placeholder count', async () => {
    await fill(engine, 'label=Email', 'ada@example.com');
    expect(await page.evaluate('document.getElementById("email").value')).toBe('ada@example.com');
    await fill(engine, 'label="Search"', 'browsers');
    expect(await page.evaluate('document.getElementById("search").value')).toBe('browsers');
    await fill(engine, 'label=search the', 'again');
    expect(await page.evaluate('document.getElementById("search").value')).toBe('again');
  });

  it('several matches: element_ambiguous with refs for each, and a listed ref works', async () => {
    const error = (await click(engine, 'role=button[name="Delete"]').catch((caught: unknown) => caught)) as {
      code: string;
      message: string;
      details: { refs: string[]; matches: number };
    };
    expect(error.code).toBe('element_ambiguous');
    expect(error.details.matches).toBe(2);
    expect(error.details.refs).toHaveLength(2);
    expect(error.message).toContain(`button "Delete" ${error.details.refs[1]}`);
    await click(engine, error.details.refs[1]!);
    expect(await hit()).toBe('delete-2');
    // the minted refs are the snapshot's refs for those elements
    const { text } = await engine.snapshot({ interactive: true });
    expect(text).toContain(`"Delete" ${error.details.refs[0]} "Delete" ${error.details.refs[1]}`);
    // text=sign matches part of the button's and the link's text; text=sign up the button's whole text
    expect(await click(engine, 'text=sign').catch((caught: { code: string }) => caught.code)).toBe('element_ambiguous');
    expect((await click(engine, 'text=sign up')).element).toMatch(/^button "Sign up"/);
  });

  it('no match is element_not_found; bad syntax is invalid_input, before the page is touched', async () => {
    await expect(click(engine, 'role=button[name="Nope"]')).rejects.toMatchObject({
      code: 'element_not_found',
      message: expect.stringContaining('role=button[name="Nope"]'),
    });
    await expect(click(engine, 'role=button[name=Delete]')).rejects.toMatchObject({ code: 'invalid_input' });
  });
});
