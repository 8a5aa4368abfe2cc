/**
 * The operator's domain policy: which hosts the browser may load documents from. Patterns:
 * `example.com` (the host and its subdomains), `*.example.com` (subdomains only), `*` (any host),
 * `localhost:8080` (that port only); `*` inside a pattern matches any run of characters.
 */
export interface DomainPolicy {
  allow?: readonly string[] | undefined;
  deny?: readonly string[] | undefined;
}

export type DomainVerdict = { allowed: true } | { allowed: false; reason: string; host: string };

/** Schemes that carry no host of their own (the page's own content): never judged by host. */
const HOSTLESS = new Set(['about:', 'data:', 'blob:', 'javascript:']);
const NETWORK = new Set(['http:', 'https:', 'ws:', 'wss:']);

function patternRegex(pattern: string): RegExp {
  const trimmed = pattern.trim().toLowerCase();
  const [hostPart, port] = splitPort(trimmed);
  const body = hostPart
    .split('*')
    .map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  // a bare domain covers its subdomains, as users expect from "example.com"
  const host = hostPart.includes('*') ? body : `(?:.*\\.)?${body}`;
  return new RegExp(`^${host}${port === undefined ? '(?::\\d+)?' : `:${port}`}$`);
}

function splitPort(value: string): [string, string | undefined] {
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    const rest = value.slice(end + 1);
    return [value.slice(0, end + 1), rest.startsWith(':') ? rest.slice(1) : undefined];
  }
  const colon = value.lastIndexOf(':');
  return colon > 0 && /^\d+$/.test(value.slice(colon + 1))
    ? [value.slice(0, colon), value.slice(colon + 1)]
    : [value, undefined];
}

/** True when `host` (optionally `host:port`) matches one of `patterns`. */
export function hostMatches(patterns: readonly string[] | undefined, host: string, port = ''): boolean {
  if (!patterns?.length) return false;
  const subject = `${host.toLowerCase()}${port ? `:${port}` : ''}`;
  return patterns.some((pattern) => pattern.trim() === '*' || patternRegex(pattern).test(subject));
}

/** The host of a network URL (http, https, ws, wss), or undefined for any other URL. */
export function networkHost(url: string): { host: string; port: string } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  return NETWORK.has(parsed.protocol) ? { host: parsed.hostname, port: parsed.port } : undefined;
}

/**
 * Judges one URL: deny beats allow; with an allow list only listed hosts pass. Non-network URLs
 * (about:, data:, blob:) pass; other schemes (file:, chrome:) are judged by the URL policy, not here,
 * except that an allow list (only these hosts) refuses them too.
 */
export function checkDomain(policy: DomainPolicy | undefined, url: string): DomainVerdict {
  if (!policy || (!policy.allow?.length && !policy.deny?.length)) return { allowed: true };
  let scheme: string;
  try {
    scheme = new URL(url).protocol;
  } catch {
    return { allowed: true };
  }
  if (HOSTLESS.has(scheme)) return { allowed: true };
  const target = networkHost(url);
  if (!target) {
    return policy.allow?.length
      ? { allowed: false, host: scheme, reason: `${scheme} URLs are outside policy.domains.allow` }
      : { allowed: true };
  }
  const label = target.port ? `${target.host}:${target.port}` : target.host;
  if (hostMatches(policy.deny, target.host, target.port))
    return { allowed: false, host: label, reason: `${label} is on policy.domains.deny` };
  if (policy.allow?.length && !hostMatches(policy.allow, target.host, target.port)) {
    return { allowed: false, host: label, reason: `${label} is not on policy.domains.allow` };
  }
  return { allowed: true };
}
