import type { CallContext } from '@argus/protocol';
import type { BrowserManager } from '../browser-manager.js';
import { callerFor } from '../caller.js';
import { resolveTabRef } from '../tab-refs.js';
import type { LocateTab } from './journal.js';

/**
 * The tab a call names (`input.tab`, resolved among the caller's tabs) or the caller's active tab,
 * and its URL as last reported by Chrome: read from what the manager already knows, never a CDP
 * call, never creating a tab or starting the browser (the journal must not change what it records).
 */
export function locateTab(manager: BrowserManager): LocateTab {
  return (ctx: CallContext, input: unknown) => {
    const browser = manager.current;
    if (!browser) return { tab: null, url: null };
    // the same owner the handlers' caller-aware lookups use (a shared token's, a named session's)
    const owner = callerFor(ctx)?.id;
    const given = (input as { tab?: unknown } | null | undefined)?.tab;
    let tab: string | undefined;
    if (typeof given === 'string') {
      const visible =
        owner === undefined
          ? browser.tabs()
          : browser.tabs().filter((info) => manager.clients.owner(info.id) === owner);
      try {
        tab = resolveTabRef(visible, given);
      } catch {
        return { tab: given, url: null };
      }
    } else tab = owner === undefined ? manager.activeTabId : manager.clients.active(owner);
    if (!tab) return { tab: null, url: null };
    const page = browser.page(tab);
    return { tab, url: page && !page.closed ? page.url : null };
  };
}
