import type { NetworkPolicy } from './address-guard.js';
import type { HttpClient } from './http-client.js';

const XML_TYPES = ['application/xml', 'text/xml', 'application/rss+xml', 'text/plain'];
import { fastXmlParser } from './lazy-deps.js';

let parser: InstanceType<ReturnType<typeof fastXmlParser>['XMLParser']> | undefined;

/**
 * The page URLs of a sitemap (a `<urlset>`), following a `<sitemapindex>` one level down, up to
 * `limit` URLs. Fetched through the guarded client like every page.
 */
export async function readSitemap(
  http: HttpClient,
  url: string,
  policy: NetworkPolicy,
  limit: number,
  depth = 0,
  signal?: AbortSignal,
): Promise<string[]> {
  const response = await http.get(url, {
    policy,
    accept: XML_TYPES,
    maxBytes: 10 * 1024 * 1024,
    ...(signal === undefined ? {} : { signal }),
  });
  if (response.status >= 400) return [];
  parser ??= new (fastXmlParser().XMLParser)({ ignoreAttributes: true, processEntities: true });
  const doc = parser.parse(response.body) as Record<string, unknown>;
  const urlset = doc['urlset'] as { url?: unknown } | undefined;
  if (urlset) return locs(urlset.url).slice(0, limit);
  const index = doc['sitemapindex'] as { sitemap?: unknown } | undefined;
  if (!index || depth > 0) return [];
  const found: string[] = [];
  for (const child of locs(index.sitemap)) {
    if (found.length >= limit) break;
    found.push(...(await readSitemap(http, child, policy, limit - found.length, depth + 1, signal).catch(() => [])));
  }
  return found;
}

function locs(entries: unknown): string[] {
  const list = Array.isArray(entries) ? entries : entries === undefined ? [] : [entries];
  return list
    .map((entry) => (entry as { loc?: unknown }).loc)
    .filter((loc): loc is string => typeof loc === 'string')
    .map((loc) => loc.trim());
}
