import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RelayContext } from './context.js';
import { isAllowedClientOrigin, isExtensionOrigin, isLoopback } from './origin.js';
import { bearerFrom, safeEqual } from './tokens.js';
import { PairRequest, WIRE_VERSION, type PairResponse } from './wire/index.js';

const MAX_BODY = 16 * 1024;

/** HTTP side of the relay: /config, /status, /pair, plus CORS / Private Network Access preflights. */
export function createHttpHandler(ctx: RelayContext) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    handle(ctx, req, res).catch((error: unknown) => {
      ctx.log('error', 'http handler failed', { error: String(error) });
      if (!res.headersSent) json(res, 500, { version: WIRE_VERSION, error: { code: 'internal', message: 'internal error' } });
    });
  };
}

async function handle(ctx: RelayContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const origin = req.headers.origin;
  const ip = req.socket.remoteAddress ?? 'unknown';
  const url = new URL(req.url ?? '/', 'http://relay.invalid');
  if (!isAllowedClientOrigin(origin)) return error(res, 403, 'forbidden_origin', `Origin ${origin} may not call the Argus relay.`);
  if (origin) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
  }
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
      'Access-Control-Allow-Headers': 'content-type, authorization',
      // Chrome's Private Network Access asks before a less-private context talks to loopback
      'Access-Control-Allow-Private-Network': 'true',
      'Access-Control-Max-Age': '600',
    });
    return void res.end();
  }
  if (!ctx.httpLimiter.take(ip)) return error(res, 429, 'rate_limited', 'Too many requests; slow down.');

  if (url.pathname === '/config' && req.method === 'GET') {
    return json(res, 200, {
      version: WIRE_VERSION,
      relayVersion: ctx.relayVersion,
      endpoints: { extension: '/extension', ops: '/ops', cdp: '/cdp', pair: '/pair', status: '/status' },
    });
  }
  if (url.pathname === '/status' && req.method === 'GET') {
    const status = ctx.status();
    const token = bearerFrom(req.headers.authorization, url);
    if (token !== undefined && safeEqual(token, ctx.daemonToken)) return json(res, 200, { version: WIRE_VERSION, ...status });
    // unauthenticated callers learn only whether an extension is there
    return json(res, 200, { version: WIRE_VERSION, relayVersion: status.relayVersion, extensionConnected: status.extensionConnected, paired: status.paired });
  }
  if (url.pathname === '/pair' && req.method === 'POST') {
    // only the extension itself, or a local non-browser process (no Origin) may ask to pair
    if (!(isExtensionOrigin(origin) || (origin === undefined && isLoopback(req.socket.remoteAddress)))) {
      return error(res, 403, 'forbidden_origin', 'Pairing is allowed only from the Argus extension or a local process.');
    }
    if (!ctx.pairLimiter.take(ip)) return error(res, 429, 'rate_limited', 'Too many pairing attempts; wait a few seconds.');
    const parsed = PairRequest.safeParse(await readJson(req));
    if (!parsed.success) return error(res, 400, 'invalid_input', 'Malformed pairing request.');
    try {
      const outcome = ctx.pairing.request({ ...parsed.data, origin });
      const body: PairResponse =
        outcome.status === 'approved'
          ? { version: WIRE_VERSION, status: 'approved', pairingToken: outcome.pairingToken }
          : { version: WIRE_VERSION, status: 'pending', requestId: outcome.request.requestId, code: outcome.request.code, expiresAt: outcome.request.expiresAt };
      if (outcome.status === 'pending') ctx.log('info', 'pairing request waiting for approval', { code: outcome.request.code, nodeId: outcome.request.nodeId });
      return json(res, 200, body);
    } catch (caught) {
      const reason = (caught as Error).message;
      if (reason === 'bad_launch_token') {
        ctx.setLastError('pairing refused: wrong launch token');
        return error(res, 401, 'unauthorized', 'The launch token does not match this relay. Use the token of the running daemon, or pair by code.');
      }
      return error(res, 429, 'rate_limited', 'Too many pending pairing requests.');
    }
  }
  return error(res, 404, 'not_found', `No route ${req.method} ${url.pathname}.`);
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) return req.destroy();
      chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        resolve(undefined);
      }
    });
    req.on('error', () => resolve(undefined));
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

function error(res: ServerResponse, status: number, code: string, message: string): void {
  json(res, status, { version: WIRE_VERSION, error: { code, message } });
}
