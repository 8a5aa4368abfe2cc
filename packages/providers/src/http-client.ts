import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { ArgusError, isArgusError } from '@argus/protocol/errors';
import { maskUrl } from '@argus/security';
import type { Agent } from 'undici';
import { assertLiteralHostAllowed, guardedLookup, type NetworkPolicy } from './address-guard.js';
import { parseRetryAfter, providerError } from './provider-error.js';
import { undici } from './lazy-deps.js';

export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 5;
export const HTML_TYPES = ['text/html', 'application/xhtml+xml', 'text/plain', 'text/markdown'] as const;
const USER_AGENT = 'Mozilla/5.0 (compatible; Argus/0.1; +https://github.com/argus) like Gecko';

export interface HttpGetOptions {
  policy: NetworkPolicy;
  /** Refused past this many (decoded) bytes, counted while streaming. */
  maxBytes?: number;
  maxRedirects?: number;
  /** Media types read; anything else is refused before its body is read. */
  accept?: readonly string[];
  timeoutMs?: number;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface HttpResponse {
  url: string;
  finalUrl: string;
  status: number;
  contentType: string;
  headers: Record<string, string>;
  body: string;
  bytes: number;
  redirects: string[];
  timings: { headersMs: number; totalMs: number };
}

/**
 * Guarded GET: http(s) only, the SSRF guard on every hop (IP literals before the request, resolved
 * names inside the connection's own DNS lookup), redirects followed by hand up to a limit, a media-type
 * allow-list checked on the headers, and a size cap enforced while the (decompressed) body streams.
 * Statuses are returned, not thrown: `assertOk` maps them to typed errors.
 */
export class HttpClient {
  /** One connection pool per policy: a connection made under one policy is never reused under another. */
  private readonly agents = new Map<string, Agent>();

  private agentFor(policy: NetworkPolicy): Agent {
    const key = JSON.stringify([policy.allowPrivate, policy.openRanges ?? []]);
    let agent = this.agents.get(key);
    if (!agent) {
      agent = new (undici().Agent)({ connect: { lookup: guardedLookup(policy) }, connections: 16 });
      this.agents.set(key, agent);
    }
    return agent;
  }

  async get(url: string, options: HttpGetOptions): Promise<HttpResponse> {
    const started = performance.now();
    const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    const timeout = AbortSignal.timeout(options.timeoutMs ?? 15_000);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const redirects: string[] = [];
    let current = checkUrl(url, options.policy);
    for (;;) {
      const response = await this.hop(current, options, signal).catch((error: unknown) => {
        throw mapTransportError(error, maskUrl(current.href), timeout.aborted);
      });
      const headersMs = performance.now() - started;
      const location = response.headers['location'];
      if (response.statusCode >= 300 && response.statusCode < 400 && location !== undefined) {
        await response.body.dump().catch(() => undefined);
        if (redirects.length >= maxRedirects)
          throw providerError('upstream', `Too many redirects (more than ${maxRedirects}) from ${maskUrl(url)}.`, {
            retryable: false,
            details: { url: maskUrl(url), redirects: redirects.map(maskUrl) },
          });
        const next = new URL(String(location), current);
        redirects.push(next.href);
        current = checkUrl(next.href, options.policy);
        continue;
      }
      const contentType = String(response.headers['content-type'] ?? '');
      const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
      const accept = options.accept ?? HTML_TYPES;
      const headers = flatHeaders(response.headers);
      if (response.statusCode < 300 && !accept.includes(mediaType)) {
        discard(response.body);
        throw providerError(
          'policy_blocked',
          `${maskUrl(current.href)} is ${mediaType || 'of no declared type'}, which this provider does not read (it reads ${accept.join(', ')}).`,
          { details: { url: maskUrl(current.href), contentType } },
        );
      }
      const raw = await readCapped(
        response.body,
        headers['content-encoding'],
        options.maxBytes ?? DEFAULT_MAX_BYTES,
        maskUrl(current.href),
      ).catch((error: unknown) => {
        throw mapTransportError(error, maskUrl(current.href), timeout.aborted);
      });
      return {
        url,
        finalUrl: current.href,
        status: response.statusCode,
        contentType,
        headers,
        body: decodeBody(raw, contentType),
        bytes: raw.length,
        redirects,
        timings: { headersMs: Math.round(headersMs), totalMs: Math.round(performance.now() - started) },
      };
    }
  }

  private hop(url: URL, options: HttpGetOptions, signal: AbortSignal) {
    return undici().request(url, {
      method: 'GET',
      dispatcher: this.agentFor(options.policy),
      signal,
      headers: {
        'user-agent': USER_AGENT,
        accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8',
        'accept-encoding': 'gzip, deflate, br',
        ...options.headers,
      },
    });
  }

