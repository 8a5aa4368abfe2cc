/** `argus cookie-import-browser`: the operator's own browser cookies into the managed browser's context. */
import { resolve } from 'node:path';
import { ArgusError, type CallContext } from '@argus/protocol';
import type { Services } from '../services.js';
import { BROWSERS, type BrowserKind, cookieDatabase, cookieKeys, userDataDir } from './browser-profile.js';
import { readBrowserCookies } from './read-cookies.js';

export interface ImportBrowserInput {
  domain: string[];
  browser?: BrowserKind | undefined;
  profile: string;
  userDataDir?: string | undefined;
}

export async function importBrowserCookies(services: Services, input: ImportBrowserInput, ctx: CallContext) {
  // a shared token (another machine, another person) never reads the operator's logged-in browser
  if (ctx.owner !== undefined) {
    throw new ArgusError(
      'forbidden_scope',
      "cookie-import-browser reads the operator's own browser: only the operator's local CLI can run it, never a shared token.",
    );
  }
  const located = input.userDataDir
    ? { dir: resolve(ctx.cwd ?? process.cwd(), input.userDataDir), browser: input.browser }
    : userDataDir(input.browser);
  const database = cookieDatabase(located.dir, input.profile);
  // the keyring is asked under the browser named, else each known one's entry in turn
  const kinds: BrowserKind[] = located.browser ? [located.browser] : [...BROWSERS];
  const { keys, notes } = await cookieKeys(kinds);
  const read = await readBrowserCookies(database, keys, input.domain);
  const { manager } = services;
  if (read.cookies.length > 0) {
    await manager.structural(async (browser) => {
      const scope = await manager.callerScope(browser);
      try {
        await browser.router.root.send(
          'Storage.setCookies',
          scope.context ? { cookies: read.cookies, browserContextId: scope.context } : { cookies: read.cookies },
        );
      } catch (error) {
        throw new ArgusError('invalid_input', `Chrome refused the imported cookies: ${(error as Error).message}`);
      }
    });
  }
  const perDomain = new Map<string, number>();
  for (const cookie of read.cookies) {
    const domain = (cookie.domain ?? new URL(cookie.url ?? 'http://unknown').hostname).replace(/^\./, '');
    perDomain.set(domain, (perDomain.get(domain) ?? 0) + 1);
  }
  return {
    source: database,
    imported: read.cookies.length,
    domains: [...perDomain].map(([domain, cookies]) => ({ domain, cookies })).sort((a, b) => b.cookies - a.cookies),
    skipped: [...read.skipped].map(([reason, count]) => ({ reason, count })),
    notes,
  };
}
