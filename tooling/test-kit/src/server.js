import { createServer } from 'node:http';
import { readdirSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { exactRoutes, prefixRoutes, send, sendText } from './dynamic-routes.js';
import { pagesDir, realPagesDir } from './paths.js';
import { realPages } from './real-pages.js';

/** @type {Record<string, string>} */
const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
};

/**
 * @typedef {object} FixtureServer
 * @property {string} url base URL with a trailing slash, e.g. `http://127.0.0.1:41234/`
 * @property {string} origin e.g. `http://127.0.0.1:41234`
 * @property {number} port
 * @property {(path: string) => string} urlFor absolute URL of a path on this server, e.g. `urlFor('/form.html')`
 * @property {() => Promise<void>} close stops listening and destroys every open socket; idempotent
 * @property {() => Traffic} traffic a copy of the request counters
 * @property {() => void} resetTraffic zeroes the counters
 */

/**
 * A page a test writes inline: its HTML, or a function of the request URL (and request) that returns
 * it, or a full answer (status, content type, headers) for non-HTML fakes (robots.txt, a search API).
 * @typedef {{ status?: number, contentType?: string, headers?: Record<string, string>, body: string }} InlineAnswer
 * @typedef {string | ((url: URL, req: import('node:http').IncomingMessage) => string | InlineAnswer)} InlinePage
 */

/**
 * What the server has been asked, for tests that check politeness (how many requests at once) or
 * retries (how many requests a path got).
 * @typedef {object} Traffic
 * @property {number} total requests since start (or the last reset)
 * @property {number} inFlight requests being answered now
 * @property {number} maxInFlight the most answered at the same time
 * @property {Record<string, number>} paths requests per path (without the query)
 */

/**
 * @typedef {object} FixtureServerOptions
 * @property {number} [port] 0 (default) picks a free port
 * @property {Record<string, InlinePage>} [pages] HTML served at these exact paths (e.g. `'/form'`),
 *   before any other route or file: for tests that keep their page next to their assertions
 * @property {'127.0.0.1' | 'localhost' | '127.0.0.2'} [hostname] the host name in `url`/`origin`; `localhost` is
 *   a different site from `127.0.0.1` (out-of-process iframes), the server still listens on 127.0.0.1;
 *   `127.0.0.2` listens on that second loopback address (a host an address policy can tell apart)
 */

/**
 * Starts the static + dynamic fixture server on 127.0.0.1.
 *
 * A second origin (for cross-origin iframes, CORS, cookies-per-origin tests) is simply a second
 * `startFixtureServer()`: a different port is a different origin; `hostname: 'localhost'` also makes
 * it a different site. Note that cookies are scoped by host, not port, so two servers on the same
 * host name see the same cookies.
 *
 * @param {FixtureServerOptions} [options]
 * @returns {Promise<FixtureServer>}
 */
export async function startFixtureServer({ port = 0, pages = {}, hostname = '127.0.0.1' } = {}) {
  if (hostname !== '127.0.0.1' && hostname !== 'localhost' && hostname !== '127.0.0.2')
    throw new Error(`fixture server: hostname must be 127.0.0.1, localhost or 127.0.0.2, got ${hostname}`);
  const listenAddress = hostname === '127.0.0.2' ? '127.0.0.2' : '127.0.0.1';
  /** @type {Traffic} */
  let traffic = { total: 0, inFlight: 0, maxInFlight: 0, paths: {} };
  const inline = new Map(Object.entries(pages));
  /** @type {Set<import('node:net').Socket>} */
  const sockets = new Set();
  /** @type {Set<NodeJS.Timeout>} */
  const timers = new Set();

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    traffic.total += 1;
    traffic.paths[path] = (traffic.paths[path] ?? 0) + 1;
    traffic.inFlight += 1;
    traffic.maxInFlight = Math.max(traffic.maxInFlight, traffic.inFlight);
    let counted = true;
    const done = () => {
      if (counted) traffic.inFlight -= 1;
      counted = false;
    };
    res.once('finish', done);
    res.once('close', done);
    handle(req, res, timers, inline).catch((error) => {
      if (!res.headersSent)
        sendText(res, 500, `fixture server error: ${error instanceof Error ? error.message : String(error)}`);
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  await new Promise((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(port, listenAddress, () => {
      server.off('error', rejectListen);
      resolveListen(undefined);
    });
  });

  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fixture server: unexpected listen address');
  const origin = `http://${hostname}:${address.port}`;

  /** @type {Promise<void> | undefined} */
  let closing;
  return {
    url: `${origin}/`,
    origin,
    port: address.port,
    urlFor: (path) => new URL(path, origin).href,
    traffic: () => ({ ...traffic, paths: { ...traffic.paths } }),
    resetTraffic() {
      traffic = { total: 0, inFlight: traffic.inFlight, maxInFlight: traffic.inFlight, paths: {} };
    },
    close() {
      closing ??= new Promise((resolveClose) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolveClose());
        for (const socket of sockets) socket.destroy();
        sockets.clear();
      });
      return closing;
    },
  };
}

