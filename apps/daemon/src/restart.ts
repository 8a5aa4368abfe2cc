import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from '@argus/cdp';
import type { CallContext } from '@argus/protocol';
import type { SessionMode } from './browser-manager.js';
import { RESTORING_CALLER } from './caller-log.js';
import type { PoolOptions } from './pool/browser-pool.js';
import type { Services } from './services.js';

/** The saved state a restart carries over (`<state dir>/states/<name>.json`, written by `state save`). */
export const RESTART_STATE = 'argus-restart';
const MARKER = 'restart.json';
/** Each reopened tab gets this long to load; a slow one stays open on whatever it reached. */
const TAB_LOAD_MS = 5_000;

/** What the stopping daemon leaves for the next one (0600, in the 0700 state dir). */
interface RestartMarker {
  /** The saved state to load (a launched browser only). */
  state?: string;
  /** The session mode to come back in: a `session connect` made at run time is not in the config. */
  mode: SessionMode;
  cdpUrl?: string;
  /** pool mode: the endpoints and options the operator connected with. */
  pool?: PoolOptions;
  /** URL of the tab that was active, made active again. */
  active?: string;
}

/**
 * The stopping half of `argus restart`: saves cookies, local storage and the tabs' URLs with
 * `state save` (a launched browser only: a connected or extension browser keeps its own), leaves a
 * marker for the next daemon, and stops. Returns what is carried over.
 */
export async function prepareRestart(
  services: Services,
  ctx: CallContext,
): Promise<{ tabs: string[]; cookies: number }> {
  const { manager } = services;
  let carried = { tabs: [] as string[], cookies: 0 };
  const pool = manager.poolOptions;
  const marker: RestartMarker = {
    mode: manager.mode,
    ...(manager.cdpUrl ? { cdpUrl: manager.cdpUrl } : {}),
    ...(pool ? { pool } : {}),
  };
  if (manager.running && manager.mode === 'managed') {
    const saved = (await services.dispatch('state.save', { name: RESTART_STATE }, ctx)) as { path: string };
    // our own file, just written by state save
    const state = JSON.parse(readFileSync(saved.path, 'utf8')) as { tabs?: string[]; cookies?: unknown[] };
    carried = { tabs: state.tabs ?? [], cookies: state.cookies?.length ?? 0 };
    marker.state = RESTART_STATE;
    const active = manager.activeTabId ? manager.current?.page(manager.activeTabId) : undefined;
    if (active && !active.closed) marker.active = active.url;
  }
  writeFileSync(join(services.stateDir, MARKER), JSON.stringify(marker), { mode: 0o600 });
  services.requestStop();
  return carried;
}

/**
 * The starting half: when the daemon before this one stopped for a restart, comes back in its session
 * mode and loads its saved state (cookies, storage, tabs) into a fresh browser, then removes it. Never
 * throws: a restart that cannot restore still leaves a working daemon (the log says what was lost).
 */
export async function resumeAfterRestart(services: Services): Promise<void> {
  const file = join(services.stateDir, MARKER);
  if (!existsSync(file)) return;
  const ctx: CallContext = { scopes: ['admin'], client: RESTORING_CALLER, cwd: services.workspace };
  const { manager } = services;
  try {
    const marker = JSON.parse(readFileSync(file, 'utf8')) as RestartMarker; // ours, written by prepareRestart
    rmSync(file, { force: true });
    if (marker.mode !== manager.mode) {
      // the URL was accepted (and any remote opt-in given) when the operator connected
      const how =
        marker.mode === 'extension'
          ? { extension: true }
          : marker.mode === 'connect'
            ? { cdp: marker.cdpUrl, allowRemote: true }
            : marker.mode === 'pool' && marker.pool
              ? {
                  pool: marker.pool.endpoints,
                  allowRemote: true,
                  maxSessions: marker.pool.maxSessions,
                  restoreState: marker.pool.restoreState,
                }
              : { managed: true };
      await services.dispatch('session.connect', how, ctx);
    }
    if (!marker.state) return;
    const browser = await manager.ensure();
    // the tab Chrome opens at launch is replaced by the reopened ones
    const blank = browser.attachedPages().filter((page) => page.url === 'about:blank');
    // our own file, written by state save in prepareRestart
    const saved = JSON.parse(readFileSync(join(services.stateDir, 'states', `${marker.state}.json`), 'utf8')) as {
      tabs?: string[];
    };
    // cookies and local storage; the tabs are reopened below, all at once
    const loaded = (await services.dispatch(
      'state.load',
      { name: marker.state, restoreTabs: false, timeoutMs: TAB_LOAD_MS },
      ctx,
    )) as { warnings: string[] };
    const tabsOpened = await manager.structural((running) =>
      reopenTabs(services, running, saved.tabs ?? [], ctx, loaded.warnings),
    );
    if (tabsOpened.length) for (const page of blank) await browser.closePage(page.id).catch(() => undefined);
    const active =
      browser.attachedPages().find((page) => page.url === marker.active) ?? browser.page(tabsOpened[0] ?? '');
    if (active) manager.activeTabId = active.id;
    services.log.info('daemon.restored', { tabs: tabsOpened.length, warnings: loaded.warnings });
  } catch (error) {
    services.log.warn('daemon.restore_failed', { message: (error as Error).message });
  } finally {
    rmSync(file, { force: true });
    rmSync(join(services.stateDir, 'states', `${RESTART_STATE}.json`), { force: true });
  }
}

/**
 * Opens the saved tabs that are not open, in their order, and loads them all at once: the new daemon
 * answers its starter only once they are back, and one after the other (as `state load` does) a
 * restart waited for the sum of their loads, up to TAB_LOAD_MS each, instead of the longest.
 */
async function reopenTabs(
  services: Services,
  browser: Browser,
  urls: string[],
  ctx: CallContext,
  warnings: string[],
): Promise<string[]> {
  const open = new Set(browser.attachedPages().map((page) => page.url));
  const opened: Array<{ url: string; page: Page }> = [];
  for (const url of urls) {
    if (open.has(url)) continue;
    const refusal = services.access.urlRefusal(url, ctx);
    if (refusal !== undefined) {
      warnings.push(`tab ${url}: not restored, ${refusal}`);
      continue;
    }
    opened.push({ url, page: await services.manager.newTab(browser) });
  }
  await Promise.all(
    opened.map(({ url, page }) =>
      page
        .navigate(url, { timeoutMs: TAB_LOAD_MS })
        .catch((error: unknown) => warnings.push(`tab ${url}: ${(error as Error).message}`)),
    ),
  );
  return opened.map(({ page }) => page.id);
}
