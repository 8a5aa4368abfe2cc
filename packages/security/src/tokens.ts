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

/** Extracts the token from an `Authorization: Bearer <token>` header value (scheme case-insensitive). */
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

/**
 * WebSocket clients that cannot set headers (a browser-style `WebSocket(url, protocols)`, tRPC's
 * wsLink) carry the token as a subprotocol: `Sec-WebSocket-Protocol: argus, argus.bearer.<token>`.
 * The server answers with the plain `argus` protocol, so the token is never echoed back.
 * Tokens are base64url, which is valid in a subprotocol name.
 */
export const WS_PROTOCOL = 'argus';
const WS_BEARER_PREFIX = 'argus.bearer.';

/** The subprotocol list a WebSocket client offers to authenticate with `token`. */
export function wsAuthProtocols(token: string): string[] {
  return [WS_PROTOCOL, `${WS_BEARER_PREFIX}${token}`];
}

/** The token carried in a `Sec-WebSocket-Protocol` header value, if any. */
export function bearerFromProtocols(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(',')) {
    const value = part.trim();
    if (value.startsWith(WS_BEARER_PREFIX) && value.length > WS_BEARER_PREFIX.length)
      return value.slice(WS_BEARER_PREFIX.length);
  }
  return undefined;
}

/**
 * The token a request presents: `Authorization: Bearer` first, then the WebSocket subprotocol.
 * Never the URL query: a token in a URL lands in logs, history and Referer headers.
 */
export function requestToken(headers: {
  authorization?: string | undefined;
  'sec-websocket-protocol'?: string | undefined;
}): string | undefined {
  return bearerToken(headers.authorization) ?? bearerFromProtocols(headers['sec-websocket-protocol']);
}

/** Looks a presented token up in a registry, comparing every entry in constant time. */
export function lookupToken<T>(token: string | undefined, registry: ReadonlyMap<string, T>): T | undefined {
  if (!token) return undefined;
  let found: T | undefined;
  // no early exit: the time taken does not depend on which entry matched
  for (const [known, grant] of registry) if (safeEqual(token, known) && found === undefined) found = grant;
  return found;
}
