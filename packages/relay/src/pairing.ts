import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  generateToken,
  hashToken,
  isExtensionOrigin,
  newPairingCode,
  normalizePairingCode,
  pairingFingerprint,
  safeEqual,
} from '@argus/security';
import { makeDirs } from '@argus/protocol/make-dirs';

export interface PendingPairing {
  requestId: string;
  code: string;
  nodeId: string;
  name: string | undefined;
  /** The caller's Origin: `chrome-extension://…` for a real extension, undefined for a local process. */
  origin: string | undefined;
  /** Short hash of origin + node id, in a fixed format (see pairingFingerprint). */
  fingerprint: string;
  createdAt: number;
  expiresAt: number;
}

type PairOutcome = { status: 'approved'; pairingToken: string } | { status: 'pending'; request: PendingPairing };

/** Why a pairing request was refused; the HTTP route maps these to status codes. */
export class PairingRefused extends Error {
  constructor(readonly reason: 'bad_launch_token' | 'pool_full') {
    super(reason);
  }
}

const PENDING_TTL_MS = 5 * 60_000;
/**
 * Pending requests are kept in pools by who asks, so one caller cannot take the slots of another:
 * local processes without an Origin share one small pool, each extension origin has its own.
 * A flood from a script (no Origin) or from another extension never keeps the Argus extension out.
 */
const LOCAL_POOL_MAX = 4;
const PER_EXTENSION_ORIGIN_MAX = 2;
const MAX_EXTENSION_ORIGINS = 16;
const LOCAL_POOL = 'local';

function poolOf(origin: string | undefined): string {
  return isExtensionOrigin(origin) ? origin : LOCAL_POOL;
}

/**
 * Pairing: an extension node asks to pair; it is approved at once when it presents the daemon's
 * per-launch token, otherwise it waits for the operator to approve its short code. Approval mints a
 * pairing token bound to the node id; only its hash is kept (and optionally persisted, so a daemon
 * restart does not force re-pairing).
 */
export class PairingRegistry {
  private readonly pending = new Map<string, PendingPairing>();
  /** requestId -> token minted on operator approval, handed out on the next poll. */
  private readonly approvedTokens = new Map<string, string>();
  /** nodeId -> sha256(pairing token). */
  private readonly paired = new Map<string, string>();

  constructor(
    private readonly launchToken: string | undefined,
    private readonly file: string | undefined,
  ) {
    if (file) this.load(file);
  }

  /** Throws PairingRefused when a launch token does not match or the caller's pool is full. */
  request(input: {
    nodeId: string;
    name?: string | undefined;
    launchToken?: string | undefined;
    requestId?: string | undefined;
    origin?: string | undefined;
  }): PairOutcome {
    this.expire();
    if (input.launchToken !== undefined) {
      if (!this.launchToken || !safeEqual(input.launchToken, this.launchToken))
        throw new PairingRefused('bad_launch_token');
      return { status: 'approved', pairingToken: this.mint(input.nodeId) };
    }
    const pool = poolOf(input.origin);
    // a request is found again only by the same caller (same pool): nobody can poll or shadow another's
    const mine = (request: PendingPairing) => request.nodeId === input.nodeId && poolOf(request.origin) === pool;
    if (input.requestId) {
      const minted = this.approvedTokens.get(input.requestId);
      if (minted) {
        this.approvedTokens.delete(input.requestId);
        return { status: 'approved', pairingToken: minted };
      }
      const existing = this.pending.get(input.requestId);
      if (existing && mine(existing)) return { status: 'pending', request: existing };
    }
    for (const existing of this.pending.values()) if (mine(existing)) return { status: 'pending', request: existing };
    if (!this.hasRoom(pool)) throw new PairingRefused('pool_full');
    const now = Date.now();
    const request: PendingPairing = {
      requestId: generateToken(12),
      code: this.newCode(),
      nodeId: input.nodeId,
      name: input.name,
      origin: input.origin,
      fingerprint: pairingFingerprint(input.origin, input.nodeId),
      createdAt: now,
      expiresAt: now + PENDING_TTL_MS,
    };
    this.pending.set(request.requestId, request);
    return { status: 'pending', request };
  }

  /** Operator approval by the code the extension popup shows. Returns false for unknown codes. */
  approve(code: string): boolean {
    this.expire();
    const normalized = normalizePairingCode(code);
    for (const request of this.pending.values()) {
      if (safeEqual(request.code, normalized)) {
        this.pending.delete(request.requestId);
        this.approvedTokens.set(request.requestId, this.mint(request.nodeId));
        return true;
      }
    }
    return false;
  }

  /** Pending requests, extension origins first (oldest first within each). */
  list(): PendingPairing[] {
    this.expire();
    const all = [...this.pending.values()].map((request) => ({ ...request }));
    return [...all.filter((r) => isExtensionOrigin(r.origin)), ...all.filter((r) => !isExtensionOrigin(r.origin))];
  }

  verify(nodeId: string, token: string): boolean {
    const expected = this.paired.get(nodeId);
    // compare against a dummy when unknown so timing does not reveal which node ids are paired
    return safeEqual(hashToken(token), expected ?? hashToken('\u0000unpaired')) && expected !== undefined;
  }

  get pairedCount(): number {
    return this.paired.size;
  }

  private hasRoom(pool: string): boolean {
    const counts = new Map<string, number>();
    for (const request of this.pending.values()) {
      const key = poolOf(request.origin);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const inPool = counts.get(pool) ?? 0;
    if (pool === LOCAL_POOL) return inPool < LOCAL_POOL_MAX;
    if (inPool === 0) return [...counts.keys()].filter((key) => key !== LOCAL_POOL).length < MAX_EXTENSION_ORIGINS;
    return inPool < PER_EXTENSION_ORIGIN_MAX;
  }

  private mint(nodeId: string): string {
    const token = generateToken(32);
    this.paired.set(nodeId, hashToken(token));
    this.save();
    return token;
  }

  private newCode(): string {
    const taken = new Set([...this.pending.values()].map((request) => request.code));
    for (;;) {
      const code = newPairingCode();
      if (!taken.has(code)) return code;
    }
  }

  private expire(): void {
    const now = Date.now();
    for (const [id, request] of this.pending) if (request.expiresAt <= now) this.pending.delete(id);
  }

  private load(file: string): void {
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown; // our own file; shape checked below
      if (
        parsed &&
        typeof parsed === 'object' &&
        'paired' in parsed &&
        parsed.paired &&
        typeof parsed.paired === 'object'
      ) {
        for (const [nodeId, hash] of Object.entries(parsed.paired))
          if (typeof hash === 'string') this.paired.set(nodeId, hash);
      }
    } catch {
      // missing or unreadable file: start with no pairings
    }
  }

  private save(): void {
    if (!this.file) return;
    makeDirs(dirname(this.file), 0o700);
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ paired: Object.fromEntries(this.paired) }), { mode: 0o600 });
    renameSync(tmp, this.file);
  }
}
