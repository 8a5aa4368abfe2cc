import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isArgusError } from '@argus/protocol/errors';
import { maskUrl } from '@argus/security';
import { addressRefusal, assertLiteralHostAllowed, type NetworkPolicy } from './address-guard.js';
import { extractContent, SelectorMissError, SelectorSyntaxError, type ExtractedContent } from './extract.js';
import { assertOk, assertUrlAllowed, HTML_TYPES, type HttpClient, type HttpResponse } from './http-client.js';
import { providerError } from './provider-error.js';
import type { Resilience } from './resilience.js';
import type { FallbackReason } from './shell-detect.js';

/** The daemon's Chromium, as far as providers need it: render a URL and hand back the DOM. */
export interface BrowserTier {
  /** `policy` is the caller's: the tier applies its address rules to every document request it makes. */
  render(
    url: string,
    options: { policy: NetworkPolicy; signal?: AbortSignal; timeoutMs?: number },
  ): Promise<RenderedPage>;
}

export interface RenderedPage {
  finalUrl: string;
  status: number | null;
  html: string;
  /** Requests of the rendered page the caller's policy failed before they left the browser. */
  blockedRequests?: BlockedRequest[];
}

/** A request a rendered page made that the address policy failed (its URL, Chrome's resource type, why). */
export interface BlockedRequest {
  url: string;
  type: string;
  reason: string;
}

export type FetchTier = 'auto' | 'http' | 'browser';

export interface FetchPageOptions {
  policy: NetworkPolicy;
  tier?: FetchTier;
  selector?: string;
  maxBytes?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface FetchedPage extends Omit<ExtractedContent, 'shell' | 'html'> {
  url: string;
  finalUrl: string;
  status: number | null;
  html: string;
  tier: 'http' | 'browser';
  /** Why `auto` went on to the browser: the HTTP page was empty, a JS shell, a bot challenge, or an error. */
  fallbackReason: FallbackReason | 'http-error' | null;
  contentType: string | null;
  /** Browser tier: requests of the page the caller's policy refused (the first 50); always empty over HTTP. */
  blockedRequests: BlockedRequest[];
  timings: { httpMs: number | null; renderMs: number | null; extractMs: number; totalMs: number };
}

/** An HTTP status the browser may get past (a bot wall answers 403/503 to clients without JS). */
const BROWSER_MAY_HELP = new Set(['auth', 'upstream', 'rate_limited']);

/**
 * One page's main content. `http` reads it with the guarded client; `browser` renders it in the
 * daemon's Chromium; `auto` (default) reads over HTTP and renders only when that answer is empty, a
 * script-built shell or a challenge, saying so in `fallbackReason`. Both tiers run the same extraction.
 */
export class PageFetcher {
  constructor(
    private readonly http: HttpClient,
    private readonly resilience: Resilience,
    private readonly browser: BrowserTier | undefined,
  ) {}

