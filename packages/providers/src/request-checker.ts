import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { type NetworkPolicy, addressRefusal, inOpenRange } from './address-guard.js';

/** Resolves a host name to its addresses (a test may answer for names it invents). */
export type HostResolver = (host: string) => Promise<readonly string[]>;

export interface RequestCheckerOptions {
  /** How long one host's lookup may take before its requests are refused (default 3 s). */
  lookupTimeoutMs?: number;
  /** Defaults to the policy's `resolve`, else the system resolver. */
  resolver?: HostResolver;
}

export interface RequestChecker {
  /** Why `url` may not be requested under the policy, or undefined when it may. */
  check(url: string): Promise<string | undefined>;
  /** Whether `url`'s host lies in a range the operator opened to agents (so it is no public site). */
  opened(url: string): Promise<boolean>;
}

/** Schemes that never leave the browser: nothing to dial, nothing to check. */
const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'about:']);
const NETWORK_SCHEMES = new Set(['http:', 'https:', 'ws:', 'wss:']);

const systemResolver: HostResolver = async (host) =>
  (await dnsLookup(host, { all: true })).map((answer) => answer.address);

/**
 * The address rules of a network policy for the many requests of one rendered page (images,
 * scripts, XHR, frames): the reason a URL may not be requested, or undefined. Each host is resolved
 * once per checker (a page asks for the same host dozens of times) and every lookup is bounded in
 * time, so a slow resolver cannot hold a render's requests. A host that does not resolve in time, or
 * at all, is refused: the browser would fail on it anyway and an unknown answer must not pass.
 */
export function createRequestChecker(policy: NetworkPolicy, options: RequestCheckerOptions = {}): RequestChecker {
  const resolver = options.resolver ?? policy.resolve ?? systemResolver;
  const timeoutMs = options.lookupTimeoutMs ?? 3_000;
  const answers = new Map<string, Promise<readonly string[] | string>>();
  const addressesOf = (host: string): Promise<readonly string[] | string> => {
    let answer = answers.get(host);
    if (!answer) {
      answer = resolveBounded(resolver, host, timeoutMs);
      answers.set(host, answer);
    }
    return answer;
  };

  const check = async (url: string): Promise<string | undefined> => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return `${url} is not a URL`;
    }
    if (LOCAL_SCHEMES.has(parsed.protocol)) return undefined;
    if (!NETWORK_SCHEMES.has(parsed.protocol)) return `${parsed.protocol} requests are not allowed`;
    const denied = policy.allowUrl?.(parsed.href);
    if (denied !== undefined) return denied;
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0) return addressRefusal(host, policy);
    // the operator's own calls may reach any unicast address: no lookup needed to know that
    if (policy.allowPrivate) return undefined;
    const addresses = await addressesOf(host.toLowerCase());
    if (typeof addresses === 'string') return addresses;
    for (const address of addresses) {
      const reason = addressRefusal(address, policy);
      if (reason !== undefined) return `${host} resolves to ${reason}`;
    }
    return addresses.length ? undefined : `${host} has no address`;
  };

  const opened = async (url: string): Promise<boolean> => {
    if (!policy.openRanges?.length) return false;
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0) return inOpenRange(host, policy.openRanges);
    const addresses = await addressesOf(host.toLowerCase());
    return typeof addresses !== 'string' && addresses.some((address) => inOpenRange(address, policy.openRanges));
  };

  return { check, opened };
}

/** The host's addresses, or why there are none (it did not resolve, or not in time). */
async function resolveBounded(
  resolver: HostResolver,
  host: string,
  timeoutMs: number,
): Promise<readonly string[] | string> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`${host} did not resolve within ${timeoutMs} ms`), timeoutMs);
  });
  try {
    return await Promise.race([resolver(host), timedOut]);
  } catch {
    return `${host} does not resolve`;
  } finally {
    clearTimeout(timer);
  }
}
