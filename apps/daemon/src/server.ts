import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { ArgusError, type AppRouter, type CallContext, type Scope } from '@argus/protocol';
import { authorizeLoopbackRequest, ConnectionLimiter, WS_PROTOCOL } from '@argus/security';
import { TRPCError } from '@trpc/server';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import { WebSocketServer } from 'ws';
import { randomUUID } from 'node:crypto';
import {
  CLIENT_HEADER,
  CWD_HEADER,
  LEASE_HEADER,
  LEASE_WAIT_HEADER,
  SESSION_HEADER,
  callerCwd,
  callerLeaseWait,
  callerLeases,
  callerName,
  callerSession,
} from './caller-headers.js';
import { createCallHandler } from './http-calls.js';
import { WsCallSignals } from './ws-call-signals.js';

export interface ServerOptions {
  router: AppRouter;
  /** Tokens and the scopes each grants. */
  tokens: () => ReadonlyMap<string, readonly Scope[]>;
  /** Called on every request (idle timer). */
  onActivity: () => void;
  /** Refused requests and sockets are logged here (never the token). */
  onRefused?: (event: string, fields: Record<string, unknown>) => void;
  port?: number;
  /**
   * Open WebSockets one token may hold (default 32: every local client shares the daemon's token, and
   * each MCP server holds two, its calls and its streams); more are refused at the upgrade with 429.
   */
  maxSocketsPerToken?: number;
  /** A WebSocket closed: what was bound to it (its tab leases) ends. */
  onConnectionClosed?: (connection: string) => void;
  /**
   * Answer single HTTP queries and mutations without tRPC's fetch adapter (default true; see
   * http-calls.ts). Off, every request goes through the adapter: tests compare the two.
   */
  directCalls?: boolean;
  /** Largest request body or WebSocket frame (default 64 MB; tests set less). */
  maxMessageBytes?: number;
}

export interface RunningServer {
  port: number;
  server: Server;
  /** HTTP requests still being answered (a long command keeps the daemon from idling out). */
  inFlight(): number;
  close(): Promise<void>;
}

/** Largest request body or WebSocket frame an authenticated caller may send (`load-html` takes up to 50 MB). */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

function unauthorized(): TRPCError {
  const cause = new ArgusError(
    'unauthorized',
    'Missing or wrong bearer token. Clients read it from .argus/daemon.json; restart the client if the daemon was restarted.',
  );
  return new TRPCError({ code: 'UNAUTHORIZED', message: cause.message, cause });
}

/** Answers a refused upgrade on the raw socket before any WebSocket frame can be read. */
function refuseUpgrade(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${statusText(status)}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  socket.destroy();
}

/** Adds the name the caller gave itself, if any (labels only: it grants nothing). */
function withName(ctx: CallContext, raw: unknown): CallContext {
  const client = callerName(raw);
  return client === undefined ? ctx : { ...ctx, client };
}

function statusText(status: number): string {
  return (
    (
      {
        400: 'Bad Request',
        401: 'Unauthorized',
        403: 'Forbidden',
        404: 'Not Found',
        421: 'Misdirected Request',
        429: 'Too Many Requests',
        431: 'Request Header Fields Too Large',
      } as Record<number, string>
    )[status] ?? 'Error'
  );
}

