import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArgusError } from '@argus/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { codeOf, useHarness } from './harness.js';

const h = useHarness();

const js = async <T>(code: string, tab?: string): Promise<T> =>
  (await h.client.page.eval.mutate({ js: code, ...(tab ? { tab } : {}) })).value as T;

describe('viewport and emulate', () => {
  beforeAll(async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
  });

  it('sets the viewport size and scale; rejects a bad size', async () => {
    expect(await h.client.emulation.viewport.mutate({ size: '800x600', scale: 2 })).toEqual({
      width: 800,
      height: 600,
      scale: 2,
    });
    expect(await js('[innerWidth, innerHeight, devicePixelRatio]')).toEqual([800, 600, 2]);
    expect(await codeOf(h.client.emulation.viewport.mutate({ size: '800by600' }))).toBe('invalid_input');
    expect(await codeOf(h.client.emulation.viewport.mutate({ size: '0x600' }))).toBe('invalid_input');
    expect(await codeOf(h.client.emulation.viewport.mutate({ size: '800x600', scale: 50 }))).toBe('invalid_input');
  });

  it('emulates a device from the table, and lists devices for an unknown one', async () => {
    const result = await h.client.emulation.emulate.mutate({ device: 'iphone-15' });
    expect(result.applied[0]).toMatch(/iPhone 15: 393x852 @3x, mobile, touch/);
    // a page without a viewport meta lays out at 980 px on mobile, like a phone: the screen is the device's
    expect(
      await js('[screen.width, devicePixelRatio, navigator.maxTouchPoints > 0, /iPhone/.test(navigator.userAgent)]'),
    ).toEqual([393, 3, true, true]);
    const error = await h.client.emulation.emulate
      .mutate({ device: 'Nokia 3310' })
      .catch((e: unknown) => e as ArgusError);
    expect(error).toBeInstanceOf(ArgusError);
    expect((error as ArgusError).code).toBe('invalid_input');
    expect((error as ArgusError).message).toContain('iPhone 15, Pixel 8, iPad, Desktop 1080p');
  });

  it('emulates dark mode, geolocation, offline and CPU; --reset undoes them', async () => {
    await h.client.emulation.emulate.mutate({ media: 'dark', geo: '48.8584,2.2945', cpu: 2 });
    expect(await js('matchMedia("(prefers-color-scheme: dark)").matches')).toBe(true);
    const position = await js<number[]>(
      'new Promise((ok, ko) => navigator.geolocation.getCurrentPosition((p) => ok([p.coords.latitude, p.coords.longitude]), (e) => ko(new Error(e.message))))',
    );
    expect(position).toEqual([48.8584, 2.2945]);
    await h.client.emulation.emulate.mutate({ offline: true });
    expect(await js('fetch("/json").then(() => "online", () => "offline")')).toBe('offline');
    const reset = await h.client.emulation.emulate.mutate({ reset: true });
    expect(reset.applied[0]).toMatch(/^reset/);
    expect(await js('fetch("/json").then(() => "online", () => "offline")')).toBe('online');
    expect(await js('matchMedia("(prefers-color-scheme: dark)").matches')).toBe(false);
    expect(await js('/iPhone/.test(navigator.userAgent)')).toBe(false);
    expect(await codeOf(h.client.emulation.emulate.mutate({}))).toBe('invalid_input');
    expect(await codeOf(h.client.emulation.emulate.mutate({ geo: 'paris' }))).toBe('invalid_input');
  });
});

describe('user agent and headers', () => {
  it('overrides the user agent and adds / clears extra headers', async () => {
    await h.client.emulation.useragent.mutate({ userAgent: 'ArgusBot/1.0' });
    await h.client.emulation.header.mutate({ header: 'X-Argus-Test: one' });
    const added = await h.client.emulation.header.mutate({ header: 'X-Other: two' });
    expect(added.headers.sort()).toEqual(['X-Argus-Test', 'X-Other']);
    await h.client.page.goto.mutate({ url: h.server.urlFor('/echo-headers') });
    const echoed = JSON.parse((await h.client.read.text.query({})).text) as Record<string, string>;
    expect(echoed['user-agent']).toBe('ArgusBot/1.0');
    expect(echoed['x-argus-test']).toBe('one');
    expect(echoed['x-other']).toBe('two');
    expect((await h.client.emulation.header.mutate({ clear: true })).headers).toEqual([]);
    await h.client.page.reload.mutate({});
    const after = JSON.parse((await h.client.read.text.query({})).text) as Record<string, string>;
    expect(after['x-argus-test']).toBeUndefined();
    expect(await codeOf(h.client.emulation.header.mutate({ header: 'no colon here' }))).toBe('invalid_input');
    expect(await codeOf(h.client.emulation.header.mutate({}))).toBe('invalid_input');
  });
});