  async fetch(url: string, options: FetchPageOptions): Promise<FetchedPage> {
    const started = performance.now();
    const tier = options.tier ?? 'auto';
    const deadlineAt = options.timeoutMs === undefined ? undefined : started + options.timeoutMs;
    if (tier === 'browser') return this.viaBrowser(url, options, started, null, null);
    let response: HttpResponse;
    try {
      // --timeout-ms bounds the whole fetch (every attempt and wait), not each attempt
      response = await this.resilience.run(hostKey(url), (signal) => this.httpGet(url, options, signal, deadlineAt), {
        provider: 'fetch',
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
    } catch (error) {
      if (tier === 'auto' && this.browser && isArgusError(error) && BROWSER_MAY_HELP.has(error.code))
        return this.viaBrowser(url, options, started, 'http-error', null);
      throw error;
    }
    const extractStarted = performance.now();
    // extracted against the masked URL: links and markdown resolved from it carry no password either
    const content = extract(response.body, maskUrl(response.finalUrl), options.selector);
    const extractMs = performance.now() - extractStarted;
    const shell = content.shell ?? (response.status >= 400 ? 'challenge' : undefined);
    if (tier === 'auto' && shell !== undefined && this.browser)
      return this.viaBrowser(url, options, started, shell, response.timings.totalMs);
    if (response.status >= 400) assertOk(response);
    return {
      ...page(content),
      url: maskUrl(url),
      finalUrl: maskUrl(response.finalUrl),
      status: response.status,
      tier: 'http',
      fallbackReason: null,
      contentType: response.contentType,
      blockedRequests: [],
      timings: {
        httpMs: response.timings.totalMs,
        renderMs: null,
        extractMs: ms(extractMs),
        totalMs: ms(performance.now() - started),
      },
    };
  }

  /** A challenge page is returned (not thrown) so `auto` can hand it to the browser. */
  private async httpGet(
    url: string,
    options: FetchPageOptions,
    signal: AbortSignal,
    deadlineAt: number | undefined,
  ): Promise<HttpResponse> {
    const response = await this.http.get(url, {
      policy: options.policy,
      accept: HTML_TYPES,
      signal,
      ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
      ...(deadlineAt === undefined ? {} : { timeoutMs: Math.max(1, Math.round(deadlineAt - performance.now())) }),
    });
    if (response.status >= 400 && !looksLikeChallenge(response)) assertOk(response);
    return response;
  }

  private async viaBrowser(
    url: string,
    options: FetchPageOptions,
    started: number,
    fallbackReason: FetchedPage['fallbackReason'],
    httpMs: number | null,
  ): Promise<FetchedPage> {
    if (!this.browser)
      throw providerError('invalid_input', 'No browser tier here: fetch with --http, or through the daemon.', {
        retryable: false,
      });
    await assertHostAllowed(url, options.policy);
    const renderStarted = performance.now();
    const rendered = await this.browser.render(url, {
      policy: options.policy,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      // what is left of the command's --timeout-ms after the HTTP attempt
      ...(options.timeoutMs === undefined
        ? {}
        : { timeoutMs: Math.max(1, Math.round(started + options.timeoutMs - performance.now())) }),
    });
    const renderMs = performance.now() - renderStarted;
    // an error status is an error in the browser too: an auto fallback that still got a 500, a 429
    // or a wall's 403 has no content to give (its text is the error page), so it is typed as over HTTP
    if (rendered.status !== null && rendered.status >= 400) assertOk(renderedResponse(url, rendered));
    const extractStarted = performance.now();
    const content = extract(rendered.html, maskUrl(rendered.finalUrl), options.selector);
    return {
      ...page(content),
      url: maskUrl(url),
      finalUrl: maskUrl(rendered.finalUrl),
      status: rendered.status,
      tier: 'browser',
      fallbackReason,
      contentType: null,
      blockedRequests: rendered.blockedRequests ?? [],
      timings: {
        httpMs,
        renderMs: ms(renderMs),
        extractMs: ms(performance.now() - extractStarted),
        totalMs: ms(performance.now() - started),
      },
    };
  }
}

/** The per-host key for limits and breakers: scheme-less host with port. */
export function hostKey(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return url;
  }
}

/**
 * The browser dials for itself, so the guard resolves the name first (the same address rules as the
 * HTTP tier). Redirects inside the browser are the tier's to check (`BrowserTier.render` gets the
 * policy; the daemon's tier guards every document request of its render tab).
 */
export async function assertHostAllowed(url: string, policy: NetworkPolicy): Promise<void> {
  const parsed = new URL(url);
  const shown = maskUrl(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw providerError('policy_blocked', `${parsed.protocol} URLs are not fetched: only http(s).`, {
      details: { url: shown },
    });
  assertLiteralHostAllowed(parsed.hostname, policy);
  assertUrlAllowed(parsed.href, policy);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return;
  const resolve = policy.resolve ?? (async (name: string) => (await lookup(name, { all: true })).map((a) => a.address));
  const addresses = await resolve(host).catch((error: unknown) => {
    throw providerError('network', `${host} does not resolve. Check the URL.`, {
      retryable: false,
      details: { url: shown },
      cause: error,
    });
  });
  for (const address of addresses) {
    const reason = addressRefusal(address, policy);
    if (reason !== undefined)
      throw providerError('policy_blocked', `Refused to open ${host}: ${reason}.`, {
        details: { url: shown, host, reason },
      });
  }
}

/** The rendered answer in the shape `assertOk` reads (the browser reports no headers here). */
function renderedResponse(url: string, rendered: RenderedPage): HttpResponse {
  return {
    url,
    finalUrl: rendered.finalUrl,
    status: rendered.status ?? 0,
    contentType: '',
    headers: {},
    body: '',
    bytes: 0,
    redirects: [],
    timings: { headersMs: 0, totalMs: 0 },
  };
}

function looksLikeChallenge(response: HttpResponse): boolean {
  return (
    (response.status === 403 || response.status === 503 || response.status === 429) &&
    /<html/i.test(response.body) &&
    extractContent(response.body, response.finalUrl).shell === 'challenge'
  );
}

function extract(html: string, url: string, selector: string | undefined): ExtractedContent {
  try {
    return extractContent(html, url, selector === undefined ? {} : { selector });
  } catch (error) {
    if (error instanceof SelectorMissError)
      throw providerError(
        'not_found',
        `No element matches ${error.selector} on ${maskUrl(url)}. Fetch without --selector to see the page.`,
        {
          details: { url: maskUrl(url), selector: error.selector },
        },
      );
    if (error instanceof SelectorSyntaxError)
      throw providerError(
        'invalid_input',
        `--selector ${JSON.stringify(error.selector)} is not a valid CSS selector (${error.reason}). Pass one such as "article" or "#main".`,
        { retryable: false, details: { selector: error.selector } },
      );
    throw error;
  }
}

function page(content: ExtractedContent): Omit<ExtractedContent, 'shell'> {
  const { shell: _shell, ...rest } = content;
  return rest;
}

function ms(value: number): number {
  return Math.round(value * 10) / 10;
}
