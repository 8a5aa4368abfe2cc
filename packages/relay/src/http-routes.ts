import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RelayContext } from './context.js';
import { bearerToken, isAllowedClientOrigin, isExtensionOrigin, isLoopbackAddress, safeEqual } from '@argus/security';
import { PairingRefused } from './pairing.js';
import { PairRequest, WIRE_VERSION, type PairResponse } from './wire/index.js';

const MAX_BODY = 16 * 1024;

/** HTTP side of the relay: /config, /status, /pair, plus CORS / Private Network Access preflights. */
export function createHttpHandler(ctx: RelayContext) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    handle(ctx, req, res).catch((error: unknown) => {
      ctx.log('error', 'http handler failed', { error: String(error) });
      if (!res.headersSent)
        json(res, 500, { version: WIRE_VERSION, error: { code: 'internal', message: 'internal error' } });
    });
  };
}

async function handle(ctx: RelayContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const origin = req.headers.origin;
  // every local process shares 127.0.0.1: limits are kept per Origin, so a script cannot use up the extension's
  const caller = origin ?? 'local';
  const url = new URL(req.url ?? '/', 'http://relay.invalid');
  if (!ctx.hostAllowed(req.headers.host, req.socket.localPort))
    return error(
      res,
      421,
      'misdirected',
      'Call the relay by its loopback address (127.0.0.1, localhost or [::1]) and port.',
    );
  if (!isAllowedClientOrigin(origin))
    return error(res, 403, 'forbidden_origin', `Origin ${origin} may not call the Argus relay.`);
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
  if (!ctx.httpLimiter.take(caller)) return error(res, 429, 'rate_limited', 'Too many requests; slow down.');

  if (url.pathname === '/config' && req.method === 'GET') {
    return json(res, 200, {
      version: WIRE_VERSION,
      relayVersion: ctx.relayVersion,
      endpoints: { extension: '/extension', ops: '/ops', cdp: '/cdp', pair: '/pair', status: '/status' },
    });
  }
  if (url.pathname === '/status' && req.method === 'GET') {
    // without the daemon token, nothing: not even whether an extension is paired or connected
    const token = bearerToken(req.headers.authorization);
    if (token === undefined || !safeEqual(token, ctx.daemonToken))
      return error(res, 401, 'unauthorized', 'GET /status needs the daemon token (Authorization: Bearer).');
    return json(res, 200, { version: WIRE_VERSION, ...ctx.status() });
  }
  if (url.pathname === '/pair' && req.method === 'POST') {
    // only the extension itself, or a local non-browser process (no Origin) may ask to pair
    if (!(isExtensionOrigin(origin) || (origin === undefined && isLoopbackAddress(req.socket.remoteAddress)))) {
      return error(
        res,
        403,
        'forbidden_origin',
        'Pairing is allowed only from the Argus extension or a local process.',
      );
    }
    if (!ctx.pairLimiter.take(caller))
      return error(res, 429, 'rate_limited', 'Too many pairing attempts; wait a few seconds.');
    const parsed = PairRequest.safeParse(await readJson(req));
    if (!parsed.success) return error(res, 400, 'invalid_input', 'Malformed pairing request.');
    try {
      const outcome = ctx.pairing.request({ ...parsed.data, origin });
      const body: PairResponse =
        outcome.status === 'approved'
          ? { version: WIRE_VERSION, status: 'approved', pairingToken: outcome.pairingToken }
          : {
              version: WIRE_VERSION,
              status: 'pending',
              requestId: outcome.request.requestId,
              code: outcome.request.code,
              expiresAt: outcome.request.expiresAt,
            };
      if (outcome.status === 'pending') {
        const { code, nodeId, fingerprint } = outcome.request;
        ctx.log('info', 'pairing request waiting for approval', { code, nodeId, fingerprint, origin: origin ?? null });
      }
      return json(res, 200, body);
    } catch (caught) {
      if (!(caught instanceof PairingRefused)) throw caught;
      if (caught.reason === 'bad_launch_token') {
        ctx.setLastError('pairing refused: wrong launch token');
        return error(
          res,
          401,
          'unauthorized',
          'The launch token does not match this relay. Use the token of the running daemon, or pair by code.',
        );
      }
      ctx.log('warn', 'pairing request refused: pool full', { origin: origin ?? null });
      return error(
        res,
        429,
        'rate_limited',
        `Too many pending pairing requests from ${origin ?? 'local processes'}; wait for them to expire (5 minutes) or approve one.`,
      );
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