/**
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {Set<NodeJS.Timeout>} timers
 * @param {Map<string, InlinePage>} inline
 */
async function handle(req, res, timers, inline) {
  const rawPath = (req.url ?? '/').split('?')[0] ?? '/';
  let decoded;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return sendText(res, 400, 'malformed percent-encoding in path');
  }
  // Refuse before any normalisation: `new URL()` would silently resolve `..` away.
  if (decoded.includes('\0') || decoded.split(/[\\/]/).includes('..'))
    return sendText(res, 403, 'path traversal refused');

  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  /** @type {(ms: number, fn: () => void) => void} */
  const later = (ms, fn) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!res.destroyed) fn();
    }, ms);
    timers.add(timer);
    res.once('close', () => {
      clearTimeout(timer);
      timers.delete(timer);
    });
  };

  const page = inline.get(url.pathname);
  if (page !== undefined) {
    const answer = typeof page === 'function' ? page(url, req) : page;
    if (typeof answer === 'string') return send(res, 200, CONTENT_TYPES['.html'] ?? '', answer);
    return send(
      res,
      answer.status ?? 200,
      answer.contentType ?? CONTENT_TYPES['.html'] ?? '',
      answer.body,
      answer.headers,
    );
  }

  const exact = exactRoutes[url.pathname];
  if (exact) return exact(req, res, { url, later });
  for (const [prefix, route] of prefixRoutes) {
    if (url.pathname.startsWith(prefix)) return route(req, res, { url, later });
  }

  if (req.method !== 'GET' && req.method !== 'HEAD')
    return sendText(res, 405, `${req.method} not allowed on static files`);
  if (url.pathname === '/') return send(res, 200, CONTENT_TYPES['.html'] ?? '', indexPage());
  if (url.pathname === '/real' || url.pathname.startsWith('/real/')) {
    return serveStatic(res, realPagesDir, decodeURIComponent(url.pathname.slice('/real'.length)) || '/', url);
  }
  return serveStatic(res, pagesDir, decodeURIComponent(url.pathname), url);
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {string} root
 * @param {string} relative path below root, starting with `/`
 * @param {URL} url
 */
async function serveStatic(res, root, relative, url) {
  const rootDir = resolve(root);
  let file = resolve(join(rootDir, relative));
  if (file !== rootDir && !file.startsWith(rootDir + sep)) return sendText(res, 403, 'path traversal refused');
  const info = await stat(file).catch(() => undefined);
  if (info?.isDirectory()) {
    if (!url.pathname.endsWith('/'))
      return send(res, 301, 'text/plain; charset=utf-8', 'Moved\n', { Location: `${url.pathname}/${url.search}` });
    if (file === rootDir) return sendText(res, 404, `not found: ${url.pathname}`);
    file = join(file, 'source.html');
  } else if (!info?.isFile()) {
    return sendText(res, 404, `not found: ${url.pathname}`);
  }
  const body = await readFile(file).catch(() => undefined);
  if (body === undefined) return sendText(res, 404, `not found: ${url.pathname}`);
  send(res, 200, CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream', body);
}

/** A generated listing of what the server offers, handy when exploring by hand. */
function indexPage() {
  const pages = readdirSync(pagesDir)
    .filter((name) => name.endsWith('.html'))
    .sort();
  const own = pages.map((name) => `<li><a href="/${name}">${name}</a></li>`).join('\n');
  const real = realPages()
    .map((page) => `<li><a href="${page.path}">${page.name}</a></li>`)
    .join('\n');
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Argus fixtures</title></head>\n<body>\n<h1>Argus fixtures</h1>\n<h2>Pages</h2>\n<ul>\n${own}\n</ul>\n<h2>Real pages</h2>\n<ul>\n${real}\n</ul>\n</body></html>\n`;
}
