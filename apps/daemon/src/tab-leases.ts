import { createHash, randomBytes } from 'node:crypto';
import { ArgusError } from '@argus/protocol';

/** Who a command runs for, as far as leases go: what it proves (lease ids, its socket) and what it does. */
export interface LeaseClaim {
  /** The command writes (scope write/admin); reads never wait for or are refused by a lease. */
  write: boolean;
  /** Lease ids the caller presented (`x-argus-lease`): only their hashes are compared. */
  presented: readonly string[];
  /** The WebSocket connection the call came over: leases taken on it are held by it. */
  connection?: string | undefined;
  /** How long a write may wait for another client's lease; 0: refuse at once. */
  waitMs: number;
  /** The caller's name (informational): shown as a lease's holder. */
  name: string;
}

interface Lease {
  /** sha256 of the secret id: the secret itself is never kept, listed or logged. */
  hash: string;
  tab: string;
  holder: string;
  connection: string | undefined;
  ttlMs: number;
  expiresAt: number;
  timer: NodeJS.Timeout | undefined;
}

export interface LeaseView {
  tab: string;
  holder: string;
  ttlMs: number;
  expiresAt: string;
  expiresInMs: number;
  yours: boolean;
}

const hashOf = (id: string) => createHash('sha256').update(id).digest('hex');

/** What is leased, for the refusal: its error code, how to name one, and what the refused caller can do. */
export interface LeaseSubject {
  code: 'tab_leased' | 'canvas_leased';
  /** The leased thing in a sentence: `Tab 3`, `Design document "landing"`. */
  name(key: string): string;
  /** The key's name in the error's details. */
  detailsKey: 'tab' | 'doc';
  advice: string;
  /** The verbs that list leases and take one, for `lease_not_found`. */
  verbs: { list: string; take: string };
}

export const TAB_LEASE: LeaseSubject = {
  code: 'tab_leased',
  name: (tab) => `Tab ${tab}`,
  detailsKey: 'tab',
  advice:
    'Reads still work; to write, wait for it with --lease-wait 30s (ARGUS_LEASE_WAIT, x-argus-lease-wait), use another tab, or ask the holder to `argus tab release`.',
  verbs: { list: 'argus tab leases', take: 'argus tab lease' },
};

/**
 * Exclusive leases on tabs, one per tab (and, with another subject, on design documents: the key is
 * then a document id). A lease is proven by its secret id (returned once by
 * `tabs.lease`, sent back by the holder) or by the WebSocket it was taken on; the informational
 * client name is only shown. Leases end on release, on expiry (the TTL runs from the holder's last
 * command on the tab), when the tab closes, and when the socket they were taken on closes.
 */
