import { ArgusError, type Handlers } from '@argus/protocol';
import type { Services } from '../services.js';

/** Tab commands. Every list and lookup goes through the manager's caller-aware view (a remote client sees only its tabs). */
export function tabHandlers(services: Services): Handlers['tabs'] {
  const { manager } = services;
  const info = (id: string, url: string, title: string) => ({ id, url, title, active: manager.activeTab === id });
  const find = (tabs: ReturnType<typeof manager.visibleTabs>, id: string) =>
    tabs.find((tab) => tab.id === id || tab.id.startsWith(id.toUpperCase()));
  return {
    list: () =>
      manager.structural(async (browser) => ({
        tabs: manager.visibleTabs(browser).map((tab) => info(tab.id, tab.url, tab.title)),
      })),
    open: (input, ctx) => {
      if (input.url) services.access.checkUrl(input.url, ctx);
      return manager.structural(async (browser) => {
        const page = await manager.newTab(browser);
        if (input.url) await page.navigate(input.url);
        await browser.activate(page.id).catch(() => undefined);
        return info(page.id, page.url, await page.readTitle());
      });
    },
    select: (input) =>
      manager.structural(async (browser) => {
        const known = find(manager.visibleTabs(browser), input.id);
        if (!known)
          throw new ArgusError('tab_not_found', `No tab with id ${input.id}. Run \`argus tabs\` to list tabs.`);
        const page = await browser.attach(known.id);
        manager.activeTab = page.id;
        await browser.activate(page.id).catch(() => undefined);
        return info(page.id, page.url, page.title);
      }),
    close: (input) =>
      manager.structural(async (browser) => {
        const id = input.id ? find(manager.visibleTabs(browser), input.id)?.id : manager.activeTab;
        if (!id)
          throw new ArgusError(
            input.id ? 'tab_not_found' : 'no_active_tab',
            input.id ? `No tab with id ${input.id}. Run \`argus tabs\`.` : 'There is no active tab to close.',
          );
        await browser.closePage(id);
        // closePage drops the target at once, so the 'removed' listener has already moved the active tab
        return { closed: id, activeTab: manager.activeTab ?? null };
      }),
  };
}
