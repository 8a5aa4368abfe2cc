import type { Page } from '@argus/cdp';

/** What a relaunch carries of one tab's sessionStorage: its origin and its entries (never logged). */
export interface CarriedSessionStorage {
  origin: string;
  items: Array<[string, string]>;
}

/** sessionStorage holds ~5 MB per origin in Chromium; more than this is not carried (a page that odd keeps its own). */
const MAX_CHARS = 6_000_000;

/**
 * The handed-off tab's sessionStorage. `state save` keeps cookies and localStorage only, and a
 * relaunched browser on a temporary profile starts with no session storage, so a sign-in that keeps
 * its step in sessionStorage would start over. Undefined when there is none or it cannot be read.
 */
export async function readSessionStorage(page: Page): Promise<CarriedSessionStorage | undefined> {
  if (page.closed || !/^https?:/.test(page.url)) return undefined;
  const read = await page
    .evaluate<string>(
      `JSON.stringify({ origin: location.origin, items: Object.keys(sessionStorage).map((k) => [k, sessionStorage.getItem(k) ?? '']) })`,
      { timeoutMs: 5_000 },
    )
    .catch(() => undefined);
  if (typeof read !== 'string' || read.length > MAX_CHARS) return undefined;
  const carried = JSON.parse(read) as CarriedSessionStorage;
  return carried.items.length ? carried : undefined;
}

/**
 * Writes carried entries into the reopened tab when it shows the same origin. The page has loaded
 * by then: its scripts see the entries from now on; one that read them only at load sees them after
 * the reload the handoff does next.
 */
export async function writeSessionStorage(page: Page, carried: CarriedSessionStorage | undefined): Promise<boolean> {
  if (!carried || page.closed) return false;
  const written = await page
    .evaluate<boolean>(
      `(() => { const c = ${JSON.stringify(carried)}; if (location.origin !== c.origin) return false;
        for (const [k, v] of c.items) sessionStorage.setItem(k, v); return true; })()`,
      { timeoutMs: 5_000 },
    )
    .catch(() => false);
  return written === true;
}
