import { chmodSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from '@argus/cdp';
import { ArgusError, type Handlers } from '@argus/protocol';
import { confinePath } from '@argus/security';
import { importBrowserCookies } from '../browser-cookies/import-browser-cookies.js';
import type { Services } from '../services.js';
import {
  type CookieParam,
  type SavedState,
  normaliseCookie,
  readLocalStorage,
  restoreLocalStorage,
} from '../state-store.js';
import { makeDirs } from '@argus/protocol/make-dirs';

const MAX_COOKIE_FILE = 5_000_000;

export function stateHandlers(services: Services): Handlers['state'] {
  const { manager } = services;
  const statesDir = join(services.stateDir, 'states');
  const fileOf = (name: string) => join(statesDir, `${name}.json`);
  return {
    cookieSet: (input) =>
      manager.onTab(input.tab, async (page) => {
        const eq = input.cookie.indexOf('=');
        const name = input.cookie.slice(0, eq);
        const value = input.cookie.slice(eq + 1);
        const onWeb = /^https?:/.test(page.url);
        if (!input.domain && !onWeb)
          throw new ArgusError(
            'invalid_input',
            `The tab is on ${page.url || 'no page'}, so there is no site to set the cookie for. Pass --domain, or \`argus goto\` the site first.`,
          );
        const cookie: CookieParam = {
          name,
          value,
          path: input.path,
          secure: input.secure,
          httpOnly: input.httpOnly,
          ...(input.domain ? { domain: input.domain } : { url: page.url }),
          ...(input.sameSite ? { sameSite: input.sameSite } : {}),
          ...(input.expires !== undefined ? { expires: input.expires } : {}),
        };
        await setCookies(page, [cookie]);
        const domain = input.domain ?? new URL(page.url).hostname;
        return { name, domain, path: input.path };
      }),
    cookieImport: (input, ctx) =>
      manager.onTab(input.tab, async (page) => {
        const path = confinePath(input.file, services.access.paths(ctx));
        const info = statSync(path, { throwIfNoEntry: false });
        if (!info?.isFile())
          throw new ArgusError('invalid_input', `${input.file} is not a file (resolved to ${path}).`);
        if (info.size > MAX_COOKIE_FILE)
          throw new ArgusError(
            'payload_too_large',
            `${input.file} is ${info.size} bytes; cookie files up to ${MAX_COOKIE_FILE} bytes are accepted.`,
          );
        let data: unknown;
        try {
          data = JSON.parse(readFileSync(path, 'utf8'));
        } catch (error) {
          throw new ArgusError('invalid_input', `${input.file} is not valid JSON: ${(error as Error).message}`);
        }
        const list = Array.isArray(data)
          ? data
          : data && typeof data === 'object' && Array.isArray((data as { cookies?: unknown }).cookies)
            ? (data as { cookies: unknown[] }).cookies
            : undefined;
        if (!list)
          throw new ArgusError(
            'invalid_input',
            `${input.file} must hold a JSON array of cookies (or {"cookies": [...]}).`,
          );
        const cookies: CookieParam[] = [];
        const skipped: Array<{ index: number; reason: string }> = [];
        list.forEach((entry, index) => {
          const result = normaliseCookie(entry);
          if (typeof result === 'string') skipped.push({ index, reason: result });
          else cookies.push(result);
        });
        if (cookies.length) await setCookies(page, cookies);
        return { imported: cookies.length, skipped };
      }),
    cookieImportBrowser: (input, ctx) => importBrowserCookies(services, input, ctx),
    save: (input) =>
      manager.structural(async (browser) => {
        const { context, pages } = await manager.callerScope(browser);
        const { cookies } = await browser.router.root.send(
          'Storage.getCookies',
          context ? { browserContextId: context } : {},
        );
        const origins = await readLocalStorage(pages);
        const tabs = pages.map((page) => page.url).filter((url) => /^(https?|file):/.test(url));
        const state: SavedState = { version: 1, savedAt: new Date().toISOString(), cookies, origins, tabs };
        makeDirs(statesDir, 0o700);
        chmodSync(statesDir, 0o700);
        const file = fileOf(input.name);
        const temp = `${file}.${process.pid}.tmp`;
        writeFileSync(temp, JSON.stringify(state), { mode: 0o600 });
        renameSync(temp, file);
        // pool mode: a session recreated after its endpoint died can come back from here
        manager.noteStateSaved(input.name);
        return { name: input.name, path: file, cookies: cookies.length, origins: origins.length, tabs: tabs.length };
      }),
    load: (input, ctx) =>
      manager.structural((browser) =>
        applySavedState(services, browser, input.name, {
          restoreTabs: input.restoreTabs,
          timeoutMs: input.timeoutMs,
          refusal: (url) => services.access.urlRefusal(url, ctx),
        }),
      ),
  };
}

/**
 * Loads a saved state (`<state dir>/states/NAME.json`) into the caller's browser context: cookies,
 * localStorage per origin and, with restoreTabs, its tabs that are not open. `state load` and a pool
 * session recreated on another endpoint both come here.
 */
export async function applySavedState(
  services: Services,
  browser: Browser,
  name: string,
  options: { restoreTabs: boolean; timeoutMs: number; refusal: (url: string) => string | undefined },
): Promise<{ name: string; cookies: number; origins: number; tabsOpened: string[]; warnings: string[] }> {
  const { manager } = services;
  const file = join(services.stateDir, 'states', `${name}.json`);
  let state: SavedState;
  try {
    state = JSON.parse(readFileSync(file, 'utf8')) as SavedState; // our own file, written by `state save`
  } catch {
    throw new ArgusError(
      'invalid_input',
      `No saved state named "${name}" (looked for ${file}). Save one with \`argus state save ${name}\`.`,
    );
  }
  const warnings: string[] = [];
  const cookies = (state.cookies ?? [])
    .map((cookie) => normaliseCookie(cookie))
    .filter((cookie): cookie is CookieParam => typeof cookie !== 'string');
  const scope = await manager.callerScope(browser);
  if (cookies.length) {
    await browser.router.root.send(
      'Storage.setCookies',
      scope.context ? { cookies, browserContextId: scope.context } : { cookies },
    );
  }
  const restored = await restoreLocalStorage(browser, scope, state.origins ?? [], warnings);
  const tabsOpened: string[] = [];
  if (options.restoreTabs) {
    const open = new Set(scope.pages.map((page) => page.url));
    for (const url of state.tabs ?? []) {
      if (open.has(url)) continue;
      const refusal = options.refusal(url);
      if (refusal !== undefined) {
        warnings.push(`tab ${url}: not restored, ${refusal}`);
        continue;
      }
      const page = await manager.newTab(browser);
      tabsOpened.push(page.id);
      await page
        .navigate(url, { timeoutMs: options.timeoutMs })
        .catch((error: unknown) => warnings.push(`tab ${url}: ${(error as Error).message}`));
    }
  }
  return { name, cookies: cookies.length, origins: restored, tabsOpened, warnings };
}

async function setCookies(page: Page, cookies: CookieParam[]): Promise<void> {
  try {
    await page.session.send('Network.setCookies', { cookies });
  } catch (error) {
    throw new ArgusError(
      'invalid_input',
      `Chrome refused the cookie(s): ${(error as Error).message}. Check the domain (it must match the URL) and that Secure / SameSite=None go together.`,
    );
  }
}