describe('cookies and saved state', () => {
  it('sets a cookie for the current site and imports cookies from a file', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
    expect(await h.client.state.cookieSet.mutate({ cookie: 'flavour=oat' })).toEqual({
      name: 'flavour',
      domain: '127.0.0.1',
      path: '/',
    });
    const file = join(h.workspace, 'cookies.json');
    writeFileSync(
      file,
      JSON.stringify([
        {
          name: 'imported',
          value: 'yes',
          domain: '127.0.0.1',
          path: '/',
          expirationDate: Math.floor(Date.now() / 1000) + 3600,
          sameSite: 'lax',
        },
        { name: 'viaUrl', value: '1', url: h.server.url },
        { name: 'broken' },
      ]),
    );
    const imported = await h.client.state.cookieImport.mutate({ file: 'cookies.json' });
    expect(imported.imported).toBe(2);
    expect(imported.skipped).toEqual([{ index: 2, reason: 'cookie broken: missing "value"' }]);
    expect(await js('document.cookie.split("; ").sort()')).toEqual(['flavour=oat', 'imported=yes', 'viaUrl=1']);
    expect(await codeOf(h.client.state.cookieImport.mutate({ file: '/etc/passwd' }))).toBe('path_forbidden');
    expect(await codeOf(h.client.state.cookieSet.mutate({ cookie: 'novalue' }))).toBe('invalid_input');
  });

  it('state save / load round-trips cookies, localStorage and tabs into a fresh browser state', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
    await h.client.page.eval.mutate({ js: 'localStorage.setItem("draft", "hello"); localStorage.setItem("n", "2")' });
    const saved = await h.client.state.save.mutate({ name: 'round-trip' });
    expect(saved.cookies).toBeGreaterThanOrEqual(3);
    expect(saved.origins).toBe(1);
    expect(statSync(saved.path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(saved.path, 'utf8')).tabs).toContain(h.server.urlFor('/form.html'));
    // wipe: cookies and storage gone
    await h.client.page.eval.mutate({
      js: 'localStorage.clear(); for (const c of document.cookie.split("; ")) document.cookie = c.split("=")[0] + "=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/"',
    });
    expect(await js('document.cookie')).toBe('');
    await h.client.page.goto.mutate({ url: 'about:blank' });
    const loaded = await h.client.state.load.mutate({ name: 'round-trip' });
    expect(loaded).toMatchObject({ name: 'round-trip', origins: 1, warnings: [] });
    expect(loaded.tabsOpened).toHaveLength(1);
    const fresh = loaded.tabsOpened[0] as string;
    expect(await js('localStorage.getItem("draft") + "/" + localStorage.getItem("n")', fresh)).toBe('hello/2');
    expect(await js('document.cookie.split("; ").sort()', fresh)).toEqual(['flavour=oat', 'imported=yes', 'viaUrl=1']);
    await h.client.tabs.close.mutate({ id: fresh });
  });

  it('validates state names and reports a missing state', async () => {
    expect(await codeOf(h.client.state.save.mutate({ name: '../evil' }))).toBe('invalid_input');
    expect(await codeOf(h.client.state.save.mutate({ name: '..' }))).toBe('invalid_input');
    expect(await codeOf(h.client.state.load.mutate({ name: 'never-saved' }))).toBe('invalid_input');
    await h.daemon.services.log.flush(); // the log is asynchronous: wait until what was logged is on disk
    const log = readFileSync(join(h.workspace, '.argus', 'daemon.log'), 'utf8');
    expect(log).not.toContain('hello');
    expect(log).not.toContain('oat');
  });
});
