import type { IncomingHttpHeaders } from 'node:http';
import { isLoopbackHostHeader } from './host.js';
import { lookupToken, requestToken, tokenId as idOf } from './tokens.js';

export type AuthFailure = {
  ok: false;
  status: 401 | 403 | 421;
  reason: 'cross_origin' | 'bad_host' | 'unauthorized';
  message: string;
};
export type AuthSuccess<T> = {
  ok: true;
  grant: T;
  /** hash of the presented token: a key for per-client limits and logs */ tokenId: string;
};

export interface LoopbackAuthOptions<T> {
  /** The port this listener serves; the Host header must name it. */
  port: number;
  /** Known tokens and what each grants. */
  registry: ReadonlyMap<string, T>;
}

/**
 * The one gate for a loopback HTTP or WebSocket-upgrade request, before any body or frame is read:
 * no Origin (a browser page never reaches the contract), a loopback Host with our port (DNS
 * rebinding), and a known bearer token (`Authorization` header or the WebSocket subprotocol; never
 * the URL). Listeners that serve tokens (the daemon's, a tunnel's) call it with their own registry.
 */
export function authorizeLoopbackRequest<T>(
  headers: IncomingHttpHeaders,
  options: LoopbackAuthOptions<T>,
): AuthSuccess<T> | AuthFailure {
  if (headers.origin !== undefined) {
    return {
      ok: false,
      status: 403,
      reason: 'cross_origin',
      message: 'Cross-origin requests are refused: browsers may not call the Argus daemon.',
    };
  }
  if (!isLoopbackHostHeader(headers.host, options.port)) {
    return {
      ok: false,
      status: 421,
      reason: 'bad_host',
      message: `Host must be 127.0.0.1:${options.port}, localhost:${options.port} or [::1]:${options.port}.`,
    };
  }
  const protocols = headers['sec-websocket-protocol'];
  const token = requestToken({
    authorization: headers.authorization,
    'sec-websocket-protocol': Array.isArray(protocols) ? protocols.join(',') : protocols,
  });
  const grant = lookupToken(token, options.registry);
  if (token === undefined || grant === undefined) {
    return {
      ok: false,
      status: 401,
      reason: 'unauthorized',
      message:
        'Missing or wrong bearer token. Clients read it from .argus/daemon.json; restart the client if the daemon was restarted.',
    };
  }
  return { ok: true, grant, tokenId: idOf(token) };
}
