import { createArgusClient } from '@argus/client';
import { describe, expect, it } from 'vitest';
import { codeOf, refOf, useHarness } from './harness.js';

const h = useHarness();

describe('inspection commands on real Chromium', () => {
  it('css: computed values by selector and by ref; camelCase names work', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/styles.html') });
    expect(await h.client.inspect.css.query({ target: '#tip', property: 'color' })).toMatchObject({
      property: 'color',
      value: 'rgb(0, 128, 0)',
    });
    expect(await h.client.inspect.css.query({ target: '#plain', property: 'color' })).toMatchObject({
      value: 'rgb(0, 0, 0)',
    });
    expect(await h.client.inspect.css.query({ target: '#tip', property: 'fontWeight' })).toMatchObject({
      property: 'font-weight',
      value: '700',
    });
    const snap = await h.client.snapshot.take.mutate({ interactive: true });
    const ref = refOf(snap.text, /checkbox/);
    expect(await h.client.inspect.css.query({ target: ref, property: 'display' })).toMatchObject({
      value: 'inline-block',
    });
    expect(await codeOf(h.client.inspect.css.query({ target: '#tip', property: 'color; x' }))).toBe('invalid_input');
  });

  it('attrs: every attribute of an element', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/styles.html') });
    const attrs = await h.client.inspect.attrs.query({ target: '#tip' });
    expect(attrs).toMatchObject({
      tag: 'p',
      attributes: {
        id: 'tip',
        class: 'note',
        'data-kind': 'tip',
        'data-id': '42',
        title: 'A tip',
        style: 'font-weight: bold',
      },
    });
  });

  it('is: visible, hidden, enabled, disabled, checked, editable, focused', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/styles.html') });
    const is = async (
      target: string,
      state: 'visible' | 'hidden' | 'enabled' | 'disabled' | 'checked' | 'editable' | 'focused',
    ) => (await h.client.inspect.is.query({ target, state })).value;
    expect(await is('#tip', 'visible')).toBe(true);
    expect(await is('#gone', 'visible')).toBe(false);
    expect(await is('#invisible', 'hidden')).toBe(true);
    expect(await is('#no-such-element', 'visible')).toBe(false);
    expect(await is('#no-such-element', 'hidden')).toBe(true);
    expect(await is('#disabled', 'disabled')).toBe(true);
    expect(await is('#in-disabled-fieldset', 'enabled')).toBe(false);
    expect(await is('#readonly', 'enabled')).toBe(true);
    expect(await is('#agree', 'checked')).toBe(true);
    expect(await is('#other', 'checked')).toBe(false);
    expect(await is('#switch', 'checked')).toBe(true);
    expect(await is('#readonly', 'editable')).toBe(false);
    expect(await is('#editable', 'editable')).toBe(true);
    expect(await is('#focused', 'editable')).toBe(true);
    expect(await is('#focused', 'focused')).toBe(true);
    expect(await is('#readonly', 'focused')).toBe(false);
    expect(await codeOf(h.client.inspect.is.query({ target: '#tip', state: 'checked' }))).toBe('invalid_input');
    expect(await codeOf(h.client.inspect.is.query({ target: '#no-such-element', state: 'enabled' }))).toBe(
      'element_not_found',
    );
    expect(await codeOf(h.client.inspect.is.query({ target: '#tip', state: 'shiny' as 'visible' }))).toBe(
      'invalid_input',
    );
  });

  it('cookies: httpOnly cookies are marked; their values need the admin scope', async () => {
    // an httpOnly session cookie and a persistent one on 127.0.0.1 (cookies ignore the port)
    await h.client.page.goto.mutate({
      url: h.server.urlFor('/set-cookie?name=sid&value=s3cret-session&http-only=1&same-site=Strict'),
    });
    await h.client.page.goto.mutate({ url: h.server.urlFor('/set-cookie?name=theme&value=dark&max-age=3600') });
    await h.client.page.goto.mutate({ url: h.server.urlFor('/styles.html') });
    const { cookies, urls } = await h.client.inspect.cookies.query({});
    expect(urls).toEqual([h.server.urlFor('/styles.html')]);
    const sid = cookies.find((cookie) => cookie.name === 'sid');
    expect(sid).toMatchObject({
      value: 's3cret-session',
      httpOnly: true,
      sameSite: 'Strict',
      domain: '127.0.0.1',
      path: '/',
      expires: null,
    });
    const theme = cookies.find((cookie) => cookie.name === 'theme');
    expect(theme).toMatchObject({ value: 'dark', httpOnly: false });
    expect(Date.parse(theme!.expires!)).toBeGreaterThan(Date.now());
    expect((await h.client.inspect.cookies.query({ name: 'theme' })).cookies.map((cookie) => cookie.name)).toEqual([
      'theme',
    ]);

    const minted = await h.client.token.create.mutate({ scope: 'read' });
    const reader = createArgusClient({ url: `http://127.0.0.1:${h.daemon.port}`, token: minted.token });
    try {
      const seen = await reader.client.inspect.cookies.query({});
      expect(seen.cookies.find((cookie) => cookie.name === 'sid')).toMatchObject({ value: null, httpOnly: true });
      expect(seen.cookies.find((cookie) => cookie.name === 'theme')).toMatchObject({ value: 'dark' });
    } finally {
      reader.close();
    }
  });

  it('storage: read local + session storage, set items in either', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/styles.html') });
    await h.client.inspect.storageSet.mutate({ key: 'theme', value: 'dark' });
    const set = await h.client.inspect.storageSet.mutate({ key: 'step', value: '2', area: 'session' });
    expect(set).toEqual({ origin: new URL(h.server.urlFor('/')).origin, area: 'session', key: 'step', bytes: 1 });
    await h.client.page.eval.mutate({ js: "localStorage.setItem('long', 'x'.repeat(50))" });
    const storage = await h.client.inspect.storage.query({ maxChars: 10 });
    expect(storage.local).toMatchObject({ theme: 'dark', long: 'x'.repeat(10) });
    expect(storage.session).toEqual({ step: '2' });
    expect(storage.truncated).toBe(true);
    expect(
      await h.client.page.eval.mutate({ js: "localStorage.getItem('theme') + sessionStorage.getItem('step')" }),
    ).toMatchObject({ value: 'dark2' });
    const one = await h.client.inspect.storage.query({ key: 'theme' });
    expect(one).toMatchObject({ local: { theme: 'dark' }, session: {}, truncated: false });

    await h.client.page.goto.mutate({ url: 'about:blank' });
    expect(await codeOf(h.client.inspect.storage.query({}))).toBe('unsupported');
  });

  it('perf: navigation timing, FCP, LCP and transfer size', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/styles.html') });
    await h.client.page.wait.mutate({ load: true });
    // paint timing entries exist once a frame has been produced
    await h.client.page.screenshot.mutate({ base64: true });
    const perf = await h.client.inspect.perf.query({});
    expect(perf.url).toBe(h.server.urlFor('/styles.html'));
    expect(perf.navigationType).toBe('navigate');
    expect(perf.ttfbMs).toBeGreaterThan(0);
    expect(perf.domContentLoadedMs).toBeGreaterThanOrEqual(perf.ttfbMs!);
    expect(perf.loadMs).toBeGreaterThanOrEqual(perf.domContentLoadedMs!);
    expect(perf.fcpMs).toBeGreaterThan(0);
    expect(perf.lcpMs).toBeGreaterThan(0);
    expect(perf.transferSize).toBeGreaterThan(perf.encodedBodySize);
    expect(perf.decodedBodySize).toBeGreaterThan(500);
  });

  it('inspect: matched rules with specificity (cascade order), inline style, box model', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/styles.html') });
    const result = await h.client.inspect.element.query({ target: '#tip' });
    expect(result.rules.map((rule) => [rule.selector, rule.specificity])).toEqual([
      ['p', [0, 0, 1]],
      ['.note', [0, 1, 0]],
      ['.note', [0, 1, 0]],
      ['p.note[data-kind="tip"]', [0, 2, 1]],
      ['#main .note', [1, 1, 0]],
    ]);
    expect(result.rules.every((rule) => rule.origin === 'regular')).toBe(true);
    expect(result.rules[2]).toMatchObject({
      media: ['@media (min-width: 1px)'],
      declarations: [{ name: 'padding', value: '3px', important: false }],
    });
    expect(result.rules[4]!.source).toBe(`${h.server.urlFor('/styles.html')}:9`);
    expect(result.rules[3]!.declarations).toEqual([{ name: 'margin', value: '4px 8px', important: false }]);
    expect(result.inline).toEqual([{ name: 'font-weight', value: 'bold', important: false }]);
    const box = result.box!;
    expect(box.padding.width - box.content.width).toBe(6);
    expect(box.margin.width - box.border.width).toBe(16);
    expect(box.margin.height - box.border.height).toBe(8);

    const withUa = await h.client.inspect.element.query({ target: '#tip', userAgent: true });
    expect(withUa.rules.some((rule) => rule.origin === 'user-agent')).toBe(true);
    expect((await h.client.inspect.element.query({ target: '#gone' })).box).toBeNull();
    // DOM and CSS were disabled again: ordinary commands keep working on the tab
    expect(await h.client.inspect.css.query({ target: '#tip', property: 'color' })).toMatchObject({
      value: 'rgb(0, 128, 0)',
    });
  });
});
