/** Origin and peer-address policy shared by the daemon and the relay. */

/** `chrome-extension://<32 letters a-p>`: the only browser origin allowed to reach the relay. */
export function isExtensionOrigin(origin: string | undefined): origin is string {
  return typeof origin === 'string' && /^chrome-extension:\/\/[a-p]{32}$/.test(origin);
}

/**
 * Non-browser callers (CLI, daemon, tests) send no Origin. A browser page always does, so any
 * other explicit Origin is a web page trying to reach a loopback service: refuse it.
 */
export function isAllowedClientOrigin(origin: string | undefined): boolean {
  return origin === undefined || isExtensionOrigin(origin);
}

/** Whether a socket's remote address is the loopback interface (IPv4, IPv6 or v4-mapped). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  if (address === '::1') return true;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}
