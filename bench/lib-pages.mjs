// The real saved pages for the benches, found and served by the test kit as the tests do.
import { realPages as findRealPages, startFixtureServer } from '@argus/test-kit';

/**
 * The real saved pages, as the tests find them (the test kit's `realPages()`: `{ name, path }` with
 * `path` on the fixture server), limited to the comma-separated names of `only` (`--only a,b`) when given.
 */
export function realPages(only = '') {
  const names = only.split(',').filter(Boolean);
  return findRealPages().filter((page) => !names.length || names.includes(page.name));
}

/**
 * The test kit's fixture server on 127.0.0.1 (real pages at `/real/<name>/`), plus `extra` pages:
 * `{ name: html }` served at `/<name>/`. Resolves with the server and those extra pages as
 * `{ name, path }` entries to visit.
 */
export async function servePages(extra = {}) {
  const server = await startFixtureServer({
    pages: Object.fromEntries(Object.entries(extra).map(([name, html]) => [`/${name}/`, html])),
  });
  return { server, extra: Object.keys(extra).map((name) => ({ name, path: `/${name}/` })) };
}

/**
 * Launches headless Chromium (external hosts fail at once through a dead proxy), opens each
 * `{ name, path }` of `pages` on `server` in a fresh tab, waits for it to load and calls
 * `visit(page, name)`; closes every tab, the browser and the server on every path. Resolves with
 * the Chromium binary's path.
 */
export async function visitPages(pages, server, visit) {
  const { Browser, connectCri, launchChrome } = await import('@argus/cdp');
  // a page target still being set up when the browser closes may reject late: report, do not crash
  process.on('unhandledRejection', (error) => console.error(`(ignored during shutdown) ${error?.message ?? error}`));
  const chrome = await launchChrome({ extraFlags: ['--proxy-server=http://127.0.0.1:9', '--window-size=1280,900'] });
  try {
    const browser = await Browser.connect(await connectCri(chrome.wsEndpoint));
    try {
      for (const { name, path } of pages) {
        const page = await browser.newPage();
        try {
          await page
            .navigate(server.urlFor(path), { timeoutMs: 20_000 })
            .catch((error) => console.error(`${name}: ${error.message}`));
          await visit(page, name);
        } finally {
          await browser.closePage(page.targetId).catch(() => undefined);
        }
      }
    } finally {
      await browser.close();
    }
  } finally {
    await chrome.kill();
    await server.close();
  }
  return chrome.executablePath;
}
