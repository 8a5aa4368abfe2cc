import { randomInt } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { hashToken, randomToken, safeEqual } from './tokens.js';

export interface PendingPairing {
  requestId: string;
  code: string;
  nodeId: string;
  name: string | undefined;
  origin: string | undefined;
  createdAt: number;
  expiresAt: number;
}

type PairOutcome = { status: 'approved'; pairingToken: string } | { status: 'pending'; request: PendingPairing };

const PENDING_TTL_MS = 5 * 60_000;
const MAX_PENDING = 16;
// no 0/O/1/I: codes are read aloud or typed by an operator
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

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

  /** Throws `Error('bad_launch_token')` when a launch token is presented and does not match. */
  request(input: { nodeId: string; name?: string | undefined; launchToken?: string | undefined; requestId?: string | undefined; origin?: string | undefined }): PairOutcome {
    this.expire();
    if (input.launchToken !== undefined) {
      if (!this.launchToken || !safeEqual(input.launchToken, this.launchToken)) throw new Error('bad_launch_token');
      return { status: 'approved', pairingToken: this.mint(input.nodeId) };
    }
    if (input.requestId) {
      const minted = this.approvedTokens.get(input.requestId);
      if (minted) {
        this.approvedTokens.delete(input.requestId);
        return { status: 'approved', pairingToken: minted };
      }
      const existing = this.pending.get(input.requestId);
      if (existing && existing.nodeId === input.nodeId) return { status: 'pending', request: existing };
    }
    for (const existing of this.pending.values()) {
      if (existing.nodeId === input.nodeId) return { status: 'pending', request: existing };
    }
    if (this.pending.size >= MAX_PENDING) throw new Error('too_many_pending');
    const now = Date.now();
    const request: PendingPairing = {
      requestId: randomToken(12),
      code: this.newCode(),
      nodeId: input.nodeId,
      name: input.name,
      origin: input.origin,
      createdAt: now,
      expiresAt: now + PENDING_TTL_MS,
    };
    this.pending.set(request.requestId, request);
    return { status: 'pending', request };
  }

  /** Operator approval by the code the extension popup shows. Returns false for unknown codes. */
  approve(code: string): boolean {
    this.expire();
    const normalized = code.trim().toUpperCase();
    for (const request of this.pending.values()) {
      if (request.code === normalized) {
        this.pending.delete(request.requestId);
        this.approvedTokens.set(request.requestId, this.mint(request.nodeId));
        return true;
      }
    }
    return false;
  }

  list(): PendingPairing[] {
    this.expire();
    return [...this.pending.values()].map((request) => ({ ...request }));
  }

  verify(nodeId: string, token: string): boolean {
    const expected = this.paired.get(nodeId);
    // compare against a dummy when unknown so timing does not reveal which node ids are paired
    return safeEqual(hashToken(token), expected ?? hashToken('\u0000unpaired')) && expected !== undefined;
  }

  get pairedCount(): number {
    return this.paired.size;
  }

  private mint(nodeId: string): string {
    const token = randomToken(32);
    this.paired.set(nodeId, hashToken(token));
    this.save();
    return token;
  }

  private newCode(): string {
    let code = '';
    for (let i = 0; i < 6; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
    return `${code.slice(0, 3)}-${code.slice(3)}`;
  }

  private expire(): void {
    const now = Date.now();
    for (const [id, request] of this.pending) if (request.expiresAt <= now) this.pending.delete(id);
  }

  private load(file: string): void {
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown; // our own file; shape checked below
      if (parsed && typeof parsed === 'object' && 'paired' in parsed && parsed.paired && typeof parsed.paired === 'object') {
        for (const [nodeId, hash] of Object.entries(parsed.paired)) if (typeof hash === 'string') this.paired.set(nodeId, hash);
      }
    } catch {
      // missing or unreadable file: start with no pairings
    }
  }

  private save(): void {
    if (!this.file) return;
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ paired: Object.fromEntries(this.paired) }), { mode: 0o600 });
    renameSync(tmp, this.file);
  }
}
