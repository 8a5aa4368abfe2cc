import { ArgusError, type Handlers } from '@argus/protocol';
import type { Services } from '../services.js';

export function tabHandlers(services: Services): Handlers['tabs'] {
  const { manager } = services;
  const info = (id: string, url: string, title: string) => ({ id, url, title, active: manager.activeTabId === id });
  return {
    list: () =>
      manager.structural(async (browser) => ({
        tabs: browser.tabs().map((tab) => info(tab.id, tab.url, tab.title)),
      })),
    open: (input) =>
      manager.structural(async (browser) => {
        const page = await browser.newPage();
        manager.activeTabId = page.id;
        if (input.url) await page.navigate(input.url);
        await browser.activate(page.id).catch(() => undefined);
        return info(page.id, page.url, await page.readTitle());
      }),
    select: (input) =>
      manager.structural(async (browser) => {
        const known = browser.tabs().find((tab) => tab.id === input.id || tab.id.startsWith(input.id.toUpperCase()));
        if (!known) throw new ArgusError('tab_not_found', `No tab with id ${input.id}. Run \`argus tabs\` to list tabs.`);
        const page = await browser.attach(known.id);
        manager.activeTabId = page.id;
        await browser.activate(page.id).catch(() => undefined);
        return info(page.id, page.url, page.title);
      }),
    close: (input) =>
      manager.structural(async (browser) => {
        const id = input.id ? browser.tabs().find((tab) => tab.id === input.id || tab.id.startsWith(input.id!.toUpperCase()))?.id : manager.activeTabId;
        if (!id) throw new ArgusError(input.id ? 'tab_not_found' : 'no_active_tab', input.id ? `No tab with id ${input.id}. Run \`argus tabs\`.` : 'There is no active tab to close.');
        await browser.closePage(id);
        if (manager.activeTabId === id) manager.activeTabId = browser.attachedPages().at(-1)?.id;
        return { closed: id, activeTab: manager.activeTabId ?? null };
      }),
  };
}
