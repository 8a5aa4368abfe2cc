import { generateToken, hashToken, sameHash, tokenId } from '@argus/security';
import type { LeaseClaim } from '../tab-leases.js';

/** What a watch token lets its holder do: look at one tab, and click and type in it with `control`. */
export interface WatchGrant {
  id: string;
  tab: string;
  control: boolean;
  expiresAt: number;
  /**
   * What the link's creator proved about tab leases when it asked for the link (its lease ids, its
   * socket): a --control viewer's input is that client's write, refused on a tab someone else leases.
   */
  claim?: LeaseClaim | undefined;
}

interface Stored extends WatchGrant {
  hash: string;
}

export type WatchCheck = { ok: true; grant: WatchGrant } | { ok: false; reason: 'missing' | 'unknown' | 'expired' };

/** Live watch links kept at most; expired ones are dropped first when minting. */
const MAX_GRANTS = 64;

/**
 * Tokens of `argus watch` links. They are never the operator's bearer token and never reach the
 * contract: the watch listener is the only place that accepts them, and each names one tab. Held in
 * memory only (hashed): a daemon restart ends every link, which is what a person would expect of a
 * live view. Lookups compare every digest, so timing does not tell where a token matched.
 */
export class WatchTokens {
  private grants: Stored[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  mint(tab: string, control: boolean, ttlMs: number, claim?: LeaseClaim): { secret: string; grant: WatchGrant } {
    this.grants = this.grants.filter((grant) => grant.expiresAt > this.now());
    // the oldest link goes first when a person opened very many
    if (this.grants.length >= MAX_GRANTS) this.grants.shift();
    const secret = generateToken();
    const stored: Stored = {
      id: tokenId(secret),
      hash: hashToken(secret),
      tab,
      control,
      expiresAt: this.now() + ttlMs,
      claim,
    };
    this.grants.push(stored);
    return { secret, grant: this.view(stored) };
  }

  check(secret: string | undefined): WatchCheck {
    if (!secret) return { ok: false, reason: 'missing' };
    const digest = hashToken(secret);
    let found: Stored | undefined;
    for (const grant of this.grants) if (sameHash(digest, grant.hash)) found = grant;
    if (!found) return { ok: false, reason: 'unknown' };
    if (found.expiresAt <= this.now()) return { ok: false, reason: 'expired' };
    return { ok: true, grant: this.view(found) };
  }

  /** Ends every link to a tab (it closed). */
  revokeTab(tab: string): void {
    this.grants = this.grants.filter((grant) => grant.tab !== tab);
  }

  private view(stored: Stored): WatchGrant {
    return {
      id: stored.id,
      tab: stored.tab,
      control: stored.control,
      expiresAt: stored.expiresAt,
      claim: stored.claim,
    };
  }
}