  /**
   * Ends every connection now, failing the requests in flight: `Agent.close()` waits for them, so a
   * server that never answers held the daemon's stop for the whole of the caller's timeout.
   */
  async close(): Promise<void> {
    await Promise.all([...this.agents.values()].map((agent) => agent.destroy()));
    this.agents.clear();
  }
}

function checkUrl(url: string, policy: NetworkPolicy): URL {
  const shown = maskUrl(url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw providerError('invalid_input', `${shown} is not a URL. Pass an absolute http(s) URL.`, {
      details: { url: shown },
    });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw providerError('policy_blocked', `${parsed.protocol} URLs are not fetched: only http(s).`, {
      details: { url: shown },
    });
  assertLiteralHostAllowed(parsed.hostname, policy);
  assertUrlAllowed(parsed.href, policy);
  return parsed;
}

/** The operator's domain policy on one URL (a first request or a redirect hop): policy_denied. */
export function assertUrlAllowed(url: string, policy: NetworkPolicy): void {
  const reason = policy.allowUrl?.(url);
  if (reason === undefined) return;
  const shown = maskUrl(url);
  throw new ArgusError(
    'policy_denied',
    `${shown} is refused by the operator's policy: ${reason}. Pick another site, or ask the operator to change policy.domains.`,
    { details: { url: shown, reason, retryable: false } },
  );
}

/** Maps an HTTP status to a typed error (with `retryable`), or returns for a success. */
export function assertOk(response: HttpResponse): void {
  const { status } = response;
  if (status < 400) return;
  // the URL as printed: a password or token in it never reaches a message (or the journal, the log)
  const url = maskUrl(response.finalUrl);
  const details = { url, status };
  if (status === 404 || status === 410)
    throw providerError('not_found', `${url} answered ${status}: the page is gone. Search for a current URL.`, {
      details,
    });
  if (status === 401 || status === 403)
    throw providerError(
      'auth',
      `${url} answered ${status}: it needs credentials or refuses this client. Try --browser, or a URL that is public.`,
      { details },
    );
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
    throw providerError(
      'rate_limited',
      `${url} answered 429 (rate limited). Wait${retryAfterMs === undefined ? '' : ` ${Math.ceil(retryAfterMs / 1000)} s`} and retry with less concurrency.`,
      {
        details: retryAfterMs === undefined ? details : { ...details, retryAfterMs },
      },
    );
  }
  if (status === 408)
    throw providerError('timeout', `${url} answered 408 (request timeout). Retry later.`, { details });
  const retryable = status >= 500 && status !== 501 && status !== 505;
  const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
  const retryHint =
    retryAfterMs === undefined ? ' Retry later.' : ` Retry in ${Math.ceil(retryAfterMs / 1000)} s (its Retry-After).`;
  throw providerError('upstream', `${url} answered ${status}.${retryable ? retryHint : ''}`, {
    retryable,
    details: retryAfterMs === undefined ? details : { ...details, retryAfterMs },
  });
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

async function readCapped(
  body: Readable,
  encoding: string | undefined,
  maxBytes: number,
  url: string,
): Promise<Buffer> {
  const coding = encoding?.trim().toLowerCase();
  const decoder =
    coding === 'gzip' || coding === 'x-gzip'
      ? createGunzip()
      : coding === 'deflate'
        ? createInflate()
        : coding === 'br'
          ? createBrotliDecompress()
          : undefined;
  const stream: Readable = decoder ? body.pipe(decoder) : body;
  if (decoder) body.once('error', (error) => decoder.destroy(error));
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      total += buffer.length;
      if (total > maxBytes)
        throw providerError(
          'too_large',
          `${url} is larger than ${maxBytes} bytes; refused while reading. Raise --max-bytes or fetch a smaller page.`,
          {
            details: { url, maxBytes },
          },
        );
      chunks.push(buffer);
    }
  } finally {
    discard(body);
    if (decoder) discard(decoder);
  }
  return Buffer.concat(chunks, total);
}

/** Drops a body not (fully) read; undici reports the abort as an error event nobody needs. */
function discard(stream: Readable | NodeJS.ReadWriteStream): void {
  stream.on('error', () => undefined);
  if ('destroy' in stream && typeof stream.destroy === 'function') stream.destroy();
}

/** The charset from the header, else a `<meta charset>` in the first KiB, else UTF-8. */
function decodeBody(raw: Buffer, contentType: string): string {
  const fromHeader = /charset=["']?([\w-]+)/i.exec(contentType)?.[1];
  const fromMeta = fromHeader
    ? undefined
    : /<meta[^>]+charset=["']?([\w-]+)/i.exec(raw.subarray(0, 1024).toString('latin1'))?.[1];
  const label = fromHeader ?? fromMeta ?? 'utf-8';
  try {
    return new TextDecoder(label).decode(raw);
  } catch {
    return new TextDecoder('utf-8').decode(raw);
  }
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

function mapTransportError(error: unknown, url: string, timedOut: boolean): Error {
  if (isArgusError(error)) return error;
  const cause = error instanceof Error ? error.cause : undefined;
  if (isArgusError(cause)) return cause;
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  const message = error instanceof Error ? error.message : String(error);
  if (timedOut || TIMEOUT_CODES.has(code))
    return providerError('timeout', `${url} did not answer in time. Retry later or raise the timeout.`, {
      details: { url },
      cause: error,
    });
  if (code === 'ENOTFOUND')
    return providerError('network', `${url}: the host name does not resolve. Check the URL.`, {
      retryable: false,
      details: { url, errno: code },
      cause: error,
    });
  if (NETWORK_CODES.has(code) || error instanceof Error)
    return providerError('network', `${url}: ${message || code}. Check the URL or retry later.`, {
      details: { url, errno: code },
      cause: error,
    });
  return providerError('network', `${url}: ${String(error)}`, { details: { url }, cause: error });
}
