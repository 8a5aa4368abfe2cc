import { ArgusError, type Handlers } from '@argus/protocol';
import type { Browser, Page } from '@argus/cdp';
import type { Services } from '../services.js';
import { resolveTabRef, shortIds } from '../tab-refs.js';
import { currentLeaseClaim } from '../lease-claims.js';
import { currentClient } from '../caller.js';
import { leaseHandlers } from './leases.js';

/** Pages no debugger may attach to (the browser's own, another extension's): never offered as the next tab. */
const UNATTACHABLE = /^(?:chrome|chrome-extension|chrome-untrusted|chrome-search|devtools|edge):/i;
/** A tab with no page in it: offered only when there is nothing else. */
const BLANK = /^(?:about:blank)?$/i;

/**
 * The tab `closetab` names when it leaves none active although tabs are listed: in extension mode the
 * user's own tabs, which Argus attaches only when a command names one (it never attaches them by
 * itself, see docs/EXTENSION.md), so the reply names it for `argus tab <id>` instead of attaching it.
 * The caller's own (the operator's: no other session's) with a page in it (a blank tab only when there
 * is nothing else): the one the person has in front (shown in its window, which the extension
 * reports), else the last listed, as the active-tab fallback takes the last attached. The extension
 * lists the user's tabs in its own order (by window), not the order they were opened.
 */
function nextToName(
  left: Array<{ id: string; shortId: string; title: string; url: string }>,
  own: (tab: string) => boolean,
  shown: (tab: string) => boolean,
) {
  const usable = left.filter((candidate) => own(candidate.id) && !UNATTACHABLE.test(candidate.url));
  const withPage = usable.filter((candidate) => !BLANK.test(candidate.url));
  const tab = withPage.filter((candidate) => shown(candidate.id)).at(-1) ?? withPage.at(-1) ?? usable.at(-1);
  return tab ? { id: tab.id, shortId: tab.shortId, title: tab.title, url: tab.url } : null;
}

/** Tab commands. Every list and lookup goes through the manager's caller-aware view (a remote client sees only its tabs). */
export function tabHandlers(services: Services): Handlers['tabs'] {
  const { manager } = services;
  /** Every tab the caller sees, in tab order, with its 1-based index and short id. */
  const listed = (browser: Browser) => {
    const tabs = manager.visibleTabs(browser);
    const shorts = shortIds(tabs.map((tab) => tab.id));
    return tabs.map((tab, index) => ({
      id: tab.id,
      index: index + 1,
      shortId: shorts.get(tab.id) ?? tab.id,
      // a tab opened by a page (target=_blank, window.open) has no URL until its first document
      // commits: it shows the empty document it holds until then, never an empty column
      url: tab.url || browser.page(tab.id)?.url || 'about:blank',
      title: tab.title,
      active: manager.activeTab === tab.id,
    }));
  };
  const infoOf = (browser: Browser, page: Page, title: string) => {
    const entry = listed(browser).find((tab) => tab.id === page.id);
    if (!entry) throw new ArgusError('target_closed', `Tab ${page.id} closed. Run \`argus tabs\` to list tabs.`);
    return { ...entry, url: page.url, title };
  };
  return {
    list: () =>
      manager.structural(async (browser) => {
        // a title read that a load started is answered first (bounded), so a fresh load lists its title
        await Promise.all(browser.attachedPages().map((page) => page.settledTitle()));
        return { tabs: listed(browser) };
      }),
    open: (input, ctx) => {
      if (input.url) services.access.checkUrl(input.url, ctx);
      return manager.structural(async (browser) => {
        const page = await manager.newTab(browser);
        if (input.url) await page.navigate(input.url);
        await browser.activate(page.id).catch(() => undefined);
        return infoOf(browser, page, await page.readTitle());
      });
    },
    select: (input) =>
      manager.structural(async (browser) => {
        const page = await browser.attach(resolveTabRef(manager.visibleTabs(browser), input.id));
        manager.activeTab = page.id;
        await browser.activate(page.id).catch(() => undefined);
        return infoOf(browser, page, page.title);
      }),
    close: (input) =>
      manager.structural(async (browser) => {
        const id = input.id ? resolveTabRef(manager.visibleTabs(browser), input.id) : manager.activeTab;
        if (!id) throw new ArgusError('no_active_tab', 'There is no active tab to close.');
        // closing is the last write: another client's leased tab is refused (never waited for: this queue is browser-wide)
        const claim = currentLeaseClaim();
        const blocker = claim && manager.leases.blocker(id, claim);
        if (claim && blocker) throw manager.leases.refusal(blocker, { ...claim, waitMs: 0 });
        await browser.closePage(id);
        // closePage drops the target at once, so the 'removed' listener has already moved the active tab
        const activeTab = manager.activeTab ?? null;
        // which of the tabs left the person has in front, as the extension sees it now
        if (activeTab === null) await browser.refreshTargets().catch(() => undefined);
        const left = listed(browser);
        const shown = new Set(browser.tabs().flatMap((tab) => (tab.shown ? [tab.id] : [])));
        return {
          closed: id,
          activeTab,
          openTabs: left.length,
          next:
            activeTab === null
              ? nextToName(
                  left,
                  (tab) => manager.clients.owner(tab) === currentClient()?.id,
                  (tab) => shown.has(tab),
                )
              : null,
        };
      }),
    ...leaseHandlers(services),
  };
}
