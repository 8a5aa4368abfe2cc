import { createHash } from 'node:crypto';
import type { Browser, Page } from '@argus/cdp';

/** Cookies by `name@domain path`, each reduced to a digest of what may change: values never leave memory. */
export type CookieJar = Map<string, string>;

interface CdpCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires: number;
}

/**
 * The cookies the browser holds now. Browser-wide (`Storage.getCookies`) where the transport
 * allows it, so a login that sets cookies on another domain (an SSO host) is seen; else those of
 * the tab's page (the extension's chrome.debugger reaches page sessions only).
 */
export async function readCookies(browser: Browser | undefined, page: Page): Promise<CookieJar> {
  let cookies: CdpCookie[];
  try {
    if (!browser) throw new Error('no browser');
    ({ cookies } = (await browser.router.root.send('Storage.getCookies', {})) as { cookies: CdpCookie[] });
  } catch {
    ({ cookies } = (await page.session.send('Network.getCookies', {})) as { cookies: CdpCookie[] });
  }
  const jar: CookieJar = new Map();
  for (const cookie of cookies) {
    const digest = createHash('sha256')
      .update(`${cookie.value}\u0000${Math.round(cookie.expires)}`)
      .digest('hex');
    jar.set(`${cookie.name}@${cookie.domain}${cookie.path === '/' ? '' : cookie.path}`, digest);
  }
  return jar;
}

/** Names of cookies added, changed (value or expiry) and removed between two jars, sorted. */
export function cookieChanges(
  before: CookieJar,
  after: CookieJar,
): { cookiesAdded: string[]; cookiesChanged: string[]; cookiesRemoved: string[] } {
  const added: string[] = [];
  const changed: string[] = [];
  for (const [key, digest] of after) {
    const was = before.get(key);
    if (was === undefined) added.push(key);
    else if (was !== digest) changed.push(key);
  }
  const removed = [...before.keys()].filter((key) => !after.has(key));
  return { cookiesAdded: added.sort(), cookiesChanged: changed.sort(), cookiesRemoved: removed.sort() };
}