/**
 * A request Node's HTTP parser refuses before any handler runs (a query's `?input=` past the 16 KB
 * header limit, a malformed request line) gets the contract's typed error body instead of Node's bare
 * status line, so clients see `payload_too_large` / `invalid_input` with what to do next.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const argus = tooLarge
    ? {
        code: 'payload_too_large',
        message:
          'The request line and headers exceed 16 KB: a query input this large does not fit in a URL. Send less (shorter text, fewer items), or use the mutation form of the command.',
      }
    : {
        code: 'invalid_input',
        message: `The daemon could not parse the HTTP request (${error.code ?? 'malformed'}). Use the Argus client or CLI.`,
      };
  const body = JSON.stringify({
    error: {
      message: argus.message,
      code: tooLarge ? -32600 : -32700,
      data: { code: tooLarge ? 'PAYLOAD_TOO_LARGE' : 'PARSE_ERROR', httpStatus: status, argus },
    },
  });
  socket.end(
    `HTTP/1.1 ${status} ${statusText(status)}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/**
 * Serves the contract on 127.0.0.1 only: HTTP (+ batching) at /trpc, WebSocket at /trpc, /health.
 * Every request passes one gate (`authorizeLoopbackRequest`: no Origin, loopback Host, bearer token)
 * before a body or frame is read; a WebSocket is authenticated at the upgrade (token in the
 * Authorization header or the `argus.bearer.<token>` subprotocol), so an unauthenticated socket
 * never opens and can never make the daemon buffer a frame.
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  let port = 0;
  const maxMessageBytes = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  const refused = options.onRefused ?? (() => {});
  const gate = (req: IncomingMessage) => authorizeLoopbackRequest(req.headers, { port, registry: options.tokens() });
  /** Scopes of authenticated requests, keyed by the request object tRPC hands back to createContext. */
  const granted = new WeakMap<IncomingMessage, readonly Scope[]>();
  const contextFor = (req: IncomingMessage): CallContext => {
    const scopes = granted.get(req);
    if (!scopes) throw unauthorized();
    return { scopes };
  };

  const httpContext = (req: IncomingMessage): CallContext =>
    withName(
      {
        ...contextFor(req),
        cwd: callerCwd(req.headers[CWD_HEADER]),
        session: callerSession(req.headers[SESSION_HEADER]),
        leases: callerLeases(req.headers[LEASE_HEADER]),
        leaseWaitMs: callerLeaseWait(req.headers[LEASE_WAIT_HEADER]),
      },
      req.headers[CLIENT_HEADER],
    );
  const trpcHandler = createHTTPHandler({
    router: options.router,
    basePath: '/trpc/',
    maxBodySize: maxMessageBytes,
    createContext: ({ req }) => httpContext(req),
  });
  // single queries and mutations (every call the CLI and the MCP server make) skip the fetch adapter
  const answerCall =
    options.directCalls === false
      ? () => false
      : createCallHandler(options.router, { basePath: '/trpc/', maxBodySize: maxMessageBytes, context: httpContext });
  let inFlight = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    options.onActivity();
    inFlight++;
    // the idle clock starts again when the answer has gone, not when the question came
    res.once('close', () => {
      inFlight--;
      options.onActivity();
    });
    const url = req.url ?? '/';
    const auth = gate(req);
    if (!auth.ok && auth.reason !== 'unauthorized') {
      // a browser page (Origin) or a rebound host name: refused before anything else, body unread
      refused('http.refused', { reason: auth.reason, path: url.split('?')[0] });
      res
        .writeHead(auth.status, { 'content-type': 'application/json', connection: 'close' })
        .end(JSON.stringify({ error: auth.message }));
      return;
    }
    if (url === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      return;
    }
    if (!url.startsWith('/trpc/')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    if (!auth.ok) {
      // tRPC answers with the contract's `unauthorized` error (createContext throws before the body
      // is parsed); the connection is not kept for another try
      refused('http.refused', { reason: auth.reason, path: url.split('?')[0] });
      res.setHeader('connection', 'close');
    } else {
      granted.set(req, auth.grant);
      if (answerCall(req, res)) return;
    }
    trpcHandler(req, res);
  });
  server.keepAliveTimeout = 30_000;
  server.on('clientError', answerClientError);

  const perToken = new ConnectionLimiter(options.maxSocketsPerToken ?? 32);
  // a call on a socket is cancelled when its caller stops it or the socket closes (see WsCallSignals)
  const callSignals = new WsCallSignals();
  const connections = new WeakMap<IncomingMessage, string>();
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: maxMessageBytes,
    // the client offers `argus` plus `argus.bearer.<token>`; answer `argus` so the token is never echoed
    handleProtocols: (protocols) => (protocols.has(WS_PROTOCOL) ? WS_PROTOCOL : false),
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if ((req.url ?? '').split('?')[0] !== '/trpc') return refuseUpgrade(socket, 404, 'not found');
    const auth = gate(req);
    if (!auth.ok) {
      refused('ws.refused', { reason: auth.reason });
      return refuseUpgrade(socket, auth.status, auth.message);
    }
    const release = perToken.acquire(auth.tokenId);
    if (!release) {
      refused('ws.refused', { reason: 'too_many_sockets', tokenId: auth.tokenId });
      return refuseUpgrade(
        socket,
        429,
        `Too many open WebSockets for this token (${perToken.count(auth.tokenId)}); close some first.`,
      );
    }
    options.onActivity();
    granted.set(req, auth.grant);
    wss.handleUpgrade(req, socket, head, (ws) => {
      // a daemon-side id for the socket: leases taken on it are held by it and end when it closes
      const connection = randomUUID();
      connections.set(req, connection);
      ws.once('close', () => {
        release();
        options.onConnectionClosed?.(connection);
      });
      // each call on the socket is activity for the idle clock, as each HTTP request is
      ws.on('message', options.onActivity);
      callSignals.follow(ws);
      wss.emit('connection', ws, req);
    });
  });
  const wsHandler = applyWSSHandler({
    wss,
    router: callSignals.signalled(options.router),
    createContext: ({ req }): CallContext => {
      options.onActivity();
      // the caller's directory rides in the upgrade URL (`?cwd=`, URI-encoded): it is not a secret
      const url = req.url ?? '';
      return withName(
        {
          ...contextFor(req),
          cwd: callerCwd(/[?&]cwd=([^&]*)/.exec(url)?.[1]),
          session: callerSession(/[?&]session=([^&]*)/.exec(url)?.[1]),
          leases: callerLeases(/[?&]lease=([^&]*)/.exec(url)?.[1]),
          leaseWaitMs: callerLeaseWait(/[?&]leaseWait=([^&]*)/.exec(url)?.[1]),
          connection: connections.get(req),
        },
        /[?&]client=([^&]*)/.exec(url)?.[1],
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    port,
    server,
    inFlight: () => inFlight,
    async close() {
      wsHandler.broadcastReconnectNotification();
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
