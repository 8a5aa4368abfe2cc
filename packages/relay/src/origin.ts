/** Origin policy for the relay's endpoints. */

export function isExtensionOrigin(origin: string | undefined): origin is string {
  return typeof origin === 'string' && /^chrome-extension:\/\/[a-p]{32}$/.test(origin);
}

/**
 * Non-extension callers (CLI, daemon, tests) send no Origin. A browser page always does, so any
 * other explicit Origin is a web page trying to reach a loopback service: refuse it.
 */
export function isAllowedClientOrigin(origin: string | undefined): boolean {
  return origin === undefined || isExtensionOrigin(origin);
}

export function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}
