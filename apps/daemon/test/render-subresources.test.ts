import { lookup } from 'node:dns/promises';
import type { AddressInfo } from 'node:net';
import { createArgusClient } from '@argus/client';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { useHarness } from './harness.js';

/**
 * SSRF through a rendered page. `public.argus.test` stands for a public web site: the daemon's
 * checks resolve it to a public address (93.184.216.34), and Chromium reaches it through a proxy
 * (the page's own server, 127.0.0.2, answering proxy requests), as a browser behind a corporate
 * proxy would. Loopback is never proxied. The page then makes the browser ask this machine's
 * loopback services (the fixture server on 127.0.0.1, a WebSocket server) for things, every way it can.
 */
const PUBLIC_NAME = 'public.argus.test';
let site: FixtureServer;
let sockets: WebSocketServer;
let socketConnections = 0;
let wsPort = 0;
/** Filled before the harness starts (hooks run in order): the proxy is the site's server. */
const daemonEnv: NodeJS.ProcessEnv = {};

beforeAll(async () => {
  sockets = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  sockets.on('connection', (socket) => {
    socketConnections++;
    socket.close();
  });
  await new Promise((resolve) => sockets.once('listening', resolve));
  wsPort = (sockets.address() as AddressInfo).port;
  site = await startFixtureServer({
    hostname: '127.0.0.2',
    pages: {
      '/article.html': () => attackPage(h.server.port, wsPort),
      '/worker.js': () => ({
        contentType: 'text/javascript',
        body: `fetch('http://127.0.0.1:${h.server.port}/secret?via=worker')`,
      }),
    },
  });
  daemonEnv.ARGUS_CHROME_FLAGS = `--proxy-server=http://127.0.0.2:${site.port}`;
});
const h = useHarness(daemonEnv, {
  resolveHost: async (host) =>
    host === PUBLIC_NAME ? ['93.184.216.34'] : (await lookup(host, { all: true })).map((answer) => answer.address),
});

function attackPage(port: number, wsPort: number): string {
  const local = `http://127.0.0.1:${port}`;
  const named = `http://localhost:${port}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Innocent article</title>
<script>
  fetch('${local}/secret?via=fetch').catch(() => undefined);
  try { new WebSocket('ws://127.0.0.1:${wsPort}/'); } catch {}
  try { new Worker('/worker.js'); } catch {}
  new Worker(URL.createObjectURL(new Blob(["fetch('${local}/secret?via=blob-worker').catch(() => 0)"])));
  try { const x = new XMLHttpRequest(); x.open('GET', '${named}/secret?via=sync-xhr', false); x.send(); } catch {}
</script>
<script src="${named}/secret.js"></script>
</head><body><article><h1>Innocent article</h1>
<p>Some words about storage batteries that a reader came for, long enough to be an article of its own.</p>
<p>More words about storage batteries, their chemistry, their prices and how long they last at home.</p>
<img src="${local}/secret.png" alt="secret">
<iframe src="${local}/secret-frame.html"></iframe>
</article></body></html>`;
}

afterAll(async () => {
  await site.close();
  await new Promise((resolve) => sockets.close(resolve));
});

describe("an agent's browser-tier render cannot reach private addresses through the page's own requests", () => {
  it('fetch, XHR, scripts, images, frames, WebSockets and workers to loopback never reach it and are listed', async () => {
    const { token } = await h.client.token.create.mutate({ scope: 'read' });
    const agent = createArgusClient({ url: `http://127.0.0.1:${h.daemon.port}`, token, cwd: h.workspace });
    try {
      h.server.resetTraffic();
      const url = `http://${PUBLIC_NAME}:${site.port}/article.html`;
      const page = await agent.client.web.fetch.query({ url, browser: true });
      expect(page.tier).toBe('browser');
      expect(page.text).toContain('storage batteries');
      expect(site.traffic().total).toBeGreaterThan(0);
      // anything that slipped through has time to arrive: the loopback services saw nothing at all
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(h.server.traffic().total).toBe(0);
      expect(socketConnections).toBe(0);
      const listed = page.blockedRequests.map((request) => `${request.type} ${request.url}`);
      const port = h.server.port;
      for (const expected of [
        // Chromium reports fetch() as XHR
        `XHR http://127.0.0.1:${port}/secret?via=fetch`,
        `WebSocket ws://127.0.0.1:${wsPort}/`,
        `XHR http://localhost:${port}/secret?via=sync-xhr`,
        `Script http://localhost:${port}/secret.js`,
        `Image http://127.0.0.1:${port}/secret.png`,
        `Document http://127.0.0.1:${port}/secret-frame.html`,
        `Worker http://${PUBLIC_NAME}:${site.port}/worker.js`,
      ])
        expect(listed, expected).toContain(expected);
      for (const request of page.blockedRequests) expect(request.reason, request.url).toMatch(/loopback|worker/);
    } finally {
      agent.close();
    }
  });

  it("the operator's own render still reaches local servers (developing against localhost)", async () => {
    h.server.resetTraffic();
    const page = await h.client.web.fetch.query({ url: site.urlFor('/article.html'), browser: true });
    expect(page.blockedRequests).toEqual([]);
    expect(h.server.traffic().paths['/secret.png']).toBe(1);
  });
});
