/** Query parameters that only track where a click came from; they never change the page. */
const TRACKING = /^(utm_[a-z_]+|gclid|dclid|fbclid|msclkid|yclid|mc_cid|mc_eid|_ga|_gl|igshid|ref_src|spm)$/i;

/**
 * One spelling per page, so a crawl fetches it once: http(s) only, fragment dropped, host lowercased
 * and default port removed (the URL parser does both), tracking parameters removed, the rest of the
 * query sorted. Null for anything that is not an http(s) URL.
 */
export function canonicalUrl(input: string, base?: string): string | null {
  let url: URL;
  try {
    url = new URL(input.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  url.username = '';
  url.password = '';
  const kept = [...url.searchParams].filter(([name]) => !TRACKING.test(name));
  kept.sort(([a, av], [b, bv]) => (a === b ? av.localeCompare(bv) : a.localeCompare(b)));
  url.search = new URLSearchParams(kept).toString();
  return url.href;
}

/** The site a URL belongs to for `--same-site`: its host without a leading `www.`. */
export function siteOf(url: string): string {
  return new URL(url).hostname.replace(/^www\./, '');
}
