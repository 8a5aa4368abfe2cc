import type { Browser, Page } from '@argus/cdp';
import { ORIGIN_STORAGE, WRITE_LOCAL_STORAGE } from '@argus/snapshot';
import { evaluateInPage } from './page-eval.js';

/** The subset of CDP's Network.CookieParam that Argus sets. */
export interface CookieParam {
  name: string;
  value: string;
  url?: string;
  domain?: string;
  path?: string;
  secure?: boolean;
  httpOnly?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
  expires?: number;
}

export interface OriginStorage {
  origin: string;
  items: Record<string, string>;
}

/** What `state save` writes (mode 0600). Never logged. */
export interface SavedState {
  version: 1;
  savedAt: string;
  cookies: unknown[];
  origins: OriginStorage[];
  tabs: string[];
}

const SAME_SITE: Record<string, CookieParam['sameSite']> = {
  strict: 'Strict',
  lax: 'Lax',
  none: 'None',
  no_restriction: 'None',
};

/**
 * Accepts a CDP cookie (Network.Cookie), a browser-extension export (`expirationDate`,
 * `no_restriction`) or a plain {name, value, domain|url}; returns the cookie or why it was skipped.
 */
export function normaliseCookie(entry: unknown): CookieParam | string {
  if (!entry || typeof entry !== 'object') return 'not an object';
  const raw = entry as Record<string, unknown>;
  if (typeof raw.name !== 'string' || !/^[^=;\s]+$/.test(raw.name)) return 'missing or invalid "name"';
  if (typeof raw.value !== 'string' && typeof raw.value !== 'number') return `cookie ${raw.name}: missing "value"`;
  const cookie: CookieParam = { name: raw.name, value: String(raw.value) };
  if (typeof raw.domain === 'string' && raw.domain) cookie.domain = raw.domain;
  else if (typeof raw.url === 'string' && /^https?:\/\//.test(raw.url)) cookie.url = raw.url;
  else return `cookie ${raw.name}: needs "domain" or an http(s) "url"`;
  cookie.path = typeof raw.path === 'string' && raw.path.startsWith('/') ? raw.path : '/';
  if (raw.secure === true) cookie.secure = true;
  if (raw.httpOnly === true) cookie.httpOnly = true;
  const sameSite = typeof raw.sameSite === 'string' ? SAME_SITE[raw.sameSite.toLowerCase()] : undefined;
  if (sameSite) cookie.sameSite = sameSite;
  if (sameSite === 'None' && !cookie.secure) return `cookie ${raw.name}: SameSite=None needs "secure": true`;
  const expires =
    typeof raw.expires === 'number'
      ? raw.expires
      : typeof raw.expirationDate === 'number'
        ? raw.expirationDate
        : undefined;
  if (expires !== undefined && expires > 0 && raw.session !== true) cookie.expires = expires;
  return cookie;
}

/** localStorage of each distinct http(s) origin among the open tabs' top documents. */
export async function readLocalStorage(pages: Page[]): Promise<OriginStorage[]> {
  const byOrigin = new Map<string, OriginStorage>();
  for (const page of pages) {
    const found = await evaluateInPage(page, ORIGIN_STORAGE, []).catch(() => null);
    if (found && !byOrigin.has(found.origin)) byOrigin.set(found.origin, found);
  }
  return [...byOrigin.values()];
}

/**
 * Writes each origin's items through a page of that origin: an open tab when there is one, else a
 * temporary tab whose requests are answered with an empty page (Fetch), so nothing reaches the site.
 */
export async function restoreLocalStorage(
  browser: Browser,
  scope: { context: string | undefined; pages: Page[] },
  origins: OriginStorage[],
  warnings: string[],
): Promise<number> {
  let restored = 0;
  for (const { origin, items } of origins) {
    if (!Object.keys(items).length) continue;
    const open = scope.pages.find((page) => !page.closed && originOf(page.url) === origin);
    try {
      if (open) await evaluateInPage(open, WRITE_LOCAL_STORAGE, [items]);
      else
        await withBlankOriginTab(browser, scope.context, origin, (page) =>
          evaluateInPage(page, WRITE_LOCAL_STORAGE, [items]),
        );
      restored++;
    } catch (error) {
      warnings.push(`localStorage of ${origin}: ${(error as Error).message}`);
    }
  }
  return restored;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

async function withBlankOriginTab<T>(
  browser: Browser,
  context: string | undefined,
  origin: string,
  run: (page: Page) => Promise<T>,
): Promise<T> {
  // in the caller's browser context: a named session's storage lands in the session
  const page = await browser.newPage(10_000, context);
  // a blank document of the origin, served by the tab's own Fetch owner (after the navigation guard)
  page.interception.routes.add({
    id: 'argus-state-origin',
    pattern: '**',
    fetchPattern: '*',
    matches: () => true,
    action: {
      fulfill: {
        status: 200,
        headers: [{ name: 'Content-Type', value: 'text/html; charset=utf-8' }],
        body: Buffer.from('<!doctype html><title>argus state</title>').toString('base64'),
      },
    },
  });
  try {
    await page.interception.sync();
    await page.navigate(`${origin}/`, { timeoutMs: 10_000 });
    return await run(page);
  } finally {
    await browser.closePage(page.id).catch(() => undefined);
  }
}
