import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromeLeakGuard,
  listArgusChromeProcesses,
  listArgusChromes,
  realPages,
  startFixtureServer,
} from '../src/index.js';

/** @type {import('../index.d.ts').FixtureServer} */
let server;

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server.close();
});

/**
 * A raw GET that sends the path byte for byte (fetch would normalise `..` away).
 * @param {number} port @param {string} path
 * @returns {Promise<{ status: number, body: string }>}
 */
function rawGet(port, path) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('static files', () => {
  it('listens on 127.0.0.1 with a random port', () => {
    expect(server.port).toBeGreaterThan(0);
    expect(server.origin).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.url).toBe(`${server.origin}/`);
    expect(server.urlFor('/form.html')).toBe(`${server.origin}/form.html`);
  });

  it('serves a hand-written page', async () => {
    const res = await fetch(server.urlFor('/form.html'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toContain('<option value="ca">Canada</option>');
  });

  it('lists the pages at /', async () => {
    const body = await (await fetch(server.url)).text();
    expect(body).toContain('href="/form.html"');
    expect(body).toContain('href="/real/cnn/"');
  });

  it.each([
    ['/assets/script.js', 'text/javascript; charset=utf-8'],
    ['/assets/style.css', 'text/css; charset=utf-8'],
    ['/assets/data.json', 'application/json; charset=utf-8'],
    ['/assets/pixel.png', 'image/png'],
    ['/assets/icon.svg', 'image/svg+xml'],
    ['/assets/notes.txt', 'text/plain; charset=utf-8'],
  ])('serves %s as %s', async (path, type) => {
    const res = await fetch(server.urlFor(path));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    await res.arrayBuffer();
  });

  it('serves a real page at /real/<name>/ and its metadata', async () => {
    const pages = realPages();
    expect(pages).toHaveLength(24);
    const cnn = pages.find((page) => page.name === 'cnn');
    expect(cnn?.path).toBe('/real/cnn/');
    const res = await fetch(server.urlFor('/real/cnn/'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect((await res.text()).length).toBeGreaterThan(1000);
    const meta = await fetch(server.urlFor('/real/cnn/expected-metadata.json'));
    expect(await meta.json()).toHaveProperty('title');
  });

  it('redirects a real page folder without the trailing slash', async () => {
    const res = await fetch(server.urlFor('/real/wikipedia'), { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/real/wikipedia/');
    await res.arrayBuffer();
  });

  it('answers 404 for a missing file', async () => {
    for (const path of ['/nope.html', '/real/nope/', '/assets/missing.js']) {
      const res = await fetch(server.urlFor(path));
      expect(res.status, path).toBe(404);
      await res.arrayBuffer();
    }
  });

  it.each([
    '/../package.json',
    '/%2e%2e/package.json',
    '/real/..%2f..%2fpackage.json',
    '/assets/..%5c..%5cpackage.json',
    '/..%2f..%2f..%2fetc/passwd',
  ])('refuses traversal %s with 403', async (path) => {
    const res = await rawGet(server.port, path);
    expect(res.status).toBe(403);
    expect(res.body).not.toContain('"name"');
  });
});

describe('dynamic routes', () => {
  it('/slow waits about ms before answering', async () => {
    const started = Date.now();
    const res = await fetch(server.urlFor('/slow?ms=200'));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Waited 200 ms');
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('/slow refuses more than 10 s', async () => {
    const res = await fetch(server.urlFor('/slow?ms=10001'));
    expect(res.status).toBe(400);
    await res.arrayBuffer();
  });

  it('/status/<code> answers with that code', async () => {
    for (const code of [200, 404, 418, 500, 503]) {
      const res = await fetch(server.urlFor(`/status/${code}`));
      expect(res.status).toBe(code);
      await res.arrayBuffer();
    }
    const none = await fetch(server.urlFor('/status/204'));
    expect(none.status).toBe(204);
    expect(await none.text()).toBe('');
  });

  it('/redirect sends a Location and is followed by fetch', async () => {
    const manual = await fetch(server.urlFor('/redirect?to=/nav-b.html'), { redirect: 'manual' });
    expect(manual.status).toBe(302);
    expect(manual.headers.get('location')).toBe('/nav-b.html');
    await manual.arrayBuffer();
    const followed = await fetch(server.urlFor('/redirect?to=/nav-b.html&status=301'));
    expect(followed.url).toBe(server.urlFor('/nav-b.html'));
    expect(await followed.text()).toContain('<h1>Page B</h1>');
  });

  it('/echo-headers returns the request headers as JSON', async () => {
    const res = await fetch(server.urlFor('/echo-headers'), { headers: { 'X-Argus-Test': 'yes' } });
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toMatchObject({ 'x-argus-test': 'yes', host: `127.0.0.1:${server.port}` });
  });

  it('/set-cookie sets the cookie', async () => {
    const res = await fetch(server.urlFor('/set-cookie?name=session&value=abc123'));
    expect(res.headers.get('set-cookie')).toBe('session=abc123; Path=/; SameSite=Lax');
    expect(await res.text()).toContain('session=abc123');
    const bad = await fetch(server.urlFor('/set-cookie?name=a%3Bb&value=1'));
    expect(bad.status).toBe(400);
    await bad.arrayBuffer();
    const strict = await fetch(
      server.urlFor('/set-cookie?name=sid&value=s3cret&http-only=1&same-site=Strict&max-age=60'),
    );
    expect(strict.headers.get('set-cookie')).toBe('sid=s3cret; Path=/; SameSite=Strict; HttpOnly; Max-Age=60');
    await strict.arrayBuffer();
    const badSite = await fetch(server.urlFor('/set-cookie?name=a&value=1&same-site=Loose'));
    expect(badSite.status).toBe(400);
    await badSite.arrayBuffer();
  });

  it('/download/<name>.txt is an attachment', async () => {
    const res = await fetch(server.urlFor('/download/report.txt'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="report.txt"');
    expect(await res.text()).toContain('Argus fixture download: report.txt');
    const other = await fetch(server.urlFor('/download/report.exe'));
    expect(other.status).toBe(404);
    await other.arrayBuffer();
  });

  it('/json returns JSON', async () => {
    const res = await fetch(server.urlFor('/json'));
    expect(await res.json()).toMatchObject({ ok: true, items: expect.any(Array) });
  });

  it('/big streams exactly the requested bytes', async () => {
    const res = await fetch(server.urlFor('/big?bytes=3000001'));
    expect(res.headers.get('content-length')).toBe('3000001');
    expect((await res.arrayBuffer()).byteLength).toBe(3_000_001);
    const tooBig = await fetch(server.urlFor('/big?bytes=50000001'));
    expect(tooBig.status).toBe(400);
    await tooBig.arrayBuffer();
  });
});

describe('inline pages', () => {
  it("serves a test's own pages at their exact paths, ahead of files and routes", async () => {
    let hits = 0;
    const inline = await startFixtureServer({
      pages: {
        '/': '<title>mine</title>',
        '/json': '<p>not the json route</p>',
        '/count': (url) => `<p id="n">${++hits} ${url.searchParams.get('q')}</p>`,
      },
    });
    try {
      const root = await fetch(inline.url);
      expect(root.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await root.text()).toBe('<title>mine</title>');
      expect(await (await fetch(inline.urlFor('/json'))).text()).toBe('<p>not the json route</p>');
      expect(await (await fetch(inline.urlFor('/count?q=a'))).text()).toBe('<p id="n">1 a</p>');
      expect(await (await fetch(inline.urlFor('/count?q=b'))).text()).toBe('<p id="n">2 b</p>');
      // everything else is still the shared server
      expect((await fetch(inline.urlFor('/form.html'))).status).toBe(200);
      expect((await fetch(inline.urlFor('/nope'))).status).toBe(404);
      expect((await rawGet(inline.port, '/../count')).status).toBe(403);
    } finally {
      await inline.close();
    }
  });

  it('names itself localhost when asked (another site) and refuses other host names', async () => {
    const other = await startFixtureServer({ hostname: 'localhost', pages: { '/child': '<p>child</p>' } });
    try {
      expect(other.origin).toBe(`http://localhost:${other.port}`);
      expect(other.urlFor('/child')).toBe(`http://localhost:${other.port}/child`);
      expect(await (await fetch(`http://127.0.0.1:${other.port}/child`)).text()).toBe('<p>child</p>');
    } finally {
      await other.close();
    }
    // @ts-expect-error a host name the server does not listen on
    await expect(startFixtureServer({ hostname: 'example.com' })).rejects.toThrow(/127.0.0.1, localhost or 127.0.0.2/);
  });

  it('listens on 127.0.0.2 when asked, and nowhere else', async () => {
    const second = await startFixtureServer({ hostname: '127.0.0.2', pages: { '/p': '<p>two</p>' } });
    try {
      expect(second.origin).toBe(`http://127.0.0.2:${second.port}`);
      expect(await (await fetch(second.urlFor('/p'))).text()).toBe('<p>two</p>');
      await expect(fetch(`http://127.0.0.1:${second.port}/p`)).rejects.toThrow();
    } finally {
      await second.close();
    }
  });

  it('serves full inline answers (status, type, headers) from a function of the request', async () => {
    const fake = await startFixtureServer({
      pages: {
        '/api': (url, req) => ({
          status: req.headers['x-key'] === 'k' ? 200 : 401,
          contentType: 'application/json',
          headers: { 'X-Seen': url.searchParams.get('q') ?? '' },
          body: '{"ok":true}',
        }),
      },
    });
    try {
      const denied = await fetch(fake.urlFor('/api?q=a'));
      expect(denied.status).toBe(401);
      const ok = await fetch(fake.urlFor('/api?q=b'), { headers: { 'x-key': 'k' } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toBe('application/json');
      expect(ok.headers.get('x-seen')).toBe('b');
      expect(await ok.json()).toEqual({ ok: true });
    } finally {
      await fake.close();
    }
  });
});

describe('traffic, flaky and generated site', () => {
  it('counts requests per path and the most in flight at once', async () => {
    const counted = await startFixtureServer();
    try {
      await Promise.all([1, 2, 3].map(() => fetch(counted.urlFor('/slow?ms=100')).then((r) => r.text())));
      await (await fetch(counted.urlFor('/json'))).text();
      const traffic = counted.traffic();
      expect(traffic.total).toBe(4);
      expect(traffic.paths).toEqual({ '/slow': 3, '/json': 1 });
      expect(traffic.maxInFlight).toBe(3);
      expect(traffic.inFlight).toBe(0);
      counted.resetTraffic();
      expect(counted.traffic()).toEqual({ total: 0, inFlight: 0, maxInFlight: 0, paths: {} });
    } finally {
      await counted.close();
    }
  });

  it('/flaky fails the first N requests of a name with the status asked, then answers', async () => {
    const name = `t-${Date.now()}`;
    const url = server.urlFor(`/flaky?name=${name}&fail=2&status=429&retry-after=7`);
    const first = await fetch(url);
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('7');
    expect((await fetch(url)).status).toBe(429);
    const third = await fetch(url);
    expect(third.status).toBe(200);
    expect(await third.text()).toContain('Recovered');
  });

  it('/site/<n> links page n to 2n+1, 2n+2 and home, keeping the query; past the size is 404', async () => {
    const body = await (await fetch(server.urlFor('/site/1?size=5'))).text();
    expect(body).toContain('href="/site/3?size=5"');
    expect(body).toContain('href="/site/4?size=5"');
    expect(body).toContain('href="/site/0?size=5"');
    expect((await fetch(server.urlFor('/site/5?size=5'))).status).toBe(404);
  });
});

describe('lifecycle', () => {
  it('a second server is a second origin', async () => {
    const other = await startFixtureServer();
    try {
      expect(other.origin).not.toBe(server.origin);
      expect((await fetch(other.urlFor('/nav-a.html'))).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('closes promptly with keep-alive sockets and slow requests in flight', async () => {
    const doomed = await startFixtureServer();
    const ok = await fetch(doomed.urlFor('/json'));
    await ok.arrayBuffer(); // leaves a pooled keep-alive socket
    const slow = fetch(doomed.urlFor('/slow?ms=10000')).catch((error) => error);
    const bigRes = await fetch(doomed.urlFor('/big?bytes=50000000'));
    const bigBody = bigRes.arrayBuffer().catch((error) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await doomed.close();
    await doomed.close(); // idempotent
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await slow).toBeInstanceOf(Error);
    expect(await bigBody).toBeInstanceOf(Error);
  });
});

describe('chrome helpers', () => {
  it('the leak guard kills and reports a process left with an argus-chrome- profile', async () => {
    const profile = join(tmpdir(), `argus-chrome-leak-test-${process.pid}`);
    const guard = chromeLeakGuard({
      timeoutMs: 300,
      intervalMs: 50,
      list: () => listArgusChromeProcesses().filter((proc) => proc.userDataDir === profile),
    });
    guard.setup();
    const fake = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', `--user-data-dir=${profile}`], {
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => fake.once('exit', (_code, signal) => resolve(signal)));
    try {
      await new Promise((resolve) => fake.once('spawn', resolve));
      expect(listArgusChromes()).toContain(fake.pid);
      await expect(guard.teardown()).rejects.toThrow(/still running.*\(killed now\)/s);
      expect(await exited).toBe('SIGKILL');
      expect(listArgusChromes()).not.toContain(fake.pid);
    } finally {
      fake.kill('SIGKILL');
    }
  });

  it('the leak guard passes when nothing new is left', async () => {
    const guard = chromeLeakGuard({ timeoutMs: 100, list: () => [] });
    guard.setup();
    await expect(guard.teardown()).resolves.toBeUndefined();
  });
});
