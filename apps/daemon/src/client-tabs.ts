import { ArgusError } from '@argus/protocol';
import type { Browser, Page } from '@argus/cdp';
import type { Caller } from './caller.js';

/**
 * Tabs of remote clients (shared tokens) and named sessions. A client sees and drives only the tabs it
 * opened and the popups its pages opened; they live in a browser context of its own (separate cookies, storage and cache), so a client cannot
 * ride the operator's logged-in sessions either. The operator (main listener) sees every tab.
 */
export class ClientTabs {
  /** tab id -> client (token) id */
  private readonly owners = new Map<string, string>();
  /** client id -> its active tab */
  private readonly actives = new Map<string, string>();
  /** client id -> its browser context */
  private readonly contexts = new Map<string, Promise<string>>();
  /** browser context id -> client id, once the context exists */
  private readonly contextOwners = new Map<string, string>();
  /** Browsers whose new tabs are watched for the clients' popups (adoptPopups). */
  private readonly watched = new WeakSet<Browser>();

  /** `mode`: the daemon's session mode (no client tabs in the user's own browser). */
  constructor(private readonly mode: () => string) {}

  owner(tabId: string): string | undefined {
    return this.owners.get(tabId);
  }

  active(clientId: string): string | undefined {
    return this.actives.get(clientId);
  }

  setActive(clientId: string, tabId: string | undefined): void {
    if (tabId === undefined) this.actives.delete(clientId);
    else this.actives.set(clientId, tabId);
  }

  /** A tab went away. */
  forget(tabId: string): void {
    const owner = this.owners.get(tabId);
    this.owners.delete(tabId);
    if (owner && this.actives.get(owner) === tabId) {
      const next = [...this.owners].filter(([, who]) => who === owner).at(-1)?.[0];
      this.setActive(owner, next);
    }
  }

  /** One owner's browser went away (a pool endpoint died): its tabs and context with it, nobody else's. */
  forgetOwner(owner: string): void {
    for (const [tab, who] of [...this.owners]) if (who === owner) this.owners.delete(tab);
    this.actives.delete(owner);
    this.contexts.delete(owner);
    for (const [context, who] of [...this.contextOwners]) if (who === owner) this.contextOwners.delete(context);
  }

  /** The browser went away: its tabs and contexts with it. */
  reset(): void {
    this.owners.clear();
    this.actives.clear();
    this.contexts.clear();
    this.contextOwners.clear();
  }

  /**
   * A tab a client's page opens (window.open, target=_blank) is that client's: it lives in the
   * client's browser context (its cookies) and was reported to it as opened. Before, nobody owned it:
   * the client could neither list nor switch to it, `closetab` of its opener said "no tabs left" while
   * it stayed open, and the operator's commands could fall back to it as one of their own tabs.
   * Watched from the client's first context in this browser, before any of its pages exist.
   */
  private adoptPopups(browser: Browser): void {
    if (this.watched.has(browser)) return;
    this.watched.add(browser);
    browser.router.root.on('Target.targetCreated', ({ targetInfo }) => {
      if (targetInfo.type !== 'page' || this.owners.has(targetInfo.targetId)) return;
      const owner =
        (targetInfo.browserContextId ? this.contextOwners.get(targetInfo.browserContextId) : undefined) ??
        (targetInfo.openerId ? this.owners.get(targetInfo.openerId) : undefined);
      if (owner) this.owners.set(targetInfo.targetId, owner);
    });
  }

  private notFound(tabId: string): ArgusError {
    // the same answer whether the tab does not exist or belongs to someone else: nothing leaks
    return new ArgusError('tab_not_found', `No tab with id ${tabId}. Run \`argus tabs\` to list your tabs.`);
  }

  /** The client's page for `tabId` (or its active tab, opening its first one when it has none). */
  async page(browser: Browser, client: Caller, tabId?: string): Promise<Page> {
    if (tabId) {
      if (this.owners.get(tabId) !== client.id) throw this.notFound(tabId);
      const page = browser.page(tabId) ?? (await browser.attach(tabId));
      page.assertOpen();
      return page;
    }
    const activeId = this.actives.get(client.id);
    const active = activeId ? browser.page(activeId) : undefined;
    if (active && !active.closed) return active;
    // a popup made active (its opener closed) may still be being set up: wait for it rather than open another tab
    const settling =
      activeId && !active && browser.tabs().some((tab) => tab.id === activeId)
        ? await browser.attach(activeId).catch(() => undefined)
        : undefined;
    if (settling && !settling.closed) return settling;
    const own = browser
      .attachedPages()
      .filter((page) => !page.closed && this.owners.get(page.id) === client.id)
      .at(-1);
    if (own) {
      this.actives.set(client.id, own.id);
      return own;
    }
    const created = await this.newPage(browser, client);
    this.actives.set(client.id, created.id);
    return created;
  }

  /** Opens a tab for the client in its own browser context. */
  async newPage(browser: Browser, client: Caller): Promise<Page> {
    if (this.mode() === 'extension' && client.session !== undefined) {
      throw new ArgusError(
        'unsupported',
        "Named sessions need a browser Argus launched or connected to over CDP: the extension drives the user's own tabs, which share one profile. Drop --session, or switch with `argus connect --managed`.",
      );
    }
    if (this.mode() === 'extension') {
      throw new ArgusError(
        'unsupported',
        "A shared token cannot open tabs in extension mode (the tabs would be in the user's own browser). Switch the daemon to managed mode (`argus connect --managed`).",
      );
    }
    const page = await browser.newPage(10_000, await this.contextFor(browser, client.id));
    this.owners.set(page.id, client.id);
    return page;
  }

  /** The client's browser context, created on first use. */
  contextFor(browser: Browser, clientId: string): Promise<string> {
    let context = this.contexts.get(clientId);
    if (!context) {
      this.adoptPopups(browser);
      context = browser.createContext();
      this.contexts.set(clientId, context);
      context.then(
        (id) => this.contextOwners.set(id, clientId),
        () => this.contexts.delete(clientId),
      );
    }
    return context;
  }

  /** Tab owners that exist: a client with an open tab or a browser context (kept after its last tab closed). */
  known(): string[] {
    return [...new Set([...this.contexts.keys(), ...this.owners.values()])];
  }

  /** Tabs a client owns, in the order they were opened. */
  tabsOf(clientId: string): string[] {
    return [...this.owners].filter(([, owner]) => owner === clientId).map(([tab]) => tab);
  }

  /**
   * Closes every tab of a client and its browser context (on revoke, or `session close`), and those
   * of the client's own named sessions (`<id>/session:<name>`). Returns how many tabs closed.
   */
  async closeAll(browser: Browser | undefined, clientId: string): Promise<number> {
    const mine = (owner: string) => owner === clientId || owner.startsWith(`${clientId}/`);
    const tabs = [...this.owners].filter(([, owner]) => mine(owner)).map(([tab]) => tab);
    for (const tab of tabs) this.owners.delete(tab);
    const contexts = [...this.contexts].filter(([owner]) => mine(owner));
    for (const [owner] of contexts) this.contexts.delete(owner);
    for (const [context, owner] of [...this.contextOwners]) if (mine(owner)) this.contextOwners.delete(context);
    for (const owner of [...this.actives.keys()]) if (mine(owner)) this.actives.delete(owner);
    if (!browser) return tabs.length;
    await Promise.all(tabs.map((tab) => browser.closePage(tab).catch(() => undefined)));
    for (const [, context] of contexts) {
      const id = await context.catch(() => undefined);
      if (id) await browser.disposeContext(id).catch(() => undefined);
    }
    return tabs.length;
  }
}
