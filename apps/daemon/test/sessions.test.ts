import { type ArgusClient, createArgusClient } from '@argus/client';
import { afterAll, describe, expect, it } from 'vitest';
import { codeOf, refOf, useHarness } from './harness.js';

/**
 * Named sessions (`--session NAME`, the x-argus-session header): isolated browser contexts in the
 * same browser. Each test drives them through the typed client, as scripts and the CLI do.
 */
describe('named sessions', () => {
  const h = useHarness();
  const opened: Array<{ close(): void }> = [];
  const inSession = (session: string): ArgusClient => {
    const handle = createArgusClient({ url: `http://127.0.0.1:${h.daemon.port}`, token: h.daemon.token, session });
    opened.push(handle);
    return handle.client;
  };
  afterAll(() => opened.forEach((handle) => handle.close()));

  const cookieNames = async (client: ArgusClient) =>
    (await client.inspect.cookies.query({})).cookies.map((cookie) => cookie.name).sort();

  it('keeps cookies, storage, tabs and refs apart between sessions and the default one', async () => {
    const shop = inSession('shop');
    const work = inSession('work');
    await shop.page.goto.mutate({ url: h.server.urlFor('/set-cookie?name=cart&value=3-items&max-age=3600') });
    await shop.page.goto.mutate({ url: h.server.urlFor('/styles.html') });
    await shop.page.eval.mutate({ js: "localStorage.setItem('basket', 'full')" });
    await work.page.goto.mutate({ url: h.server.urlFor('/form.html') });
    await h.client.page.goto.mutate({ url: h.server.urlFor('/styles.html') });

    // the cookie lives in shop's context only (same origin in all three)
    expect(await cookieNames(shop)).toEqual(['cart']);
    expect(await cookieNames(work)).toEqual([]);
    expect(await cookieNames(h.client)).toEqual([]);
    const basket = "localStorage.getItem('basket')";
    expect((await shop.page.eval.mutate({ js: basket })).value).toBe('full');
    expect((await h.client.page.eval.mutate({ js: basket })).value).toBeNull();

    // each session lists only its own tabs; the operator's default session sees every tab
    const shopTabs = (await shop.tabs.list.query({})).tabs;
    const workTabs = (await work.tabs.list.query({})).tabs;
    expect(shopTabs.map((tab) => new URL(tab.url).pathname)).toEqual(['/styles.html']);
    expect(workTabs.map((tab) => new URL(tab.url).pathname)).toEqual(['/form.html']);
    const all = (await h.client.tabs.list.query({})).tabs.map((tab) => tab.id);
    expect(all).toEqual(expect.arrayContaining([shopTabs[0]!.id, workTabs[0]!.id]));
    // a session cannot reach another session's tab by id: the same answer as a tab that does not exist
    expect(await codeOf(shop.tabs.select.mutate({ id: workTabs[0]!.id }))).toBe('tab_not_found');
    expect(await codeOf(work.page.eval.mutate({ js: '1', tab: shopTabs[0]!.id }))).toBe('tab_not_found');

    // refs are per tab: work's snapshot and click act on work's form, not on the default tab
    const snapshot = (await work.snapshot.take.mutate({ interactive: true })).text;
    await work.input.fill.mutate({ target: refOf(snapshot, /textbox "Name"/), text: 'Ada' });
    expect((await work.page.eval.mutate({ js: "document.querySelector('#name').value" })).value).toBe('Ada');
    expect(new URL((await h.client.page.eval.mutate({ js: 'location.href' })).value as string).pathname).toBe(
      '/styles.html',
    );
  });

  it('lists sessions with their tabs, marking the one the call ran in', async () => {
    const listed = await inSession('work').sessions.list.query({});
    const byName = Object.fromEntries(listed.sessions.map((session) => [session.name, session]));
    expect(Object.keys(byName)).toEqual(['default', 'shop', 'work']);
    expect(byName.work).toMatchObject({ tabs: 1, current: true });
    expect(byName.shop).toMatchObject({ tabs: 1, current: false });
    expect(byName.default!.current).toBe(false);
    expect(new URL(byName.shop!.activeUrl!).pathname).toBe('/styles.html');
  });

  it('state save in a session saves that session only; load restores it into another session', async () => {
    const saved = await inSession('shop').state.save.mutate({ name: 'shop-state' });
    expect(saved).toMatchObject({ cookies: 1, tabs: 1 });
    const copy = inSession('copy');
    const loaded = await copy.state.load.mutate({ name: 'shop-state', restoreTabs: true });
    expect(loaded.cookies).toBe(1);
    expect(await cookieNames(copy)).toEqual(['cart']);
    expect((await copy.page.eval.mutate({ js: "localStorage.getItem('basket')" })).value).toBe('full');
    // nothing of it reached the default session
    expect(await cookieNames(h.client)).toEqual([]);
    const defaultSaved = await h.client.state.save.mutate({ name: 'default-state' });
    expect(defaultSaved.cookies).toBe(0);
  });

  it('session close drops its tabs and its browser context: the next use starts empty', async () => {
    const before = (await h.client.tabs.list.query({})).tabs.length;
    const closed = await h.client.sessions.close.mutate({ name: 'shop' });
    expect(closed).toEqual({ name: 'shop', closedTabs: 1, existed: true });
    expect((await h.client.tabs.list.query({})).tabs.length).toBe(before - 1);
    expect((await h.client.sessions.list.query({})).sessions.map((session) => session.name)).not.toContain('shop');
    const again = inSession('shop');
    await again.page.goto.mutate({ url: h.server.urlFor('/styles.html') });
    expect(await cookieNames(again)).toEqual([]);
    expect(await h.client.sessions.close.mutate({ name: 'never-opened' })).toEqual({
      name: 'never-opened',
      closedTabs: 0,
      existed: false,
    });
    expect(await codeOf(h.client.sessions.close.mutate({ name: 'default' }))).toBe('invalid_input');
  });

  it('refuses a malformed session name instead of running in the default session', async () => {
    expect(await codeOf(inSession('../etc').page.goto.mutate({ url: h.server.urlFor('/styles.html') }))).toBe(
      'invalid_input',
    );
    expect(await codeOf(inSession('a'.repeat(65)).tabs.list.query({}))).toBe('invalid_input');
  });
});
