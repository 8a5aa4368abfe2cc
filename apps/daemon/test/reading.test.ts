import { describe, expect, it } from 'vitest';
import { codeOf, useHarness } from './harness.js';

const h = useHarness();

describe('reading commands on real Chromium', () => {
  it('title and links (absolute hrefs, text fallbacks, shadow DOM, scope, filter)', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/meta.html') });
    expect(await h.client.read.title.query({})).toEqual({ title: 'Argus Meta Fixture' });

    const all = await h.client.read.links.query({});
    const byText = new Map(all.links.map((link) => [link.text, link.href]));
    expect(byText.get('Page A')).toBe(h.server.urlFor('/nav-a.html'));
    expect(byText.get('Page B')).toBe(h.server.urlFor('/nav-b.html?x=1#part'));
    expect(byText.get('external docs')).toBe('https://example.com/docs');
    expect(byText.get('jump')).toBe(h.server.urlFor('/meta.html#section'));
    expect(byText.get('Sign-up form')).toBe(h.server.urlFor('/form.html'));
    expect(byText.get('Shadow link')).toBe(h.server.urlFor('/shadow.html'));
    expect(all).toMatchObject({ total: all.links.length, truncated: false });

    const nav = await h.client.read.links.query({ within: '#top-nav' });
    expect(nav.links.map((link) => link.text)).toEqual(['Page A', 'Page B']);
    const filtered = await h.client.read.links.query({ filter: 'EXAMPLE.COM' });
    expect(filtered.links).toEqual([{ text: 'external docs', href: 'https://example.com/docs' }]);
    const capped = await h.client.read.links.query({ maxItems: 2 });
    expect(capped).toMatchObject({ total: all.total, truncated: true });
    expect(capped.links).toHaveLength(2);
  });

  it('forms: fields with name, type, value, label and refs that work', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/meta.html') });
    const { forms } = await h.client.read.forms.mutate({});
    expect(forms).toHaveLength(2);
    const [search, loose] = forms;
    expect(search).toMatchObject({ name: 'search', action: h.server.urlFor('/search'), method: 'get' });
    const field = (name: string) => search!.fields.find((candidate) => candidate.name === name)!;
    expect(field('q')).toMatchObject({ type: 'search', value: 'argus', label: 'Search for', tag: 'input' });
    expect(field('q').ref).toMatch(/^e\d+$/);
    expect(field('csrf')).toMatchObject({ type: 'hidden', value: 't0ken', ref: null });
    expect(field('sort')).toMatchObject({ type: 'select-one', value: 'top', label: 'Sort by' });
    expect(field('sort').options).toEqual([
      { value: 'new', label: 'Newest', selected: false },
      { value: 'top', label: 'Top', selected: true },
    ]);
    expect(field('exact')).toMatchObject({ type: 'checkbox', checked: true, label: 'Exact match' });
    expect(field('pin')).toMatchObject({ type: 'password', value: '••••', label: 'PIN' });
    expect(search!.fields.find((candidate) => candidate.tag === 'button')).toMatchObject({
      type: 'submit',
      label: 'Go',
    });
    expect(loose).toMatchObject({
      name: '',
      action: null,
      fields: [{ name: 'loose', id: 'loose', label: 'Outside any form' }],
    });

    // the ref is a real ref: fill by it, then read the value back
    await h.client.input.fill.mutate({ target: field('q').ref!, text: 'browsers' });
    const again = await h.client.read.forms.mutate({ within: '#search' });
    expect(again.forms).toHaveLength(1);
    const q = again.forms[0]!.fields.find((candidate) => candidate.name === 'q')!;
    expect(q).toMatchObject({ value: 'browsers', ref: field('q').ref });
  });

  it('forms on the sign-up fixture: labels from <label for>, wrapping labels and radios', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
    const { forms } = await h.client.read.forms.mutate({});
    const fields = forms[0]!.fields;
    expect(fields.find((f) => f.name === 'email')).toMatchObject({ type: 'email', label: 'Email' });
    expect(fields.find((f) => f.name === 'terms')).toMatchObject({
      type: 'checkbox',
      checked: false,
      label: 'I accept the terms',
    });
    expect(fields.filter((f) => f.name === 'plan').map((f) => [f.value, f.checked])).toEqual([
      ['free', true],
      ['pro', false],
      ['team', false],
    ]);
    expect(fields.every((f) => f.ref !== null)).toBe(true);
  });

  it('accessibility: the full AX tree as compact text', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
    const tree = await h.client.read.accessibility.query({});
    expect(tree.text.split('\n')[0]).toMatch(/^RootWebArea "Sign up"/);
    expect(tree.text).toMatch(/heading "Sign up" \[level=1\]/);
    expect(tree.text).toMatch(/textbox "Name"/);
    expect(tree.text).toMatch(/checkbox "I accept the terms"/);
    expect(tree.text).toMatch(/radio "Free" \[checked\]/);
    expect(tree.text).not.toMatch(/InlineTextBox/);
    expect(tree.truncated).toBe(false);
    const full = await h.client.read.accessibility.query({ all: true });
    expect(full.nodes).toBeGreaterThan(tree.nodes);
    const small = await h.client.read.accessibility.query({ maxChars: 80 });
    expect(small.truncated).toBe(true);
    expect(small.text.length).toBeLessThanOrEqual(80);
    const shallow = await h.client.read.accessibility.query({ depth: 1 });
    expect(shallow.nodes).toBe(1);
  });

  it('media: images with natural sizes, videos and audio with absolute URLs', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/meta.html') });
    await h.client.page.wait.mutate({ load: true });
    const media = await h.client.read.media.query({});
    const pixel = media.images.find((image) => image.alt === 'One pixel');
    expect(pixel).toMatchObject({
      src: h.server.urlFor('/assets/pixel.png'),
      naturalWidth: 1,
      naturalHeight: 1,
      width: 40,
      height: 20,
      visible: true,
    });
    expect(media.images.find((image) => image.alt === 'Icon')).toMatchObject({ naturalWidth: 16, naturalHeight: 16 });
    expect(media.images.find((image) => image.alt === 'Hidden')).toMatchObject({ visible: false });
    expect(media.videos).toHaveLength(1);
    expect(media.videos[0]).toMatchObject({
      sources: [h.server.urlFor('/assets/clip.webm'), h.server.urlFor('/assets/clip.mp4')],
      poster: h.server.urlFor('/assets/pixel.png'),
      width: 320,
      height: 180,
    });
    expect(media.audio).toEqual([expect.objectContaining({ sources: [h.server.urlFor('/assets/sound.ogg')] })]);

    const onlyVideos = await h.client.read.media.query({ videos: true });
    expect(onlyVideos.images).toEqual([]);
    expect(onlyVideos.audio).toEqual([]);
    expect(onlyVideos.videos).toHaveLength(1);
    const capped = await h.client.read.media.query({ images: true, maxItems: 1 });
    expect(capped.images).toHaveLength(1);
    expect(capped.truncated).toBe(true);
  });

  it('data: JSON-LD, OpenGraph, Twitter and meta tags', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/meta.html') });
    const data = await h.client.read.data.query({});
    expect(data.jsonld[0]).toMatchObject({ '@type': 'Article', headline: 'Argus JSON-LD Headline' });
    expect(data.jsonld[1]).toMatchObject({ error: expect.any(String), raw: '{ this is not json }' });
    expect(data.og).toMatchObject({
      'og:title': 'Argus OG Title',
      'og:type': 'article',
      'article:author': 'Ada',
      'og:image': ['https://example.com/one.png', 'https://example.com/two.png'],
    });
    expect(data.twitter).toEqual({ 'twitter:card': 'summary_large_image', 'twitter:title': 'Argus Twitter Title' });
    expect(data.meta).toMatchObject({
      description: 'A page full of metadata for Argus reading tests.',
      charset: 'utf-8',
      viewport: 'width=device-width, initial-scale=1',
    });
    expect(data.canonical).toBe(h.server.urlFor('/meta.html?canonical=1'));
    expect(data.lang).toBe('en-GB');

    const og = await h.client.read.data.query({ og: true });
    expect(og.jsonld).toEqual([]);
    expect(og.twitter).toEqual({});
    expect(og.meta).toEqual({});
    expect(og.og['og:title']).toBe('Argus OG Title');
  });

  it('snapshot --cursor says when the page changed since the cut, and is ref_stale once the tab left it', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/long.html') });
    const first = await h.client.snapshot.take.mutate({ maxChars: 400 });
    const same = await h.client.snapshot.take.mutate({ cursor: first.cursor!, maxChars: 400 });
    expect(same.text).toContain('Paragraph');
    expect(same.pageChanged).toBeUndefined();
    await h.client.page.eval.mutate({ js: "document.querySelector('article').append('Added later'); true" });
    const changed = await h.client.snapshot.take.mutate({ cursor: same.cursor!, maxChars: 400 });
    expect(changed.text).toContain('Paragraph');
    expect(changed.pageChanged).toBe(true);
    await h.client.page.goto.mutate({ url: h.server.urlFor('/nav-a.html') });
    expect(await codeOf(h.client.snapshot.take.mutate({ cursor: changed.cursor! }))).toBe('ref_stale');
  });

  it('bad input is refused before it reaches the browser', async () => {
    expect(await codeOf(h.client.read.links.query({ maxItems: 0 }))).toBe('invalid_input');
    expect(await codeOf(h.client.read.links.query({ within: '#no-such-thing' }))).toBe('element_not_found');
    expect(await codeOf(h.client.read.accessibility.query({ depth: -1 }))).toBe('invalid_input');
    expect(await codeOf(h.client.read.forms.mutate({ within: 'e99999' }))).toBe('ref_not_found');
  });
});
