import { type RenderContext, renderCommand } from '@argus/protocol/render';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from './extension-harness.js';
import { type PairedExtension, startPairedExtension } from './extension-setup.js';

// `closetab` in extension mode: the user's own tabs are listed but attached only when a command names
// one. Closing the agent's tab must say truthfully what is left, and name the user's tab the agent
// could use next without attaching it (attaching is the agent's choice: `argus tab <id>`).

const cli: RenderContext = {
  surface: 'cli',
  input: {},
  label: (name) => name,
  hint: (name, input = {}) => `\`${name} ${JSON.stringify(input)}\``,
};

describe('closetab in extension mode', () => {
  let setup: PairedExtension;
  let userTab = '';

  /** Whether Chrome's debugger is attached to a tab (what the extension would have done for Argus). */
  const attached = async (targetId: string) =>
    (await setup.user.evalInWorker(
      `chrome.debugger.getTargets().then((targets) => targets.find((t) => t.id === ${JSON.stringify(targetId)})?.attached)`,
    )) === true;

  beforeAll(async () => {
    setup = await startPairedExtension('closetab-ext');
    // the user's own tab, opened by the user: listed, never attached by Argus
    userTab = await setup.user.openTab(setup.server.urlFor('/nav-a.html'));
    await waitUntil(
      async () => (await setup.client.tabs.list.query({})).tabs.some((tab) => tab.id === userTab),
      10_000,
      "the user's tab in `tabs`",
    );
  });

  afterAll(async () => {
    await setup?.close();
  });

  /** The person brings a tab to the front of its window (a click on it). */
  const bringToFront = (targetId: string) =>
    setup.user.evalInWorker(
      `chrome.debugger.getTargets().then((targets) => chrome.tabs.update(targets.find((t) => t.id === ${JSON.stringify(targetId)}).tabId, { active: true })).then(() => true)`,
    );

  it("closing the agent's only tab names the tab the person has in front, not the last listed", async () => {
    const second = await setup.user.openTab(setup.server.urlFor('/nav-b.html'));
    const agentTab = await setup.client.tabs.open.mutate({ url: setup.server.urlFor('/nav-b.html') });
    // while the agent works, the person goes back to their first page
    await bringToFront(userTab);
    const closed = await setup.client.tabs.close.mutate({ id: agentTab.id });
    const listed = (await setup.client.tabs.list.query({})).tabs;
    // the second page is listed after the first: without the person's view, it would be named
    expect(listed.findIndex((tab) => tab.id === second)).toBeGreaterThan(listed.findIndex((tab) => tab.id === userTab));
    expect(closed).toMatchObject({ closed: agentTab.id, activeTab: null, next: { id: userTab, title: 'Page A' } });
    // the person looks at the second page: that one is named
    const again = await setup.client.tabs.open.mutate({ url: setup.server.urlFor('/nav-b.html') });
    await bringToFront(second);
    expect((await setup.client.tabs.close.mutate({ id: again.id })).next).toMatchObject({ id: second });
    expect(await attached(userTab)).toBe(false);
    expect(await attached(second)).toBe(false);
    // the person closes it again (the tests below start from one page of theirs)
    await setup.user.evalInWorker(
      `chrome.debugger.getTargets().then((targets) => chrome.tabs.remove(targets.find((t) => t.id === ${JSON.stringify(second)}).tabId)).then(() => true)`,
    );
    await waitUntil(
      async () => !(await setup.client.tabs.list.query({})).tabs.some((tab) => tab.id === second),
      10_000,
      'the second tab gone from `tabs`',
    );
    await bringToFront(userTab);
  });

  it("closing the agent's only tab names the user's listed tab with `tab <id>` and does not attach it", async () => {
    const agentTab = await setup.client.tabs.open.mutate({ url: setup.server.urlFor('/nav-b.html') });
    expect(await attached(userTab)).toBe(false);
    const closed = await setup.client.tabs.close.mutate({});
    const listed = (await setup.client.tabs.list.query({})).tabs;
    const user = listed.find((tab) => tab.id === userTab)!;
    // the browser's own blank tab is listed too, in the extension's order: the page is named, not it
    expect(listed.some((tab) => tab.url === 'about:blank')).toBe(true);
    expect(closed).toEqual({
      closed: agentTab.id,
      activeTab: null,
      openTabs: listed.length,
      next: { id: userTab, shortId: user.shortId, title: 'Page A', url: user.url },
    });
    // attaching is the agent's choice, as everywhere else in extension mode
    expect(await attached(userTab)).toBe(false);
    const text = renderCommand('tabs.close', closed, cli);
    expect(text).not.toMatch(/no tabs left/);
    expect(text).toContain(`\`tabs.select {"id":"${user.shortId}"}\``);
    expect(text).toContain('Page A');
    // what the message says the next step does, it does
    const selected = await setup.client.tabs.select.mutate({ id: user.shortId });
    expect(selected).toMatchObject({ id: userTab, active: true });
    expect(await attached(userTab)).toBe(true);
  });

  it("closing the agent's tab when a user tab is attached makes that one active", async () => {
    // the user's tab named once (attached): from then on it is one the agent drives
    await setup.client.tabs.select.mutate({ id: userTab });
    const agentTab = await setup.client.tabs.open.mutate({ url: setup.server.urlFor('/nav-b.html') });
    const closed = await setup.client.tabs.close.mutate({ id: agentTab.id });
    expect(closed).toMatchObject({ closed: agentTab.id, activeTab: userTab, next: null });
    expect(renderCommand('tabs.close', closed, cli)).toBe(`closed tab ${agentTab.id}; active tab ${userTab}`);
    expect((await setup.client.page.url.query({})).url).toMatch(/nav-a\.html$/);
  });
});
