import type { Browser, Page } from '@argus/cdp';
import { ArgusError, type Handlers } from '@argus/protocol';
import { requireScope } from '@argus/security';
import { buildRoute, entryOf } from '../route-rules.js';
import type { Services } from '../services.js';

/**
 * `route` / `unroute` / `routes`: request interception through each tab's one Fetch owner
 * (@argus/cdp PageInterception). A tab's routes live and die with the tab; `--all-tabs` routes live
 * with the browser (every tab, now and later) until removed or the browser goes.
 */
export function routeHandlers(services: Services): Handlers['route'] {
  const { manager } = services;
  let next = 0;
  const syncAll = (browser: Browser) =>
    Promise.all(browser.attachedPages().map((page) => page.interception.sync().catch(() => undefined)));
  const tabEntries = (page: Page) => page.interception.routes.list().map((route) => entryOf(route, page.id));
  return {
    add: async (input, ctx) => {
      if (input.allTabs && input.tab !== undefined)
        throw new ArgusError('invalid_input', 'Give --tab or --all-tabs, not both.');
      const rule = buildRoute(`r${++next}`, input, services.access.paths(ctx));
      if (input.allTabs) {
        // every tab, the operator's included: not for narrower tokens
        requireScope(ctx, 'admin', 'A route for every tab', 'Route one tab instead (drop --all-tabs).');
        const browser = await manager.ensure();
        browser.routes.add(rule);
        await syncAll(browser);
        return entryOf(browser.routes.list()[0] ?? { ...rule, hits: 0 }, null);
      }
      return manager.onTab(input.tab, async (page) => {
        page.interception.routes.add(rule);
        await page.interception.sync();
        return entryOf(page.interception.routes.list()[0] ?? { ...rule, hits: 0 }, page.id);
      });
    },
    remove: async (input, ctx) => {
      if (!input.all && input.pattern === undefined)
        throw new ArgusError('invalid_input', 'Name the route to remove (its pattern or id), or pass --all.');
      const browser = await manager.ensure();
      if (input.all) {
        requireScope(ctx, 'admin', 'Removing every route', 'Remove routes by pattern instead.');
        const removed = [
          ...browser.routes.remove(),
          ...browser.attachedPages().flatMap((page) => page.interception.routes.remove()),
        ];
        await syncAll(browser);
        return { removed: removed.map((route) => route.pattern) };
      }
      const wanted = input.pattern ?? '';
      const slashed = wanted.startsWith('/') ? `**${wanted}` : wanted;
      const which = (route: { id: string; pattern: string }) =>
        route.id === wanted || route.pattern === wanted || route.pattern === slashed;
      return manager.onTab(input.tab, async (page) => {
        const removed = [...page.interception.routes.remove(which), ...browser.routes.remove(which)];
        await syncAll(browser);
        return { removed: removed.map((route) => route.pattern) };
      });
    },
    list: (input) =>
      manager.onTab(input.tab, async (page) => {
        const browser = await manager.ensure();
        return {
          routes: [...tabEntries(page), ...browser.routes.list().map((route) => entryOf(route, null))],
          requests: page.interception.counts,
        };
      }),
  };
}
