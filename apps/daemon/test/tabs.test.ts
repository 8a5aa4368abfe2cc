import { createArgusClient } from '@argus/client';
import { type RenderContext, renderCommand } from '@argus/protocol/render';
import { describe, expect, it } from 'vitest';
import { codeOf, failure, useHarness } from './harness.js';

const h = useHarness();
const cliContext: RenderContext = { surface: 'cli', input: {}, label: (name) => name, hint: (name) => `\`${name}\`` };

describe('tabs by index and short id', () => {
  it('lists a 1-based index and a unique short id of at least 4 characters per tab', async () => {
    await h.client.tabs.open.mutate({ url: h.server.urlFor('/nav-a.html') });
    await h.client.tabs.open.mutate({ url: h.server.urlFor('/nav-b.html') });
    const { tabs } = await h.client.tabs.list.query();
    expect(tabs.map((tab) => tab.index)).toEqual(tabs.map((_tab, index) => index + 1));
    for (const tab of tabs) {
      expect(tab.shortId.length).toBeGreaterThanOrEqual(4);
      expect(tab.id.startsWith(tab.shortId)).toBe(true);
      expect(tabs.filter((other) => other.id.startsWith(tab.shortId))).toHaveLength(1);
    }
  });

  it('selects a tab by index, by short id in any case, and runs --tab commands on either', async () => {
    const { tabs } = await h.client.tabs.list.query();
    const pageA = tabs.find((tab) => tab.url.endsWith('/nav-a.html'))!;
    const selected = await h.client.tabs.select.mutate({ id: String(pageA.index) });
    expect(selected).toMatchObject({ id: pageA.id, index: pageA.index, active: true, title: 'Page A' });
    const pageB = tabs.find((tab) => tab.url.endsWith('/nav-b.html'))!;
    expect((await h.client.tabs.select.mutate({ id: pageB.shortId.toLowerCase() })).id).toBe(pageB.id);
    expect((await h.client.page.url.query({ tab: String(pageA.index) })).url).toMatch(/nav-a\.html$/);
    expect((await h.client.page.url.query({ tab: pageA.shortId })).url).toMatch(/nav-a\.html$/);
  });

  it("a ref of another tab is refused naming that tab, never taken for this tab's element with the same number", async () => {
    const first = await h.client.tabs.open.mutate({ url: h.server.urlFor('/buttons.html') });
    const firstRefs = (await h.client.snapshot.take.mutate({ interactive: true, tab: first.id })).text;
    const second = await h.client.tabs.open.mutate({ url: h.server.urlFor('/buttons.html') });
    const secondRefs = (await h.client.snapshot.take.mutate({ interactive: true, tab: second.id })).text;
    // the same page in both tabs: the same elements, each under refs of its own tab
    const refsOf = (text: string) => [...text.matchAll(/\b(e\d+)\b/g)].map((match) => match[1]!);
    expect(refsOf(firstRefs).length).toBeGreaterThan(0);
    expect(refsOf(secondRefs).filter((ref) => refsOf(firstRefs).includes(ref))).toEqual([]);
    const ref = refsOf(firstRefs)[0]!;
    const error = await failure(h.client.input.click.mutate({ target: ref, tab: second.id }));
    expect(error.code).toBe('ref_not_found');
    const { tabs } = await h.client.tabs.list.query();
    const shortId = tabs.find((tab) => tab.id === first.id)!.shortId;
    expect(error.message).toContain(`Ref ${ref} is from tab ${shortId}, not this one`);
    // in its own tab it still works
    await h.client.input.click.mutate({ target: ref, tab: first.id });
    await h.client.tabs.close.mutate({ id: second.id });
    await h.client.tabs.close.mutate({ id: first.id });
  });

  it('refuses an ambiguous prefix with the candidates, and an unknown id or index', async () => {
    // open tabs until two ids start with the same letter (A-F: a digit under 4 characters is an index)
    let shared: string[] | undefined;
    for (let opened = 0; !shared && opened < 40; opened++) {
      const { tabs } = await h.client.tabs.list.query();
      const lettered = tabs.map((tab) => tab.id).filter((id) => /^[A-F]/.test(id));
      const first = lettered.find((id) => lettered.filter((other) => other[0] === id[0]).length > 1);
      shared = first ? lettered.filter((id) => id[0] === first[0]) : undefined;
      if (!shared) await h.client.tabs.open.mutate({});
    }
    if (!shared) throw new Error('40 tabs and no two ids share a first letter');
    const ambiguous = await failure(h.client.tabs.select.mutate({ id: shared[0]![0]! }));
    expect(ambiguous.code).toBe('invalid_input');
    const candidates = ambiguous.details?.['candidates'] as string[];
    expect(candidates.length).toBe(shared.length);
    expect(ambiguous.message).toMatch(/matches \d+ tabs: \d+ \([0-9A-F]{4,}\)/);
    expect(await codeOf(h.client.tabs.close.mutate({ id: shared[0]![0]! }))).toBe('invalid_input');
    expect(await codeOf(h.client.tabs.select.mutate({ id: 'ZZZZ' }))).toBe('tab_not_found');
    expect(await codeOf(h.client.tabs.select.mutate({ id: '99' }))).toBe('tab_not_found');
    expect(await codeOf(h.client.page.url.query({ tab: '99' }))).toBe('tab_not_found');
  });
});

