import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ArgusError, type AppRouter, type CallContext, type Scope } from '@argus/protocol';
import { bearerToken, safeEqual } from '@argus/security';
import { TRPCError } from '@trpc/server';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import { WebSocketServer } from 'ws';

export interface ServerOptions {
  router: AppRouter;
  /** Tokens and the scopes each grants. */
  tokens: () => ReadonlyMap<string, readonly Scope[]>;
  /** Called on every request (idle timer). */
  onActivity: () => void;
  port?: number;
}

export interface RunningServer {
  port: number;
  server: Server;
  close(): Promise<void>;
}

function scopesFor(token: string | undefined, tokens: ReadonlyMap<string, readonly Scope[]>): readonly Scope[] | undefined {
  if (!token) return undefined;
  for (const [known, scopes] of tokens) if (safeEqual(token, known)) return scopes;
  return undefined;
}

function unauthorized(): TRPCError {
  const cause = new ArgusError('unauthorized', 'Missing or wrong bearer token. Clients read it from .argus/daemon.json; restart the client if the daemon was restarted.');
  return new TRPCError({ code: 'UNAUTHORIZED', message: cause.message, cause });
}

/** Serves the contract on 127.0.0.1 only: HTTP (+ batching) at /trpc, WebSocket at /trpc, /health. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const trpcHandler = createHTTPHandler({
    router: options.router,
    basePath: '/trpc/',
    createContext: ({ req }): CallContext => {
      const scopes = scopesFor(bearerToken(req.headers.authorization), options.tokens());
      if (!scopes) throw unauthorized();
      return { scopes };
    },
  });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    options.onActivity();
    const url = req.url ?? '/';
    if (url === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      return;
    }
    if (req.headers.origin) {
      // browsers never get to call the daemon: refuse any cross-site request outright
      res.writeHead(403, { 'content-type': 'application/json' }).end('{"error":"cross-origin requests are refused"}');
      return;
    }
    if (url.startsWith('/trpc/')) {
      trpcHandler(req, res);
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
  });
  server.keepAliveTimeout = 30_000;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    // tRPC's wsLink appends `?connectionParams=1` when it sends the token as connection params
    if ((req.url ?? '').split('?')[0] !== '/trpc' || req.headers.origin) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  const wsHandler = applyWSSHandler({
    wss,
    router: options.router,
    createContext: ({ info }): CallContext => {
      options.onActivity();
      const token = (info.connectionParams as { token?: unknown } | null)?.token;
      const scopes = scopesFor(typeof token === 'string' ? token : undefined, options.tokens());
      if (!scopes) throw unauthorized();
      return { scopes };
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    server,
    async close() {
      wsHandler.broadcastReconnectNotification();
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
