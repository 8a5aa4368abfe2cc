import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ArgusError, type AppRouter, type CallContext } from '@argus/protocol';
import { bearerToken, isLoopbackHostHeader, isLoopbackHostname } from '@argus/security';
import { TRPCError } from '@trpc/server';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import { callAs } from './dispatch.js';
import type { Logger } from './logger.js';
import type { ShareCheck, ShareStore, SharedToken } from './share-store.js';

/** What the MCP endpoint learns about an authenticated shared token. */
export interface TunnelSession {
  /** The shared token's id (not secret): an MCP client's cancel is matched among this token's calls. */
  id: string;
  name: string;
  scope: 'read' | 'write';
  /** Contract paths the token may run (its MCP tools are these). */
  commands: readonly string[];
  /**
   * Runs a command as this token: allow-list, file policy and tab ownership apply as for tRPC.
   * `signal` abandons it: the command is cancelled, as one over HTTP is when its request closes.
   */
  call(path: string, input: unknown, signal?: AbortSignal): Promise<unknown>;
}

/**
 * MCP over Streamable HTTP at `/mcp`, provided by the plugin (`@argus/plugin/http`), which owns the
 * tool generation; the daemon only authenticates and hands over the session.
 */
export interface McpHttpEndpoint {
  handle(req: IncomingMessage, res: ServerResponse, session: TunnelSession): Promise<void>;
}

export interface TunnelOptions {
  /** The daemon's router (a getter: the router is built after the services that hold the tunnel). */
  router: () => AppRouter;
  shares: ShareStore;
  log: Logger;
  onActivity: () => void;
  mcp?: McpHttpEndpoint | undefined;
  /** A token was presented after its expiry: its tabs go (they would otherwise wait for a revoke). */
  onExpired?: (tokenId: string) => Promise<unknown>;
}

function contextFor(token: SharedToken): CallContext {
  return { scopes: [token.scope], commands: token.commands, client: token.name, owner: token.id };
}

function refusal(check: Exclude<ShareCheck, { ok: true }>, expiresAt?: string): string {
  if (check.reason === 'expired')
    return `This shared token expired${expiresAt ? ` at ${expiresAt}` : ''}. Ask the operator for a new one (\`argus share\`).`;
  return "Missing or wrong bearer token. The tunnel accepts only tokens minted with `argus share` (never the daemon's own token); a revoked token stops working at once.";
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/**
 * The second listener, for remote agents: serves only shared tokens (`argus share`) with their
 * allow-list and own tabs; tRPC over HTTP at /trpc and MCP (Streamable HTTP) at /mcp. No WebSocket,
 * so no streams. Loopback by default (an SSH tunnel carries it elsewhere); another address needs
 * `--i-know`.
 */
export class Tunnel {
  private running: { server: Server; host: string; port: number } | undefined;
  private trpcHandler: ReturnType<typeof createHTTPHandler> | undefined;

  constructor(private readonly options: TunnelOptions) {}

  private get trpc(): ReturnType<typeof createHTTPHandler> {
    this.trpcHandler ??= createHTTPHandler({
      router: this.options.router(),
      basePath: '/trpc/',
      createContext: async ({ req }): Promise<CallContext> => {
        const check = await this.authenticate(req, '/trpc');
        if (!check.ok) {
          const cause = new ArgusError('unauthorized', check.message);
          throw new TRPCError({ code: 'UNAUTHORIZED', message: cause.message, cause });
        }
        return contextFor(check.token);
      },
    });
    return this.trpcHandler;
  }

  get url(): string | null {
    if (!this.running) return null;
    const host = this.running.host.includes(':') ? `[${this.running.host}]` : this.running.host;
    return `http://${host}:${this.running.port}`;
  }

  get address(): { host: string; port: number } | undefined {
    return this.running ? { host: this.running.host, port: this.running.port } : undefined;
  }

  /** Opens (or moves) the listener. */
  async listen(host: string, port: number): Promise<{ host: string; port: number }> {
    if (this.running && this.running.host === host && (port === 0 || this.running.port === port)) return this.address!;
    await this.close();
    const server = createServer((req, res) => void this.serve(req, res));
    server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    this.running = { server, host, port: (server.address() as AddressInfo).port };
    this.options.log.info('tunnel.listening', { host, port: this.running.port });
    return this.address!;
  }

  /** Checks the bearer token of a request; every refusal is logged. */
  private async authenticate(
    req: IncomingMessage,
    path: string,
  ): Promise<{ ok: true; token: SharedToken } | { ok: false; message: string }> {
    const check = this.options.shares.check(bearerToken(req.headers.authorization));
    if (check.ok) return check;
    const expiresAt =
      check.reason === 'expired'
        ? this.options.shares.list().find((token) => token.id === check.id)?.expiresAt
        : undefined;
    // check.id: a prefix of the presented token's sha256, never the token
    this.options.log.warn('tunnel.denied', {
      reason: check.reason,
      token: check.id,
      path,
      remote: req.socket.remoteAddress,
    });
    if (check.reason === 'expired' && check.id) await this.options.onExpired?.(check.id).catch(() => undefined);
    return { ok: false, message: refusal(check, expiresAt) };
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.options.onActivity();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/health') return json(res, 200, { ok: true });
    if (req.headers.origin !== undefined)
      return json(res, 403, {
        error: {
          code: 'forbidden',
          message: 'Cross-origin requests are refused: browsers may not call the Argus tunnel.',
        },
      });
    // DNS rebinding: on loopback, only loopback names (any port: an SSH tunnel's far end has its own)
    if (this.running && isLoopbackHostname(this.running.host) && !isLoopbackHostHeader(req.headers.host, 'any')) {
      return json(res, 421, {
        error: { code: 'forbidden', message: 'Host must be a loopback name (127.0.0.1, localhost, [::1]).' },
      });
    }
    if (path.startsWith('/trpc/')) return this.trpc(req, res);
    if (path !== '/mcp')
      return json(res, 404, { error: { code: 'not_found', message: 'The tunnel serves /trpc and /mcp.' } });
    const check = await this.authenticate(req, path);
    if (!check.ok)
      return json(
        res,
        401,
        { error: { code: 'unauthorized', message: check.message } },
        { 'www-authenticate': 'Bearer' },
      );
    if (!this.options.mcp)
      return json(res, 404, {
        error: { code: 'unsupported', message: 'This daemon was started without the MCP endpoint; use tRPC at /trpc.' },
      });
    const ctx = contextFor(check.token);
    const session: TunnelSession = {
      id: check.token.id,
      name: check.token.name,
      scope: check.token.scope,
      commands: check.token.commands,
      call: (command, input, signal) =>
        callAs(this.options.router(), command, input, signal ? { ...ctx, signal } : ctx),
    };
    await this.options.mcp.handle(req, res, session).catch((error: unknown) => {
      this.options.log.error('tunnel.mcp_failed', { message: (error as Error).message });
      if (!res.headersSent)
        json(res, 500, { error: { code: 'internal', message: 'The MCP endpoint failed; see the daemon log.' } });
    });
  }

  async close(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    if (!running) return;
    running.server.closeAllConnections();
    await new Promise<void>((resolve) => running.server.close(() => resolve()));
  }
}
