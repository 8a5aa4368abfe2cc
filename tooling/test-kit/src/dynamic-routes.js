/**
 * Dynamic routes of the fixture server: behaviours a static file cannot give a browser test
 * (latency, status codes, redirects, headers, cookies, downloads, large bodies).
 */

export const MAX_SLOW_MS = 10_000;
export const MAX_BIG_BYTES = 50_000_000;

/** @typedef {import('node:http').IncomingMessage} Req */
/** @typedef {import('node:http').ServerResponse} Res */
/**
 * @typedef {object} RouteContext
 * @property {URL} url parsed request URL
 * @property {(ms: number, fn: () => void) => void} later timer that the server clears on close()
 */
/** @typedef {(req: Req, res: Res, ctx: RouteContext) => void} Route */

/**
 * @param {Res} res
 * @param {number} status
 * @param {string} contentType
 * @param {string | Buffer} body
 * @param {Record<string, string>} [headers]
 */
export function send(res, status, contentType, body, headers = {}) {
  const noBody = status === 204 || status === 304;
  res.writeHead(status, {
    'Cache-Control': 'no-store',
    ...(noBody ? {} : { 'Content-Type': contentType, 'Content-Length': String(Buffer.byteLength(body)) }),
    ...headers,
  });
  res.end(noBody ? undefined : body);
}

/** @param {Res} res @param {number} status @param {string} message */
export function sendText(res, status, message) {
  send(res, status, 'text/plain; charset=utf-8', `${message}\n`);
}

