import { type FetchCounts, FetchOwner, type FetchParty } from './fetch-owner.js';
import { type NavigationGuard, navigationGuardParty } from './navigation-guard.js';
import { RouteSet } from './routes.js';
import type { Session } from './session.js';

/**
 * Everything of one tab that pauses requests: one FetchOwner per session (the main one and each
 * OOPIF's), each asking the navigation guard first (policy before mocks), then the tab's routes,
 * then the browser-wide ones.
 */
export class PageInterception {
  /** Request interception rules of this tab (`argus route`); they win over the browser-wide ones. */
  readonly routes = new RouteSet();
  private readonly owners: FetchOwner[] = [];
  /** Policy parties added for a while (a render tab's sub-resource guard): asked after the guard, before routes. */
  private readonly policies: FetchParty[] = [];

  constructor(
    private readonly tabId: string,
    private readonly guard?: NavigationGuard,
    private readonly sharedRoutes?: RouteSet,
  ) {}

  /** Sets up the owner of a session (before it is resumed); resolves when Fetch is enabled for it. */
  attach(session: Session, offs: Array<() => void>): Promise<void> {
    const owner = new FetchOwner(session);
    if (this.guard) {
      const guarded = navigationGuardParty(session, this.tabId, this.guard);
      offs.push(...guarded.offs);
      owner.add(guarded.party);
    }
    for (const party of this.policies) owner.add(party);
    owner.add(this.routes);
    if (this.sharedRoutes) owner.add(this.sharedRoutes);
    this.owners.push(owner);
    return owner.refresh();
  }

  /**
   * Adds a policy party to every session of the tab, present and future (OOPIFs), ahead of the
   * routes; resolves once Fetch is enabled with its patterns. The returned function removes it again.
   */
  async addPolicy(party: FetchParty): Promise<() => Promise<void>> {
    this.policies.push(party);
    for (const owner of this.owners) owner.insertBefore(party, this.routes);
    await this.sync();
    return async () => {
      const index = this.policies.indexOf(party);
      if (index < 0) return;
      this.policies.splice(index, 1);
      for (const owner of this.owners) owner.remove(party);
      await this.sync().catch(() => undefined);
    };
  }

  /** Re-enables Fetch on every session of the tab after its (or the browser-wide) routes changed. */
  async sync(): Promise<void> {
    await Promise.all(this.owners.map((owner) => owner.refresh()));
  }

  /** Paused requests of this tab so far, answered ones, and ones still held. */
  get counts(): FetchCounts {
    const counts = { paused: 0, resolved: 0, pending: 0 };
    for (const owner of this.owners) {
      const one = owner.counts;
      counts.paused += one.paused;
      counts.resolved += one.resolved;
      counts.pending += one.pending;
    }
    return counts;
  }

  /** Lets every held request go on and turns interception off (before detaching or closing the browser). */
  async release(): Promise<void> {
    await Promise.all(this.owners.map((owner) => owner.release()));
  }

  /** The tab is gone: its paused requests went with it; the owners only stop listening. */
  dispose(): void {
    for (const owner of this.owners) owner.dispose();
  }
}
