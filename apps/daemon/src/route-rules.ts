import { readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import type { RouteAction, RouteInfo, RouteRule } from '@argus/cdp';
import { ArgusError, type Handlers } from '@argus/protocol';
import { type PathPolicy, confinePath } from '@argus/security';
import picomatch from 'picomatch';

type RouteInput = Parameters<Handlers['route']['add']>[0];

/** A mocked body read from a file is capped: a route answers pages, it does not serve downloads. */
export const ROUTE_BODY_MAX = 20 * 1024 * 1024;

const TYPES: Readonly<Record<string, string>> = {
  '.json': 'application/json',
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.xml': 'application/xml',
};

/** Chrome's Network error reason behind each of Playwright's abort names. */
const REASONS = {
  failed: 'Failed',
  aborted: 'Aborted',
  timedout: 'TimedOut',
  accessdenied: 'AccessDenied',
  connectionclosed: 'ConnectionClosed',
  connectionreset: 'ConnectionReset',
  connectionrefused: 'ConnectionRefused',
  connectionaborted: 'ConnectionAborted',
  connectionfailed: 'ConnectionFailed',
  namenotresolved: 'NameNotResolved',
  internetdisconnected: 'InternetDisconnected',
  addressunreachable: 'AddressUnreachable',
  blockedbyclient: 'BlockedByClient',
  blockedbyresponse: 'BlockedByResponse',
} as const satisfies Record<RouteInput['reason'], string>;

/**
 * The matcher of a URL glob (picomatch on the whole URL: `**` crosses `/`, `*` does not) and
 * Chrome's own wildcard pattern for it, at least as wide, so only candidate requests are paused.
 * A pattern starting with `/` means the path on any origin.
 */
export function compileGlob(pattern: string): {
  glob: string;
  fetchPattern: string;
  matches: (url: string) => boolean;
} {
  const glob = pattern.startsWith('/') ? `**${pattern}` : pattern;
  let regex: RegExp;
  try {
    regex = picomatch.makeRe(glob, { dot: true });
  } catch (error) {
    throw new ArgusError('invalid_input', `"${pattern}" is not a valid URL glob (${(error as Error).message}).`);
  }
  // Chrome's wildcards: * (any run) and ? (one character), backslash escapes; braces and classes widen to *
  const fetchPattern = glob.replace(/\\/g, '\\\\').replace(/\{[^}]*\}|\[[^\]]*\]|\*+/g, '*');
  return { glob, fetchPattern, matches: (url) => regex.test(url) };
}

/** "Name: value" items; an item without a colon continues the one before (the CLI splits flags at commas). */
export function parseHeaders(items: readonly string[]): Array<{ name: string; value: string }> {
  const headers: Array<{ name: string; value: string }> = [];
  for (const item of items) {
    const colon = item.indexOf(':');
    const last = headers.at(-1);
    if (colon <= 0) {
      if (!last) throw new ArgusError('invalid_input', `Header "${item}" needs the form "Name: value".`);
      last.value = `${last.value},${item}`;
      continue;
    }
    const name = item.slice(0, colon).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new ArgusError('invalid_input', `"${name}" is not a valid header name. Use --header "Name: value".`);
    headers.push({ name, value: item.slice(colon + 1).trim() });
  }
  return headers;
}

/** Turns `argus route` input into a rule; reads a body file through the caller's path policy. */
export function buildRoute(id: string, input: RouteInput, paths: PathPolicy): RouteRule {
  const mocks = input.status !== undefined || input.body !== undefined || input.jsonBody !== undefined;
  const shapes = input.header !== undefined || input.contentType !== undefined;
  if (input.abort && (mocks || shapes))
    throw new ArgusError(
      'invalid_input',
      'A route either answers (--status/--body/--json-body) or fails (--abort), not both.',
    );
  if (input.body !== undefined && input.jsonBody !== undefined)
    throw new ArgusError('invalid_input', 'Give the answer as --body <file> or --json-body <text>, not both.');
  if (!input.abort && !mocks && !shapes && input.delay === undefined)
    throw new ArgusError(
      'invalid_input',
      'Say what the route does: --status/--body/--json-body to answer, --abort to fail, or --delay <ms> to hold requests.',
    );
  const { glob, fetchPattern, matches } = compileGlob(input.pattern);
  const action: RouteAction = {};
  if (input.delay !== undefined) action.delayMs = input.delay;
  if (input.abort) action.abort = REASONS[input.reason];
  else if (mocks || shapes) action.fulfill = fulfilment(input, paths);
  return { id, pattern: glob, fetchPattern, matches, action };
}

function fulfilment(input: RouteInput, paths: PathPolicy): NonNullable<RouteAction['fulfill']> {
  let body = Buffer.alloc(0);
  let type = input.contentType;
  if (input.jsonBody !== undefined) {
    try {
      JSON.parse(input.jsonBody);
    } catch (error) {
      throw new ArgusError('invalid_input', `--json-body is not valid JSON: ${(error as Error).message}`);
    }
    body = Buffer.from(input.jsonBody);
    type ??= 'application/json';
  } else if (input.body !== undefined) {
    const path = confinePath(input.body, paths);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat?.isFile()) throw new ArgusError('invalid_input', `${input.body} is not a file (resolved to ${path}).`);
    if (stat.size > ROUTE_BODY_MAX)
      throw new ArgusError(
        'invalid_input',
        `${input.body} is ${stat.size} bytes; a route body may be at most ${ROUTE_BODY_MAX} bytes.`,
      );
    body = readFileSync(path);
    type ??= TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
  }
  const headers = parseHeaders(input.header ?? []);
  if (type && !headers.some((header) => header.name.toLowerCase() === 'content-type'))
    headers.push({ name: 'Content-Type', value: type });
  return { status: input.status ?? 200, headers, body: body.toString('base64') };
}

/** The action in words, for lists. */
export function describeAction(action: RouteAction): string {
  const parts: string[] = [];
  if (action.delayMs) parts.push(`delay ${action.delayMs} ms`);
  if (action.abort) parts.push(`abort (${action.abort})`);
  else if (action.fulfill) {
    const type = action.fulfill.headers.find((header) => header.name.toLowerCase() === 'content-type')?.value;
    const size = Buffer.byteLength(action.fulfill.body, 'base64');
    parts.push(`fulfil ${action.fulfill.status}${type ? ` ${type}` : ''}, ${size} bytes`);
  } else parts.push('then continue');
  return parts.join(', ');
}

export function entryOf(
  route: RouteInfo,
  tab: string | null,
): {
  id: string;
  pattern: string;
  scope: 'tab' | 'all-tabs';
  tab: string | null;
  action: string;
  hits: number;
} {
  return {
    id: route.id,
    pattern: route.pattern,
    scope: tab === null ? 'all-tabs' : 'tab',
    tab,
    action: describeAction(route.action),
    hits: route.hits,
  };
}
