import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateToken, hashToken, sameHash, tokenId } from '@argus/security';

/** In the state dir (0700), beside daemon.json. */
export const SHARES_FILE = 'shares.json';

/** A shared token as stored: the secret only as its sha256. */
export interface SharedToken {
  id: string;
  hash: string;
  name: string;
  scope: 'read' | 'write';
  commands: string[];
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
}

interface SharesFile {
  version: 1;
  /** Where the tunnel listened last (reopened there when the daemon restarts with live tokens). */
  tunnel: { host: string; port: number } | null;
  tokens: SharedToken[];
}

export type ShareCheck =
  | { ok: true; token: SharedToken }
  | { ok: false; reason: 'missing' | 'unknown' | 'expired'; id: string | null };

/** Most shared tokens kept; the oldest expired ones are dropped first when minting. */
const MAX_SHARES = 256;
/** Last-use times are written at most this often (not on every request). */
const FLUSH_DELAY_MS = 5_000;

/**
 * Shared tokens (`argus share`) in `<state dir>/shares.json`, mode 0600, hashed: the plaintext exists
 * only in the `share` answer. Survives daemon restarts, so a remote agent keeps working after an idle
 * shutdown. Lookups compare digests in constant time.
 */
export class ShareStore {
  private readonly file: string;
  private data: SharesFile;
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(
    stateDir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.file = join(stateDir, SHARES_FILE);
    this.data = this.load();
  }

  private load(): SharesFile {
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<SharesFile>;
      if (parsed.version === 1 && Array.isArray(parsed.tokens))
        return { version: 1, tunnel: parsed.tunnel ?? null, tokens: parsed.tokens };
    } catch {
      // no file yet (or unreadable): start empty
    }
    return { version: 1, tunnel: null, tokens: [] };
  }

  private save(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(this.data, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temp, 0o600);
    renameSync(temp, this.file);
  }

  get tunnel(): { host: string; port: number } | null {
    return this.data.tunnel;
  }

  set tunnel(address: { host: string; port: number } | null) {
    this.data.tunnel = address;
    this.save();
  }

  list(): readonly SharedToken[] {
    return this.data.tokens;
  }

  /** True when at least one token has not expired (the tunnel is worth reopening). */
  hasLive(): boolean {
    return this.data.tokens.some((token) => !this.isExpired(token));
  }

  isExpired(token: SharedToken): boolean {
    return Date.parse(token.expiresAt) <= this.now();
  }

  /** Mints a token; undefined when MAX_SHARES live tokens exist already (expired ones are dropped to make room). */
  mint(grant: {
    name: string;
    scope: 'read' | 'write';
    commands: string[];
    ttlMs: number;
  }): { secret: string; token: SharedToken } | undefined {
    if (this.data.tokens.length >= MAX_SHARES)
      this.data.tokens = this.data.tokens.filter((token) => !this.isExpired(token));
    if (this.data.tokens.length >= MAX_SHARES) return undefined;
    const secret = generateToken();
    const created = this.now();
    const token: SharedToken = {
      id: tokenId(secret),
      hash: hashToken(secret),
      name: grant.name,
      scope: grant.scope,
      commands: grant.commands,
      createdAt: new Date(created).toISOString(),
      expiresAt: new Date(created + grant.ttlMs).toISOString(),
      lastUsedAt: null,
    };
    this.data.tokens.push(token);
    this.save();
    return { secret, token };
  }

  /** Checks a presented bearer token; a hit records its last use. */
  check(secret: string | undefined): ShareCheck {
    if (!secret) return { ok: false, reason: 'missing', id: null };
    const digest = hashToken(secret);
    // compare against every entry so the time taken does not depend on where (or whether) it matches
    let found: SharedToken | undefined;
    for (const token of this.data.tokens) if (sameHash(digest, token.hash)) found = token;
    if (!found) return { ok: false, reason: 'unknown', id: digest.slice(0, 12) };
    if (this.isExpired(found)) return { ok: false, reason: 'expired', id: found.id };
    found.lastUsedAt = new Date(this.now()).toISOString();
    this.flushTimer ??= setTimeout(() => this.save(), FLUSH_DELAY_MS).unref();
    return { ok: true, token: found };
  }

  /** Tokens whose id starts with `prefix`. */
  find(prefix: string): SharedToken[] {
    return this.data.tokens.filter((token) => token.id.startsWith(prefix.toLowerCase()));
  }

  /** Removes a token at once: its next request is refused. */
  revoke(token: SharedToken): void {
    this.data.tokens = this.data.tokens.filter((entry) => entry !== token);
    this.save();
  }

  /** Writes pending last-use times (on daemon stop). */
  flush(): void {
    if (this.flushTimer) this.save();
  }
}
