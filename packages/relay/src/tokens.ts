import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * Timing-safe comparison that is also length-safe: both sides are hashed first, so neither the
 * comparison time nor an early length mismatch reveals anything about the secret.
 */
export function safeEqual(provided: string, expected: string): boolean {
  const a = createHash('sha256').update(provided, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b) && provided.length === expected.length;
}

/** Stored form of a pairing token: we keep only hashes on disk. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Reads `Authorization: Bearer <token>` (or `?token=` for WebSocket clients that cannot set headers). */
export function bearerFrom(authorization: string | undefined, url: URL): string | undefined {
  if (authorization?.startsWith('Bearer ')) return authorization.slice('Bearer '.length).trim();
  return url.searchParams.get('token') ?? undefined;
}
