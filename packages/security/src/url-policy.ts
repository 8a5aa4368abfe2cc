import { fileURLToPath } from 'node:url';
import { ArgusError } from '@argus/protocol/errors';
import { type PathPolicy, pathRefusal, resolveReal } from './paths.js';

/**
 * Which URLs an agent may send the browser to. http(s), about:blank and data: always; file: only
 * when the operator turned it on (ARGUS_ALLOW_FILE_URLS) and then only inside the same area as any
 * other file access; view-source: as its inner URL; every other scheme (javascript:, chrome:,
 * filesystem:, blob:, …) never.
 */
export interface UrlPolicy {
  allowFileUrls: boolean;
  files: PathPolicy;
}

const ALWAYS = new Set(['http:', 'https:', 'data:']);

function fileRefusal(url: URL, files: PathPolicy): string | undefined {
  if (url.host && url.host !== 'localhost') return `it names another machine (${url.host})`;
  let path: string;
  try {
    path = fileURLToPath(url);
  } catch {
    return 'it is not a valid local file URL';
  }
  return pathRefusal(resolveReal(path), files);
}

/** Why an agent may not navigate to `url`, or undefined when it may. */
export function urlRefusal(url: string, policy: UrlPolicy): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'it is not a URL';
  }
  if (ALWAYS.has(parsed.protocol)) return undefined;
  if (parsed.protocol === 'about:')
    return parsed.pathname === 'blank' ? undefined : 'only about:blank is allowed among about: pages';
  if (parsed.protocol === 'view-source:') return urlRefusal(url.slice('view-source:'.length), policy);
  if (parsed.protocol === 'file:') {
    if (!policy.allowFileUrls) return 'file: URLs are off';
    return fileRefusal(parsed, policy.files);
  }
  return `the ${parsed.protocol} scheme is not allowed (only http(s), about:blank and data:)`;
}

/** Throws `url_forbidden` (with what to do instead) unless `urlRefusal` allows the URL. */
export function assertUrlAllowed(url: string, policy: UrlPolicy): void {
  const refusal = urlRefusal(url, policy);
  if (refusal === undefined) return;
  const isFile = /^(view-source:)?file:/i.test(url);
  const next = isFile
    ? policy.allowFileUrls
      ? 'Use a file inside your project or the temp dir; an operator can add roots with ARGUS_ALLOWED_ROOTS.'
      : 'To render an HTML file of your project use `argus load-html <file>`; an operator can allow file: URLs with ARGUS_ALLOW_FILE_URLS=1 (still confined to the allowed area).'
    : 'Pass an http(s) URL.';
  throw new ArgusError(
    'url_forbidden',
    `Refused ${url.length > 200 ? `${url.slice(0, 200)}…` : url}: ${refusal}. ${next}`,
    { details: { url } },
  );
}

/**
 * Whether the browser may load a file: URL it was asked for by a page (a link, a frame, a script's
 * `location = …`): the same area as every other file access, whatever ARGUS_ALLOW_FILE_URLS says,
 * because such a page was itself opened from an allowed file.
 */
export function browserFileRefusal(url: string, files: PathPolicy): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'it is not a URL';
  }
  if (parsed.protocol !== 'file:') return undefined;
  return fileRefusal(parsed, files);
}
