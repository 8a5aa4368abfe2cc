/**
 * Host-header and host-name checks. A DNS-rebinding page resolves its own name to 127.0.0.1 and
 * then talks to a loopback port with `Host: evil.example`; a loopback service that answers only to
 * its loopback names (with its own port) never serves such a request.
 */

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Whether `Host` is a loopback name with exactly `port` (`127.0.0.1:4321`, `localhost:4321`,
 * `[::1]:4321`), or with any port or none for `'any'`. One check for the daemon, relay and tunnel.
 */
export function isLoopbackHostHeader(host: string | undefined, port: number | 'any'): boolean {
  if (!host) return false;
  // 'any': a listener reached through a forward (an SSH tunnel's far end has its own port, or none)
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host.trim().toLowerCase());
  if (!match) return false;
  const [, name = '', portText] = match;
  if (!LOOPBACK_NAMES.has(name)) return false;
  return port === 'any' || (portText !== undefined && Number(portText) === port);
}

/**
 * Whether a URL host name (as `new URL(...).hostname` gives it) is the local machine: `localhost`
 * (and `*.localhost`), 127.0.0.0/8, `::1`. Anything else is a remote host.
 */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (name === '::1' || name === '0:0:0:0:0:0:0:1') return true;
  const v4 = name.startsWith('::ffff:') ? name.slice('::ffff:'.length) : name;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}