export class TabLeases {
  private readonly byTab = new Map<string, Lease>();
  /** Writes waiting for a tab's lease to end, woken on release / expiry. */
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly subject: LeaseSubject = TAB_LEASE,
  ) {}

  /** Whether `claim` proves it holds `lease`. */
  private holds(lease: Lease, claim: LeaseClaim): boolean {
    if (claim.connection !== undefined && lease.connection === claim.connection) return true;
    return claim.presented.some((id) => hashOf(id) === lease.hash);
  }

  /** The live lease on a tab (an expired one is ended here, before its timer fires). */
  private live(tab: string): Lease | undefined {
    const lease = this.byTab.get(tab);
    if (lease && lease.expiresAt <= this.now()) {
      this.end(lease);
      return undefined;
    }
    return lease;
  }

  /** The lease another client holds on `tab` that stops this command, else undefined (the holder's own commands renew it). */
  blocker(tab: string, claim: LeaseClaim): Lease | undefined {
    const lease = this.live(tab);
    if (!lease) return undefined;
    if (this.holds(lease, claim)) {
      this.renew(lease);
      return undefined;
    }
    return claim.write ? lease : undefined;
  }

  /**
   * Lets a command onto its tab: at once when the tab is free, leased by the caller or the command
   * only reads; else it waits up to `claim.waitMs` for the lease to end, then fails with `tab_leased`.
   */
  async admit(
    tab: string,
    claim: LeaseClaim,
    signal?: AbortSignal,
    deadline = this.now() + claim.waitMs,
  ): Promise<void> {
    for (;;) {
      const lease = this.blocker(tab, claim);
      if (!lease) return;
      const left = deadline - this.now();
      if (left <= 0) throw this.refusal(lease, claim);
      await this.waitForChange(tab, Math.min(left, lease.expiresAt - this.now()), signal);
    }
  }

  /** The `tab_leased` (`canvas_leased`) error: who holds it, until when, and how to wait. */
  refusal(lease: Lease, claim: LeaseClaim): ArgusError {
    const expiresInMs = Math.max(0, lease.expiresAt - this.now());
    const waited = claim.waitMs > 0 ? ` (waited ${Math.round(claim.waitMs / 1000)} s)` : '';
    return new ArgusError(
      this.subject.code,
      `${this.subject.name(lease.tab)} is leased by ${lease.holder} until ${new Date(lease.expiresAt).toISOString()} (${Math.ceil(expiresInMs / 1000)} s unless renewed)${waited}. ${this.subject.advice}`,
      {
        details: {
          [this.subject.detailsKey]: lease.tab,
          holder: lease.holder,
          expiresAt: new Date(lease.expiresAt).toISOString(),
          expiresInMs,
          retryable: true,
        },
      },
    );
  }

  private waitForChange(tab: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let set = this.waiters.get(tab);
      if (!set) this.waiters.set(tab, (set = new Set()));
      const waiters = set;
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0 && this.waiters.get(tab) === waiters) this.waiters.delete(tab);
        signal?.removeEventListener('abort', cancelled);
        resolve();
      };
      const cancelled = () => {
        done();
        reject(
          new ArgusError('cancelled', 'The command was cancelled while it waited for a tab lease; nothing was done.'),
        );
      };
      // the expiry timer also wakes waiters; this bound covers a waiter's own deadline
      const timer = setTimeout(done, Math.max(1, ms));
      waiters.add(done);
      signal?.addEventListener('abort', cancelled, { once: true });
    });
  }

  /** Takes (or renews, for its holder) the lease on `tab`. The caller has been admitted: the tab is free or its own. */
  take(tab: string, claim: LeaseClaim, ttlMs: number): LeaseView & { lease: string; renewed: boolean } {
    const held = this.live(tab);
    if (held && !this.holds(held, claim)) throw this.refusal(held, claim);
    if (held) {
      held.ttlMs = ttlMs;
      this.renew(held);
      // the holder proved it with an id or its socket; a socket-held lease has no id to hand back
      const presented = claim.presented.find((id) => hashOf(id) === held.hash);
      const id = presented ?? this.rekey(held);
      return { ...this.view(held, claim), yours: true, lease: id, renewed: true };
    }
    const id = `lease_${randomBytes(24).toString('base64url')}`;
    const lease: Lease = {
      hash: hashOf(id),
      tab,
      holder: claim.name,
      connection: claim.connection,
      ttlMs,
      expiresAt: 0,
      timer: undefined,
    };
    this.byTab.set(tab, lease);
    this.renew(lease);
    return { ...this.view(lease, claim), yours: true, lease: id, renewed: false };
  }

  /** A fresh id for a lease held through its socket (the old id, never kept, cannot be returned). */
  private rekey(lease: Lease): string {
    const id = `lease_${randomBytes(24).toString('base64url')}`;
    lease.hash = hashOf(id);
    return id;
  }

  /** Releases the lease with id `id`, else every lease the claim holds (its ids, its socket); returns their tabs. */
  release(claim: LeaseClaim, id?: string): string[] {
    if (id !== undefined) {
      const hash = hashOf(id);
      const lease = [...this.byTab.values()].find((candidate) => candidate.hash === hash);
      if (!lease || lease.expiresAt <= this.now()) {
        if (lease) this.end(lease);
        throw new ArgusError(
          'lease_not_found',
          `No live lease has that id: it expired (no command from its holder within its TTL), was released, or what it leased went away. \`${this.subject.verbs.list}\` lists the leases there are; take a new one with \`${this.subject.verbs.take}\`.`,
        );
      }
      this.end(lease);
      return [lease.tab];
    }
    const mine = [...this.byTab.values()].filter((lease) => this.holds(lease, claim));
    for (const lease of mine) this.end(lease);
    return mine.map((lease) => lease.tab);
  }

  /** The socket went away: every lease taken on it ends. */
  releaseConnection(connection: string): string[] {
    const taken = [...this.byTab.values()].filter((lease) => lease.connection === connection);
    for (const lease of taken) this.end(lease);
    return taken.map((lease) => lease.tab);
  }

  /** The tab closed (or the browser went): its lease ends with it. */
  forget(tab: string): void {
    const lease = this.byTab.get(tab);
    if (lease) this.end(lease);
  }

  /** Every lease ends (browser restarted, daemon stopping). */
  clear(): void {
    for (const lease of [...this.byTab.values()]) this.end(lease);
  }

  /** Live leases on the tabs `visible` says the caller may see. */
  list(claim: LeaseClaim, visible: (tab: string) => boolean = () => true): LeaseView[] {
    return [...this.byTab.keys()]
      .map((tab) => this.live(tab))
      .filter((lease): lease is Lease => lease !== undefined && visible(lease.tab))
      .map((lease) => this.view(lease, claim));
  }

  get size(): number {
    return this.byTab.size;
  }

  private view(lease: Lease, claim: LeaseClaim): LeaseView {
    return {
      tab: lease.tab,
      holder: lease.holder,
      ttlMs: lease.ttlMs,
      expiresAt: new Date(lease.expiresAt).toISOString(),
      expiresInMs: Math.max(0, lease.expiresAt - this.now()),
      yours: this.holds(lease, claim),
    };
  }

  private renew(lease: Lease): void {
    lease.expiresAt = this.now() + lease.ttlMs;
    clearTimeout(lease.timer);
    // ends the lease on time even when nobody asks about the tab, and wakes the writes waiting for it
    lease.timer = setTimeout(() => {
      if (this.byTab.get(lease.tab) === lease && lease.expiresAt <= this.now()) this.end(lease);
    }, lease.ttlMs + 1);
    lease.timer.unref();
  }

  private end(lease: Lease): void {
    clearTimeout(lease.timer);
    if (this.byTab.get(lease.tab) === lease) this.byTab.delete(lease.tab);
    for (const wake of [...(this.waiters.get(lease.tab) ?? [])]) wake();
  }
}
