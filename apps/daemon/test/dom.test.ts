import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFixtureServer } from '@argus/test-kit';
import { describe, expect, it } from 'vitest';
import { codeOf, refOf, useHarness } from './harness.js';

const h = useHarness();

const js = async <T>(code: string): Promise<T> => (await h.client.page.eval.mutate({ js: code })).value as T;

describe('load-html', () => {
  it('renders a local file with its relative assets, and refuses paths outside the workspace', async () => {
    mkdirSync(join(h.workspace, 'site'), { recursive: true });
    writeFileSync(join(h.workspace, 'site', 'style.css'), 'h1 { color: rgb(200, 0, 0); }');
    writeFileSync(
      join(h.workspace, 'site', 'index.html'),
      '<!doctype html><title>Local</title><link rel="stylesheet" href="style.css"><h1>Local page</h1>',
    );
    const result = await h.client.dom.loadHtml.mutate({ file: 'site/index.html' });
    expect(result.title).toBe('Local');
    expect(result.url).toMatch(/^file:\/\/.*\/site\/index\.html$/);
    expect(await js('getComputedStyle(document.querySelector("h1")).color')).toBe('rgb(200, 0, 0)');
    expect(await codeOf(h.client.dom.loadHtml.mutate({ file: '/etc/hostname' }))).toBe('path_forbidden');
    expect(await codeOf(h.client.dom.loadHtml.mutate({ file: 'site/missing.html' }))).toBe('invalid_input');
  });
});

describe('style', () => {
  it('sets inline styles, remembers the old values and undoes them', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/clutter.html') });
    const first = await h.client.dom.style.mutate({ target: '#para', property: 'color', value: 'rgb(0, 128, 0)' });
    expect(first).toMatchObject({ before: null, computed: 'rgb(0, 128, 0)' });
    await h.client.page.eval.mutate({ js: 'document.getElementById("top").style.padding = "3px"' });
    const second = await h.client.dom.style.mutate({
      target: '#top',
      property: 'padding',
      value: '20px',
      important: true,
    });
    expect(second.before).toBe('3px');
    expect(await js('document.getElementById("top").style.getPropertyPriority("padding")')).toBe('important');
    const undone = await h.client.dom.style.mutate({ undo: true });
    expect(undone.undone).toBe(2);
    expect(await js('document.getElementById("para").style.color')).toBe('');
    expect(await js('document.getElementById("top").style.padding')).toBe('3px');
    expect((await h.client.dom.style.mutate({ undo: true })).undone).toBe(0);
  });

  it('rejects an invalid value or a missing argument', async () => {
    expect(await codeOf(h.client.dom.style.mutate({ target: '#para', property: 'color', value: 'not-a-colour' }))).toBe(
      'invalid_input',
    );
    expect(await codeOf(h.client.dom.style.mutate({ target: '#para' }))).toBe('invalid_input');
    expect(await codeOf(h.client.dom.style.mutate({ target: '#para', property: 'color;x', value: 'red' }))).toBe(
      'invalid_input',
    );
  });
});

describe('cleanup', () => {
  it('removes only cookie banners with --cookies', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/clutter.html') });
    const result = await h.client.dom.cleanup.mutate({ cookies: true });
    expect(result).toEqual({ ads: 0, cookies: 1, sticky: 0 });
    expect(await js('getComputedStyle(document.getElementById("consent")).display')).toBe('none');
    expect(await js('getComputedStyle(document.getElementById("chat")).display')).toBe('block');
  });

  it('removes ads, banners and fixed/sticky bars by default, keeping the content', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/clutter.html') });
    const result = await h.client.dom.cleanup.mutate({});
    expect(result).toEqual({ ads: 3, cookies: 1, sticky: 2 });
    expect(await js('getComputedStyle(document.getElementById("top")).position')).toBe('static');
    expect(await js('getComputedStyle(document.getElementById("chat")).display')).toBe('none');
    expect(await js('getComputedStyle(document.querySelector("iframe.ad-slot")).display')).toBe('none');
    expect(await js('getComputedStyle(document.getElementById("para")).display')).toBe('block');
  });
});

