import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh random bearer token (32 bytes, base64url). */
export function generateToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * Constant-time string comparison. Both sides are hashed first so the compare never leaks the
 * expected length and never throws on a length mismatch.
 */
export function safeEqual(actual: string, expected: string): boolean {
  const a = createHash('sha256').update(actual, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b) && actual.length === expected.length;
}

/** Extracts the token from an `Authorization: Bearer <token>` header value. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1];
}

/** sha256 of a token, hex: what the daemon stores instead of a shared token's secret. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * A token's public id: the first 12 hex digits of its sha256. It names the token in listings and
 * logs (also for tokens the daemon does not know) without revealing the secret.
 */
export function tokenId(token: string): string {
  return hashToken(token).slice(0, 12);
}

/** Constant-time compare of two sha256 hex digests (equal length by construction). */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
