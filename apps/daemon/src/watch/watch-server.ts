import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { isLoopbackHostHeader } from '@argus/security';
import { WebSocketServer } from 'ws';
import { WATCH_CSS, WATCH_HTML, WATCH_JS } from './watch-page.js';
import { serveViewer, type ViewerDeps } from './watch-viewer.js';

/** Viewers open at once, over all links. */
const MAX_VIEWERS = 32;
/** A viewer sends only its token, clicks and key names. */
const MAX_VIEWER_MESSAGE = 4 * 1024;

function headersFor(port: number, type: string): Record<string, string> {
  const self = `ws://127.0.0.1:${port} ws://localhost:${port}`;
  return {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    // only this listener's own script and style, frames as blob: images, a socket back to this listener
    'content-security-policy': `default-src 'none'; script-src 'self'; style-src 'self'; img-src blob:; connect-src ${self}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  };
}

const ASSETS: Record<string, { type: string; body: string }> = {
  '/watch': { type: 'text/html; charset=utf-8', body: WATCH_HTML },
  '/watch.js': { type: 'text/javascript; charset=utf-8', body: WATCH_JS },
  '/watch.css': { type: 'text/css; charset=utf-8', body: WATCH_CSS },
};

function refuse(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} Refused\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  socket.destroy();
}

/**
 * The watch listener: its own 127.0.0.1 port, opened on the first `argus watch`, apart from the
 * contract's listener, which refuses every request that carries an Origin (a web page can never
 * call the daemon) and never sees a watch token. Here a browser page is the client: it may load the
 * viewer's static files, and open a socket only from the viewer's own origin; the socket carries
 * nothing until a watch token for the tab arrives as its first message. Tokens never travel in a
 * URL: a request with a query string is refused.
 */
export class WatchServer {
  private server: Server | undefined;
  private wss: WebSocketServer | undefined;
  private listening: Promise<number> | undefined;

  constructor(private readonly deps: ViewerDeps) {}

  /** The listener's port, opening it on first use. */
  port(): Promise<number> {
    this.listening ??= this.listen();
    return this.listening;
  }

  get viewers(): number {
    return this.wss?.clients.size ?? 0;
  }

  private async listen(): Promise<number> {
    let port = 0;
    const refused = (reason: string, path: string) => this.deps.log.warn('watch.refused', { reason, path });
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const [path = '/', query] = (req.url ?? '/').split('?');
      const fail = (status: number, reason: string, message: string) => {
        refused(reason, path);
        res
          .writeHead(status, { 'content-type': 'application/json', connection: 'close' })
          .end(JSON.stringify({ error: message }));
      };
      if (!isLoopbackHostHeader(req.headers.host, port)) return fail(421, 'host', 'Use the URL `argus watch` printed.');
      if (query !== undefined)
        return fail(400, 'query', 'The watch page takes no query string: its token goes in the #fragment.');
      if (req.method !== 'GET' && req.method !== 'HEAD') return fail(405, 'method', 'Only GET.');
      const asset = ASSETS[path];
      if (!asset) return fail(404, 'not_found', 'Not found.');
      res.writeHead(200, headersFor(port, asset.type)).end(req.method === 'HEAD' ? undefined : asset.body);
    });
    const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_VIEWER_MESSAGE });
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => socket.destroy());
      const [path, query] = (req.url ?? '').split('?');
      if (path !== '/watch/ws') return refuse(socket, 404, 'not found');
      if (query !== undefined) {
        refused('query', path);
        return refuse(socket, 400, 'No query string: the watch token goes in the first message, never the URL.');
      }
      if (!isLoopbackHostHeader(req.headers.host, port)) {
        refused('host', path);
        return refuse(socket, 421, 'Use the URL `argus watch` printed.');
      }
      // only the viewer page itself (any other page's socket carries its own origin)
      const origin = req.headers.origin;
      if (origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`) {
        refused('origin', path);
        return refuse(socket, 403, 'Only the watch page may open this socket.');
      }
      if (wss.clients.size >= MAX_VIEWERS) {
        refused('too_many_viewers', path);
        return refuse(socket, 429, `${MAX_VIEWERS} viewers are open already; close some first.`);
      }
      wss.handleUpgrade(req, socket, head, (ws) => serveViewer(ws, this.deps));
    });
    server.on('clientError', (_error, socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    port = (server.address() as AddressInfo).port;
    this.server = server;
    this.wss = wss;
    return port;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    for (const client of this.wss?.clients ?? []) client.terminate();
    this.wss?.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    this.server = undefined;
    this.listening = undefined;
  }
}
