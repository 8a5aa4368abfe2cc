// The real saved pages for the benches: where they are, an option reader, and a local server.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { realPagesDir } from '@argus/test-kit';

/** `--name value` from the command line, or the fallback. */
export function option(name, fallback) {
  const args = process.argv.slice(2);
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : fallback;
}

/** The real pages (`<name>/source.html`), limited to `--only a,b` when given. */
export function realPages() {
  // The same vendored copy the tests read, found the way the tests find it (the test kit).
  const root = realPagesDir;
  const only = option('only', '')?.split(',').filter(Boolean) ?? [];
  const names = readdirSync(root).filter((name) => existsSync(join(root, name, 'source.html')) && (!only.length || only.includes(name)));
  return { root, names };
}

/**
 * Serves `/<name>/` for every real page, plus `extra` pages by name, on 127.0.0.1; resolves with
 * the origin and a close function.
 */
export async function servePages({ root, names }, extra = {}) {
  const server = http.createServer((request, response) => {
    const name = decodeURIComponent((request.url ?? '/').split('/')[1] ?? '');
    const body = name in extra ? extra[name] : names.includes(name) ? readFileSync(join(root, name, 'source.html')) : undefined;
    if (body === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

/**
 * Launches headless Chromium (external hosts fail at once through a dead proxy), opens each page in
 * a fresh tab, waits for it to load and calls `visit(page, name)`; closes every tab, the browser
 * and the server on every path. Resolves with the Chromium binary's path.
 */
export async function visitPages(names, server, visit) {
  const { Browser, connectCri, launchChrome } = await import('@argus/cdp');
  // a page target still being set up when the browser closes may reject late: report, do not crash
  process.on('unhandledRejection', (error) => console.error(`(ignored during shutdown) ${error?.message ?? error}`));
  const chrome = await launchChrome({ extraFlags: ['--proxy-server=http://127.0.0.1:9', '--window-size=1280,900'] });
  try {
    const browser = await Browser.connect(await connectCri(chrome.wsEndpoint));
    try {
      for (const name of names) {
        const page = await browser.newPage();
        try {
          await page.navigate(`${server.origin}/${name}/`, { timeoutMs: 20_000 }).catch((error) => console.error(`${name}: ${error.message}`));
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
    server.close();
  }
  return chrome.executablePath;
}
