import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Fixtures {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** a different site (localhost vs 127.0.0.1) so the iframe becomes an out-of-process frame */
  crossOrigin: string;
  close(): Promise<void>;
}

const PAGES: Record<string, (fixtures: Fixtures) => string> = {
  '/': () => `<!doctype html><title>Argus fixture</title>
    <h1 id="text">before</h1>
    <button id="btn" style="position:absolute;left:20px;top:80px;width:120px;height:40px"
      onclick="document.getElementById('text').textContent='clicked'">Click me</button>`,
  '/frame-host': (f) => `<!doctype html><title>Frame host</title><h1>host</h1>
    <iframe id="child" src="${f.crossOrigin}/frame-child" width="400" height="200"></iframe>`,
  '/frame-child': () => `<!doctype html><title>Frame child</title><p id="inner">inside the cross-origin frame</p>`,
};

async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port; // listen() on TCP always yields AddressInfo
}

export async function startFixtures(): Promise<Fixtures> {
  const fixtures: Fixtures = { origin: '', crossOrigin: '', close: async () => {} };
  const handler = createServer((req, res) => {
    const page = PAGES[new URL(req.url ?? '/', 'http://x').pathname];
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(fixtures));
  });
  const second = createServer((req, res) => handler.emit('request', req, res));
  const port = await listen(handler, '127.0.0.1');
  const crossPort = await listen(second, '127.0.0.1');
  fixtures.origin = `http://127.0.0.1:${port}`;
  fixtures.crossOrigin = `http://localhost:${crossPort}`;
  fixtures.close = async () => {
    for (const server of [handler, second]) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  };
  return fixtures;
}