describe('tab titles', () => {
  it('a tab opened at a URL lists its document title, not the URL', async () => {
    const opened = await h.client.tabs.open.mutate({ url: h.server.urlFor('/nav-b.html') });
    const listed = (await h.client.tabs.list.query()).tabs.find((tab) => tab.id === opened.id)!;
    expect(listed.title).toBe('Page B');
    await h.client.tabs.close.mutate({ id: opened.id });
  });

  it('a tab the page opened (target=_blank) lists its title once it has loaded', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/todo-hash.html') });
    const clicked = await h.client.input.click.mutate({ target: '#popup' });
    const opened = clicked.openedTabs[0]!;
    // the popup starts on an empty document: wait for page A's link, then for its load event
    await h.client.page.wait.mutate({ selector: '#to-b', tab: opened.id });
    await h.client.page.wait.mutate({ load: true, tab: opened.id });
    const listed = (await h.client.tabs.list.query()).tabs.find((tab) => tab.id === opened.id)!;
    expect(listed.title).toBe('Page A');
    // a link followed in that tab (no goto reading the title) updates it too
    expect((await h.client.input.click.mutate({ target: '#to-b', tab: opened.id })).navigated).toBe(true);
    await h.client.page.wait.mutate({ load: true, tab: opened.id });
    expect((await h.client.tabs.list.query()).tabs.find((tab) => tab.id === opened.id)!.title).toBe('Page B');
    await h.client.tabs.close.mutate({ id: opened.id });
  });
});

describe('tabs of the headless browser', () => {
  it('each opens in a window of its own, so no tab is a background tab (its screenshots could hang)', async () => {
    const opened = await Promise.all(
      [0, 1, 2].map(() => h.client.tabs.open.mutate({ url: h.server.urlFor('/nav-a.html') })),
    );
    const browser = h.daemon.services.manager.current!;
    const windows = await Promise.all(
      opened.map(
        async ({ id }) =>
          (
            (await browser.transport.send('Browser.getWindowForTarget', { targetId: id }, undefined)) as {
              windowId: number;
            }
          ).windowId,
      ),
    );
    expect(new Set(windows).size).toBe(3);
    // each is a visible page of its own window: all three capture at once, as an agent per tab would
    const shots = await Promise.all(opened.map(({ id }) => h.client.page.screenshot.mutate({ tab: id, base64: true })));
    for (const shot of shots) expect(shot.base64?.length).toBeGreaterThan(100);
    for (const { id } of opened)
      expect((await h.client.page.eval.mutate({ tab: id, js: 'document.visibilityState' })).value).toBe('visible');
    for (const { id } of opened) await h.client.tabs.close.mutate({ id });
  });
});

describe('a popup a page opens', () => {
  it("is its session's tab: listed, switched to, and what closetab of its opener leaves active", async () => {
    const handle = createArgusClient({
      url: `http://127.0.0.1:${h.daemon.port}`,
      token: h.daemon.token,
      session: 'popups',
    });
    const session = handle.client;
    try {
      const opener = await session.tabs.open.mutate({ url: h.server.urlFor('/popup-opener.html') });
      const popup = (await session.input.click.mutate({ target: '#open-popup' })).openedTabs[0]!;
      expect(popup.url).toMatch(/nav-a\.html$/);
      // the session lists the popup beside its opener (it lives in the session's browser context)
      const listed = (await session.tabs.list.query({})).tabs.map((tab) => tab.id);
      expect(listed).toEqual([opener.id, popup.id]);
      // closing the opener leaves the popup active: the reply names it, and the next command runs there
      const closed = await session.tabs.close.mutate({});
      expect(closed).toEqual({ closed: opener.id, activeTab: popup.id, openTabs: 1, next: null });
      await session.page.wait.mutate({ selector: '#to-b' });
      expect((await session.page.url.query({})).url).toMatch(/nav-a\.html$/);
      expect((await session.tabs.list.query({})).tabs.map((tab) => tab.id)).toEqual([popup.id]);
      // the operator sees it too, but never falls back to it as one of its own tabs
      expect((await h.client.tabs.list.query({})).tabs.map((tab) => tab.id)).toContain(popup.id);
      await session.tabs.close.mutate({ id: popup.id });
    } finally {
      handle.close();
    }
  });
});

describe('what closetab says is left', () => {
  it("the operator's last own tab closed beside a session's tab: no tab active, the session's tab still listed, never 'no tabs left'", async () => {
    const handle = createArgusClient({
      url: `http://127.0.0.1:${h.daemon.port}`,
      token: h.daemon.token,
      session: 'closetab-left',
    });
    try {
      const theirs = await handle.client.tabs.open.mutate({ url: h.server.urlFor('/nav-a.html') });
      const mine = (await h.client.tabs.list.query({})).tabs.filter((tab) => tab.id !== theirs.id);
      let last: Awaited<ReturnType<typeof h.client.tabs.close.mutate>> | undefined;
      for (const tab of mine) last = await h.client.tabs.close.mutate({ id: tab.id });
      // another session's tab is no tab of the operator's to fall back to, nor one to offer
      expect(last).toMatchObject({ activeTab: null, openTabs: 1, next: null });
      const text = renderCommand('tabs.close', last, cliContext);
      expect(text).toMatch(/no tab is active\. 1 tab is still open/);
      expect(text).not.toMatch(/no tabs left/);
      // the session closing its only tab has none left of its own
      const theirsClosed = await handle.client.tabs.close.mutate({});
      expect(theirsClosed).toEqual({ closed: theirs.id, activeTab: null, openTabs: 0, next: null });
      expect(renderCommand('tabs.close', theirsClosed, cliContext)).toBe(`closed tab ${theirs.id}; no tabs left`);
    } finally {
      handle.close();
    }
  });
});
