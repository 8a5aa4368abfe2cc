/**
 * URLs as users type them. The one normalising function: every URL field of the contract (CLI, MCP,
 * typed client) runs through it, so `localhost:8123/x` means the same thing everywhere.
 *
 * What may be *visited* (file:, view-source:, …) is a separate decision made by the daemon with
 * `@argus/security`'s URL policy; this module only turns text into an absolute URL.
 */

/**
 * Schemes recognised without `//`. Anything else followed by `:` but not `//` is a host with a port
 * (`localhost:8123`, `example.com:8080/x`), not a scheme.
 */
const OPAQUE_SCHEMES = new Set([
  'about',
  'data',
  'javascript',
  'view-source',
  'blob',
  'filesystem',
  'mailto',
  'file',
  'chrome',
  'chrome-extension',
  'chrome-untrusted',
  'devtools',
  'edge',
  'tel',
]);

/** Loopback host names that mean plain http:// when typed bare (they rarely have certificates). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export type UrlParse = { ok: true; url: string; bare: boolean } | { ok: false; message: string };

/**
 * Parses what a user typed into an absolute URL. A bare host (no scheme) gets `http://` when it is
 * loopback (`localhost`, `*.localhost`, `127.x.x.x`, `[::1]`, with or without a port) and
 * `https://` otherwise; `bare` says a scheme was added (an SSL error then suggests http://).
 */
export function normaliseUrl(input: string): UrlParse {
  const trimmed = input.trim();
  if (!trimmed)
    return { ok: false, message: 'The URL is empty. Pass one such as https://example.com or localhost:3000' };
  const scheme = /^([a-z][a-z0-9+.-]*):(\/\/)?/i.exec(trimmed);
  const hasScheme = scheme !== null && (scheme[2] !== undefined || OPAQUE_SCHEMES.has(scheme[1]!.toLowerCase()));
  let candidate = trimmed;
  const garbled = hasScheme ? undefined : garbledScheme(trimmed);
  if (garbled) return { ok: false, message: garbled };
  if (!hasScheme) {
    let host: string;
    try {
      host = new URL(`http://${trimmed}`).hostname;
    } catch {
      return {
        ok: false,
        message: `"${input}" is not a URL. Pass an absolute URL such as https://example.com, or a host such as localhost:3000`,
      };
    }
    const shorthand = numericHost(trimmed, host);
    if (shorthand) return { ok: false, message: shorthand };
    candidate = `${isLoopbackHost(host) ? 'http' : 'https'}://${trimmed}`;
  }
  let parsed: URL;
  try {
    parsed = new URL(candidate);
  } catch {
    return {
      ok: false,
      message: `"${input}" is not a URL. Pass an absolute URL such as https://example.com, or a host such as localhost:3000`,
    };
  }
  if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && !parsed.hostname) {
    return { ok: false, message: `"${input}" has no host. Pass one such as https://example.com` };
  }
  return { ok: true, url: parsed.href, bare: !hasScheme };
}

/** Text before `://` that cannot be a scheme (`ht!tp://x`, `1http://x`, `my site://x`). */
const BAD_SCHEME = /^([^/?#]+):\/\//;
/** A web scheme missing its colon or a slash (`http//x`, `https:/x`, `http:x`); not `http:8080`, a host and port. */
const BROKEN_WEB_SCHEME = /^(https?|wss?|ftp)(?::\/?(?![/\d])|\/\/)/i;

/**
 * The refusal for text whose start was meant as a scheme but is none (it would otherwise read as a
 * host: `ht!tp://bad` became `https://ht!tp//bad`), with the URL it most likely meant. Undefined
 * for anything else: a bare host (`example.com`, `localhost:3000`) is left to the normal rules.
 */
function garbledScheme(text: string): string | undefined {
  const bad = BAD_SCHEME.exec(text);
  const broken = bad ? undefined : BROKEN_WEB_SCHEME.exec(text);
  const prefix = bad ? `${bad[1]}://` : broken?.[0];
  if (!prefix) return undefined;
  const rest = text.slice(prefix.length);
  const letters = prefix.replace(/[^a-z]/gi, '').toLowerCase();
  const scheme = letters === 'http' || letters === 'https' ? letters : 'https';
  const meant = rest ? ` Did you mean ${scheme}://${rest}?` : '';
  return `"${text}" does not start with a valid scheme ("${prefix}").${meant} Pass an absolute URL such as https://example.com, or a host such as localhost:3000`;
}

/** The host part of a bare URL as typed (before any port, path, query or fragment). */
const TYPED_HOST = /^([^/?#:]*)/;
/** A typed IPv4 address in full: four decimal parts. */
const DOTTED_QUAD = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * The refusal for a bare host that is a number in some other form than a full dotted quad (`12345`,
 * `127.1`, `0x7f.1`, `3000`): the URL standard reads each as an IPv4 address (`12345` is 0.0.48.57),
 * so a port typed without its host (`goto 3000`) navigated to an address nobody meant. Undefined for
 * anything else. An explicit scheme (`http://127.1`) keeps the standard's reading.
 */
function numericHost(typed: string, host: string): string | undefined {
  const written = TYPED_HOST.exec(typed)?.[1] ?? '';
  if (!/^\d+(\.\d+){0,3}$|^0x/i.test(written) || DOTTED_QUAD.test(written) || !DOTTED_QUAD.test(host)) return undefined;
  const port = /^\d{1,5}$/.test(written) && Number(written) > 0 && Number(written) < 65536;
  const meant = port
    ? `localhost:${written}${typed.slice(written.length)}`
    : `http://${host}${typed.slice(written.length)}`;
  return `"${typed}" is not a host: the URL standard would read "${written}" as the address ${host}. Did you mean ${meant}? Pass an absolute URL such as https://example.com, or a host such as localhost:3000`;
}
