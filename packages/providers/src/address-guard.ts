import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { providerError } from './provider-error.js';

/**
 * Who is asking decides which addresses a provider may reach. Agents (MCP sessions, scoped tokens)
 * get the public internet only; the operator's own admin CLI may reach local servers, since developing
 * against localhost is the common case. The operator can open private networks to agents in config.
 */
export interface NetworkPolicy {
  /** loopback, private (RFC 1918, ULA), link-local, CGNAT and the like */
  allowPrivate: boolean;
  /** CIDR ranges opened on top (`10.1.0.0/16`, `127.0.0.2/32`): the operator's config for agents. */
  openRanges?: readonly string[];
  /**
   * The operator's domain policy, asked for every URL opened (the first and each redirect hop):
   * the reason a URL is refused, or undefined. Not part of the connection pool's key.
   */
  allowUrl?: (url: string) => string | undefined;
  /**
   * How the browser tier's checks resolve host names (the system resolver when absent). Set only by
   * an embedding program (the daemon's tests map invented public names); never from config or a caller.
   */
  resolve?: (host: string) => Promise<readonly string[]>;
}

export const AGENT_POLICY: NetworkPolicy = Object.freeze({ allowPrivate: false });
export const OPERATOR_POLICY: NetworkPolicy = Object.freeze({ allowPrivate: true });

/** Ranges never reachable, whoever asks: unspecified, broadcast, multicast, reserved. */
const NEVER = new Set(['unspecified', 'broadcast', 'multicast', 'reserved']);

/**
 * Why `address` may not be connected to under `policy`, or undefined when it may. IPv4-mapped IPv6
 * (`::ffff:127.0.0.1`) is judged by the IPv4 address it carries; the other IPv6 forms that embed an
 * IPv4 address (NAT64, 6to4, Teredo) are not plain unicast and so are closed to agents outright: a
 * private target cannot hide behind an IPv6 spelling.
 */
export function addressRefusal(address: string, policy: NetworkPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  const range = parsed.range();
  if (NEVER.has(range)) return `${address} is a ${range} address`;
  if (range === 'unicast') return undefined;
  if (inOpenRangeParsed(parsed, policy.openRanges)) return undefined;
  // The cloud metadata service answers on a link-local address; it is named so the refusal explains itself.
  const what = address.endsWith('169.254.169.254') ? 'the cloud metadata address' : `a ${range} address`;
  return policy.allowPrivate ? undefined : `${address} is ${what}, closed to agents`;
}

/** Whether `address` lies in one of the ranges the operator opened to agents. */
export function inOpenRange(
  address: ipaddr.IPv4 | ipaddr.IPv6 | string,
  ranges: readonly string[] | undefined,
): boolean {
  if (typeof address === 'string') {
    if (!ipaddr.isValid(address)) return false;
    let parsed = ipaddr.parse(address);
    if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
      parsed = (parsed as ipaddr.IPv6).toIPv4Address();
    return inOpenRangeParsed(parsed, ranges);
  }
  return inOpenRangeParsed(address, ranges);
}

function inOpenRangeParsed(address: ipaddr.IPv4 | ipaddr.IPv6, ranges: readonly string[] | undefined): boolean {
  for (const cidr of ranges ?? []) {
    const [network, bits] = ipaddr.parseCIDR(cidr);
    if (network.kind() === address.kind() && address.match([network, bits] as [typeof address, number])) return true;
  }
  return false;
}

/** Throws `invalid_input` for a range that is not CIDR, so a typo in config is caught when it is read. */
export function assertCidrList(ranges: readonly string[]): void {
  for (const cidr of ranges) {
    if (!ipaddr.isValidCIDR(cidr))
      throw providerError('invalid_input', `"${cidr}" is not a CIDR range (write it like 10.0.0.0/8 or fd00::/8).`, {
        details: { cidr },
      });
  }
}

function blocked(host: string, reason: string): Error {
  return providerError(
    'policy_blocked',
    `Refused to connect to ${host}: ${reason}. Agents may reach public addresses only; the operator can open private ranges with the config key providers.agentNetworks (a list of CIDRs).`,
    { details: { host, reason } },
  );
}

/** Throws `policy_blocked` when a URL's host is an IP literal the policy refuses (no DNS involved). */
export function assertLiteralHostAllowed(hostname: string, policy: NetworkPolicy): void {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare) === 0) return;
  const reason = addressRefusal(bare, policy);
  if (reason !== undefined) throw blocked(hostname, reason);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net/tls.connect that resolves the name and refuses if any answer is closed to the
 * policy. Checking at connect time (not before the request) means the address checked is the address
 * dialled: a rebinding DNS server cannot answer a public address to the check and a private one to
 * the connection. Every redirect hop connects anew (or reuses a connection made through this check).
 */
export function guardedLookup(policy: NetworkPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      for (const { address } of addresses) {
        const reason = addressRefusal(address, policy);
        if (reason !== undefined) return callback(blocked(hostname, reason) as NodeJS.ErrnoException, []);
      }
      if (options.all === true) return callback(null, addresses);
      const first = addresses[0];
      if (first === undefined)
        return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}