/** @param {string} title @param {string} body */
function html(title, body) {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>\n<body>${body}</body></html>\n`;
}

/** @param {string} text */
function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Reads an integer query parameter within [0, max].
 * @param {URL} url @param {string} name @param {number} fallback @param {number} max
 * @returns {number | string} the value, or an error message
 */
function intParam(url, name, fallback, max) {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > max)
    return `${name} must be an integer from 0 to ${max}, got "${raw}"`;
  return value;
}

/** @type {Route} */
function slow(_req, res, { url, later }) {
  const ms = intParam(url, 'ms', 1000, MAX_SLOW_MS);
  if (typeof ms === 'string') return sendText(res, 400, ms);
  later(ms, () =>
    send(
      res,
      200,
      'text/html; charset=utf-8',
      html(`Slow ${ms}`, `<h1>Slow response</h1><p id="slow">Waited ${ms} ms</p>`),
    ),
  );
}

/** Requests waiting at each named barrier (names are chosen by the test, so servers never collide). */
/** @type {Map<string, Array<(met: boolean) => void>>} */
const barriers = new Map();

/**
 * `/barrier?name=X&count=N&ms=T`: answers once N requests named X are in flight at the same time
 * ("met"), or after T ms alone ("alone"). Proves that loads run in parallel without timing them.
 * @type {Route}
 */
function barrier(_req, res, { url, later }) {
  const name = url.searchParams.get('name') ?? '';
  const count = intParam(url, 'count', 2, 16);
  const ms = intParam(url, 'ms', 5000, MAX_SLOW_MS);
  if (!name || typeof count === 'string' || typeof ms === 'string')
    return sendText(res, 400, 'barrier needs name, count <= 16 and ms <= 10000');
  const waiting = barriers.get(name) ?? [];
  barriers.set(name, waiting);
  let done = false;
  const answer = (/** @type {boolean} */ met) => {
    if (done) return;
    done = true;
    const index = waiting.indexOf(answer);
    if (index >= 0) waiting.splice(index, 1);
    if (waiting.length === 0) barriers.delete(name);
    if (!res.destroyed)
      send(
        res,
        200,
        'text/html; charset=utf-8',
        html(`Barrier ${escapeHtml(name)}`, `<p id="barrier">${met ? 'met' : 'alone'}</p>`),
      );
  };
  waiting.push(answer);
  res.once('close', () => answer(false));
  if (waiting.length >= count) {
    for (const waiter of [...waiting]) waiter(true);
    return;
  }
  later(ms, () => answer(false));
}

/**
 * Never answers (until the client goes away or the server closes): a server that hangs.
 * @type {Route}
 */
function hang(_req, res, { later }) {
  // a timer the server clears on close() keeps the request open without answering
  later(24 * 60 * 60_000, () => sendText(res, 504, 'gave up'));
}

/** The user and password `/basic-auth` accepts. */
export const BASIC_AUTH = { user: 'alice', password: 's3cret-pw' };

/**
 * HTTP Basic authentication: 401 with a challenge unless the request carries BASIC_AUTH, then a
 * page titled "Signed in".
 * @type {Route}
 */
function basicAuth(req, res) {
  const expected = `Basic ${Buffer.from(`${BASIC_AUTH.user}:${BASIC_AUTH.password}`).toString('base64')}`;
  if (req.headers.authorization !== expected)
    return send(res, 401, 'text/html; charset=utf-8', html('Sign in required', '<h1>401</h1>'), {
      'WWW-Authenticate': 'Basic realm="Argus fixtures"',
    });
  send(res, 200, 'text/html; charset=utf-8', html('Signed in', `<h1>Hello, ${BASIC_AUTH.user}</h1>`));
}

/** @type {Route} */
function status(_req, res, { url }) {
  const code = Number(url.pathname.slice('/status/'.length));
  if (!Number.isInteger(code) || code < 200 || code > 599)
    return sendText(res, 400, 'status code must be an integer from 200 to 599');
  const retryAfter = url.searchParams.get('retry-after');
  send(
    res,
    code,
    'text/html; charset=utf-8',
    html(`Status ${code}`, `<h1>Status ${code}</h1>`),
    retryAfter === null ? {} : { 'Retry-After': retryAfter },
  );
}

/** Requests seen per `/flaky` name (names are chosen by the test, so servers never collide). */
/** @type {Map<string, number>} */
const flakyCounts = new Map();

/**
 * `/flaky?name=X&fail=N&status=503[&retry-after=S]`: the first N requests named X get that status
 * (with `Retry-After` when asked), every later one a small article. For retry and breaker tests.
 * @type {Route}
 */
function flaky(_req, res, { url }) {
  const name = url.searchParams.get('name') ?? '';
  const fail = intParam(url, 'fail', 1, 1000);
  const code = intParam(url, 'status', 503, 599);
  if (!name || typeof fail === 'string' || typeof code === 'string' || code < 400)
    return sendText(res, 400, 'flaky needs name, fail <= 1000 and a status from 400 to 599');
  const seen = (flakyCounts.get(name) ?? 0) + 1;
  flakyCounts.set(name, seen);
  const retryAfter = url.searchParams.get('retry-after');
  if (seen <= fail)
    return send(
      res,
      code,
      'text/html; charset=utf-8',
      html(`Failure ${seen}`, `<h1>Status ${code}</h1>`),
      retryAfter === null ? {} : { 'Retry-After': retryAfter },
    );
  const words = 'The flaky page answered at last, after the failures it was asked to give. '.repeat(8);
  send(
    res,
    200,
    'text/html; charset=utf-8',
    html(`Flaky ${escapeHtml(name)}`, `<article><h1>Recovered</h1><p>${words}</p></article>`),
  );
}

/**
 * `/site/<n>?size=S[&ms=T]`: page n of a generated site of S pages (a binary tree: page n links to
 * 2n+1 and 2n+2, and home to 0), each with an article paragraph; answered after T ms. For crawls.
 * @type {Route}
 */
function site(_req, res, { url, later }) {
  const n = Number(url.pathname.slice('/site/'.length));
  const size = intParam(url, 'size', 50, 100_000);
  const ms = intParam(url, 'ms', 0, MAX_SLOW_MS);
  if (typeof size === 'string' || typeof ms === 'string') return sendText(res, 400, 'size <= 100000, ms <= 10000');
  if (!Number.isInteger(n) || n < 0 || n >= size)
    return sendText(res, 404, `no page ${url.pathname} in a site of ${size}`);
  const query = url.search;
  const children = [2 * n + 1, 2 * n + 2].filter((child) => child < size);
  const links = [
    `<a href="/site/0${query}">Home</a>`,
    ...children.map((child) => `<a href="/site/${child}${query}">Page ${child}</a>`),
  ];
  const words = `Page ${n} of the generated site tells a short story about crawling politely. `.repeat(12);
  const body = `<nav>${links.join(' ')}</nav><article><h1>Page ${n}</h1><p>${words}</p></article>`;
  const answer = () => send(res, 200, 'text/html; charset=utf-8', html(`Site page ${n}`, body));
  if (ms > 0) later(ms, answer);
  else answer();
}

/** @type {Route} */
function redirect(_req, res, { url }) {
  const to = url.searchParams.get('to') ?? '/';
  const code = intParam(url, 'status', 302, 308);
  if (typeof code === 'string' || ![301, 302, 303, 307, 308].includes(code))
    return sendText(res, 400, 'status must be 301, 302, 303, 307 or 308');
  if (!to.startsWith('/') && !/^https?:\/\//.test(to))
    return sendText(res, 400, 'to must be a path starting with / or an http(s) URL');
  send(res, code, 'text/plain; charset=utf-8', `Redirecting to ${to}\n`, { Location: to });
}

/** @type {Route} */
function echoHeaders(req, res) {
  send(res, 200, 'application/json; charset=utf-8', JSON.stringify(req.headers, null, 2));
}

/** @type {Route} */
function setCookie(_req, res, { url }) {
  const name = url.searchParams.get('name') ?? 'argus';
  const value = url.searchParams.get('value') ?? '1';
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name))
    return sendText(res, 400, 'name must be 1-64 letters, digits, "_", "." or "-"');
  if (!/^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]{0,256}$/.test(value))
    return sendText(res, 400, 'value has characters a cookie cannot carry');
  const maxAge = intParam(url, 'max-age', 0, 400 * 24 * 3600);
  if (typeof maxAge === 'string') return sendText(res, 400, maxAge);
  const sameSite = url.searchParams.get('same-site') ?? 'Lax';
  if (!['Strict', 'Lax', 'None'].includes(sameSite)) return sendText(res, 400, 'same-site must be Strict, Lax or None');
  const httpOnly = url.searchParams.get('http-only') === '1';
  const body = html('Cookie set', `<h1>Cookie set</h1><p id="cookie">${escapeHtml(name)}=${escapeHtml(value)}</p>`);
  // with max-age the cookie is persistent (kept in the profile), else a session cookie
  const attributes = [
    `${name}=${value}`,
    'Path=/',
    `SameSite=${sameSite}`,
    ...(sameSite === 'None' ? ['Secure'] : []),
    ...(httpOnly ? ['HttpOnly'] : []),
    ...(maxAge ? [`Max-Age=${maxAge}`] : []),
  ];
  send(res, 200, 'text/html; charset=utf-8', body, { 'Set-Cookie': attributes.join('; ') });
}

/** @type {Route} */
function download(_req, res, { url }) {
  const name = decodeURIComponent(url.pathname.slice('/download/'.length));
  if (!/^[A-Za-z0-9_.-]{1,100}\.txt$/.test(name))
    return sendText(res, 404, `no download named "${name}": use /download/<name>.txt`);
  const body = `Argus fixture download: ${name}\nline 2\nline 3\n`;
  send(res, 200, 'text/plain; charset=utf-8', body, { 'Content-Disposition': `attachment; filename="${name}"` });
}

/** @type {Route} */
function json(_req, res) {
  const body = {
    ok: true,
    name: 'argus-fixture',
    items: [
      { id: 1, label: 'one' },
      { id: 2, label: 'two' },
      { id: 3, label: 'three' },
    ],
  };
  send(res, 200, 'application/json; charset=utf-8', JSON.stringify(body));
}

const BIG_LINE = 'Argus big body: the quick brown fox jumps over the lazy dog 0123456789.\n';
const BIG_CHUNK = Buffer.from(BIG_LINE.repeat(Math.ceil(65_536 / BIG_LINE.length)));

/** @type {Route} */
function big(_req, res, { url }) {
  const total = intParam(url, 'bytes', 1_000_000, MAX_BIG_BYTES);
  if (typeof total === 'string') return sendText(res, 400, total);
  res.writeHead(200, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(total),
    'Cache-Control': 'no-store',
  });
  let sent = 0;
  const pump = () => {
    while (sent < total && !res.destroyed) {
      const chunk = BIG_CHUNK.subarray(0, Math.min(BIG_CHUNK.length, total - sent));
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

/** Exact-path routes. */
export const exactRoutes = /** @type {Record<string, Route>} */ ({
  '/slow': slow,
  '/barrier': barrier,
  '/hang': hang,
  '/redirect': redirect,
  '/echo-headers': echoHeaders,
  '/set-cookie': setCookie,
  '/json': json,
  '/big': big,
  '/flaky': flaky,
  '/basic-auth': basicAuth,
});

/** Prefix routes, checked in order. */
export const prefixRoutes = /** @type {Array<[string, Route]>} */ ([
  ['/status/', status],
  ['/download/', download],
  ['/site/', site],
]);