describe('diff', () => {
  it('diffs the visible text of two pages and closes its temporary tabs', async () => {
    const before = await h.client.tabs.list.query({});
    const result = await h.client.dom.diff.mutate({
      from: h.server.urlFor('/pages-a.html'),
      to: h.server.urlFor('/pages-b.html'),
    });
    expect(result).toMatchObject({ added: 2, removed: 1, identical: false });
    expect(result.diff.split('\n')).toEqual(['- Only in A', '+ Only in B', '+ Also new in B']);
    const same = await h.client.dom.diff.mutate({
      from: h.server.urlFor('/pages-a.html'),
      to: h.server.urlFor('/pages-a.html'),
    });
    expect(same.identical).toBe(true);
    expect(
      await codeOf(
        h.client.dom.diff.mutate({ from: 'http://127.0.0.1:9/nothing', to: h.server.urlFor('/pages-a.html') }),
      ),
    ).toBe('navigation_failed');
    const after = await h.client.tabs.list.query({});
    expect(after.tabs.map((tab) => tab.id).sort()).toEqual(before.tabs.map((tab) => tab.id).sort());
  });
});

describe('frame', () => {
  it('makes selectors, eval and text work inside the chosen frame, then goes back to main', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/frames.html') });
    expect(await codeOf(h.client.input.click.mutate({ target: '#child-button', timeoutMs: 500 }))).toBe(
      'element_not_found',
    );
    const chosen = await h.client.dom.frame.mutate({ target: '#child' });
    expect(chosen).toMatchObject({ name: 'child', main: false });
    expect(chosen.url).toContain('frame-child.html');
    await h.client.input.click.mutate({ target: '#child-button' });
    expect((await h.client.read.text.query({ target: '#child-result' })).text).toBe('Child clicked');
    expect(await js('document.title')).toBe('Frame child');
    expect((await h.client.read.text.query({})).text).toContain('Inside the frame.');
    const back = await h.client.dom.frame.mutate({ target: 'main' });
    expect(back.main).toBe(true);
    expect(await js('document.title')).toBe('Frames');
  });

  it('names an element a selector finds in the chosen frame as a locator or the top document names it', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/frames.html') });
    // the same button, found by a selector in the top document, then in the chosen frame, then by a locator
    const top = await h.client.input.click.mutate({ target: '#top-button' });
    expect(top.element).toBe('button "Top button"');
    await h.client.dom.frame.mutate({ target: '#child' });
    const bySelector = await h.client.input.click.mutate({ target: '#child-button' });
    const byLocator = await h.client.input.click.mutate({ target: 'role=button[name="Child button"]' });
    expect(bySelector.element).toBe('button "Child button"');
    // (a locator's match also gets a ref)
    expect(byLocator.element).toMatch(/^button "Child button" \[f\d+e\d+\]$/);
    await h.client.dom.frame.mutate({ main: true });
  });

  it('wait finds a locator, a selector and a text inside a frame, as actions find its elements; a frame that never shows it loses the race only', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/frames.html') });
    const timeoutMs = 3_000;
    expect(
      (await h.client.page.wait.mutate({ selector: 'role=button[name="Child button"]', timeoutMs })).matched,
    ).toContain('Child button');
    expect((await h.client.page.wait.mutate({ selector: '#child-button', timeoutMs })).matched).toBe('#child-button');
    // the text appears later, in the frame (commands on one tab queue: the page changes it itself)
    await js(
      'setTimeout(() => { document.getElementById("child").contentDocument.getElementById("child-result").textContent = "Shown later"; }, 300); 1',
    );
    expect((await h.client.page.wait.mutate({ text: 'Shown later', timeoutMs })).matched).toBe('text "Shown later"');
    // nowhere at all: the whole timeout, then the usual timeout error
    expect(await codeOf(h.client.page.wait.mutate({ text: 'Never shown', timeoutMs: 500 }))).toBe('timeout');
    // with a frame chosen, only that frame's document counts
    await h.client.dom.frame.mutate({ target: '#child' });
    expect(await codeOf(h.client.page.wait.mutate({ selector: '#top-button', timeoutMs: 500 }))).toBe('timeout');
    await h.client.dom.frame.mutate({ main: true });
  });

  it('selects by --name, --url and ref, and explains misses', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/frames.html') });
    expect((await h.client.dom.frame.mutate({ name: 'child' })).name).toBe('child');
    await h.client.dom.frame.mutate({ main: true });
    expect((await h.client.dom.frame.mutate({ url: 'frame-child' })).main).toBe(false);
    await h.client.dom.frame.mutate({ main: true });
    expect(await codeOf(h.client.dom.frame.mutate({ name: 'nope' }))).toBe('element_not_found');
    expect(await codeOf(h.client.dom.frame.mutate({ target: 'h1' }))).toBe('invalid_input');
    expect(await codeOf(h.client.dom.frame.mutate({}))).toBe('invalid_input');
    // iframes carry no ref in snapshots: a ref of an element inside a frame selects that frame
    const snap = await h.client.snapshot.take.mutate({ interactive: true });
    await h.client.dom.frame.mutate({ target: refOf(snap.text, /Child button/) });
    expect(await js('document.title')).toBe('Frame child');
    await h.client.dom.frame.mutate({ main: true });
  });

  it('whole-page reads (accessibility, forms, links) follow the selected frame, in and out of process', async () => {
    const other = await startFixtureServer();
    try {
      // localhost and 127.0.0.1 are different sites: the second child runs out of process
      const child = `http://localhost:${other.port}/frame-child.html`;
      await h.client.page.goto.mutate({ url: h.server.urlFor(`/frames.html?xorigin=${encodeURIComponent(child)}`) });
      expect((await h.client.read.accessibility.query({})).text).toMatch(/^RootWebArea "Frames"/);
      for (const select of [{ target: '#child' }, { url: `localhost:${other.port}` }]) {
        const chosen = await h.client.dom.frame.mutate(select);
        expect(chosen.main).toBe(false);
        const tree = await h.client.read.accessibility.query({});
        expect(tree.text.split('\n')[0], JSON.stringify(select)).toMatch(/^RootWebArea "Frame child"/);
        expect(tree.text).toContain('"Child button"');
        expect(tree.text).not.toContain('"Top button"');
        const { forms } = await h.client.read.forms.mutate({});
        const fields = forms.flatMap((form) => form.fields);
        expect(fields.map((field) => field.label)).toContain('Child input');
        // the field's ref acts in that frame
        const ref = fields.find((field) => field.label === 'Child input')?.ref;
        await h.client.input.fill.mutate({ target: ref!, text: 'hi' });
        expect((await h.client.read.text.query({ target: '#child-result' })).text).toBe('Typed: hi');
        expect((await h.client.read.links.query({})).links).toEqual([]);
        // locators resolve in the selected frame too
        await h.client.input.click.mutate({ target: 'role=button[name="Child button"]' });
        expect((await h.client.read.text.query({ target: 'text=Child clicked' })).text).toBe('Child clicked');
        await h.client.dom.frame.mutate({ main: true });
      }
      expect((await h.client.read.accessibility.query({})).text).toMatch(/^RootWebArea "Frames"/);
    } finally {
      await other.close();
    }
  });

  it('forgets the frame when the page navigates', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/frames.html') });
    await h.client.dom.frame.mutate({ target: '#child' });
    await h.client.page.goto.mutate({ url: h.server.urlFor('/frames.html') });
    expect(await js('document.title')).toBe('Frames');
  });
});
