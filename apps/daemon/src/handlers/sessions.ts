import { ArgusError, type Handlers } from '@argus/protocol';
import type { Browser } from '@argus/cdp';
import { sessionOwner } from '../caller.js';
import type { Services } from '../services.js';

/**
 * Named sessions (`--session NAME`): each is a tab owner in the manager's ClientTabs, with a browser
 * context of its own, so cookies, storage, tabs, refs and capture buffers stay apart. The operator's
 * sessions are `session:<name>`, a shared token's are `<token>/session:<name>`; each caller lists and
 * closes only its own.
 */
export function namedSessionHandlers(services: Services): Handlers['sessions'] {
  const { manager } = services;
  const prefixOf = (owner: string | undefined) => sessionOwner(owner, '');
  const urlOf = (browser: Browser | undefined, tabId: string | undefined) =>
    (tabId && browser?.tabs().find((tab) => tab.id === tabId)?.url) || null;
  return {
    list: async (_input, ctx) => {
      const browser = manager.current;
      const prefix = prefixOf(ctx.owner);
      const defaultTabs =
        ctx.owner === undefined
          ? (browser
              ?.tabs()
              .filter((tab) => !manager.clients.owner(tab.id))
              .map((tab) => tab.id) ?? [])
          : manager.clients.tabsOf(ctx.owner);
      const defaultActive = ctx.owner === undefined ? manager.activeTabId : manager.clients.active(ctx.owner);
      const named = manager.clients
        .known()
        .filter((owner) => owner.startsWith(prefix))
        .sort()
        .map((owner) => ({
          name: owner.slice(prefix.length),
          tabs: manager.clients.tabsOf(owner).length,
          activeUrl: urlOf(browser, manager.clients.active(owner)),
          current: ctx.session === owner.slice(prefix.length),
        }));
      return {
        sessions: [
          {
            name: 'default',
            tabs: defaultTabs.length,
            activeUrl: urlOf(browser, defaultActive),
            current: ctx.session === undefined,
          },
          ...named,
        ],
      };
    },
    close: async (input, ctx) => {
      if (input.name === 'default') {
        throw new ArgusError(
          'invalid_input',
          'The default session cannot be closed; close its tabs with `argus closetab`, or stop the daemon with `argus stop`.',
        );
      }
      const owner = sessionOwner(ctx.owner, input.name);
      const existed = manager.clients.known().includes(owner);
      // no browser running: nothing is open, only the bookkeeping goes
      const closedTabs = await manager.closeOwner(owner);
      return { name: input.name, closedTabs, existed };
    },
  };
}
