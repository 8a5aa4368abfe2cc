import { createServer, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  bearerToken,
  isAllowedClientOrigin,
  isExtensionOrigin,
  isLoopbackHostHeader,
  isLoopbackHostname,
  RateLimiter,
  safeEqual,
} from '@argus/security';
import { WebSocketServer, type WebSocket } from 'ws';
import { acceptCdp } from './cdp-endpoint.js';
import { RELAY_VERSION, type RelayContext } from './context.js';
import { acceptExtension } from './extension-endpoint.js';
import { ExtensionLink } from './extension-link.js';
import { createHttpHandler } from './http-routes.js';
import { LeaseQueue } from './lease.js';
import { acceptOps } from './ops-endpoint.js';
import { PairingRegistry } from './pairing.js';
import { RelayTransport } from './relay-transport.js';
import type { RelayOptions, RelayServer, RelayStatus } from './types.js';
import { WIRE_VERSION } from './wire/index.js';

/** Starts the relay on host:port (loopback, 8787 by default). Resolves once it is listening. */
export async function startRelay(options: RelayOptions): Promise<RelayServer> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? (() => {});
  const link = new ExtensionLink(options.commandTimeoutMs ?? 30_000, log, options.reconnectGraceMs ?? 10_000);
  const pairing = new PairingRegistry(options.launchToken, options.pairingFile);
  const leases = new LeaseQueue();
  const transports = new Set<RelayTransport>();
  const statusListeners = new Set<(status: RelayStatus) => void>();
  let url = '';
  let port = 0;
  let tabs = 0;
  let lastError: string | undefined;

  const status = (): RelayStatus => ({
    url,
    extensionConnected: link.connected,
    paired: pairing.pairedCount > 0,
    nodeId: link.info?.nodeId,
    extensionVersion: link.info?.extensionVersion,
    wireVersion: WIRE_VERSION,
    relayVersion: RELAY_VERSION,
    tabs,
    pendingPairings: pairing.list().length,
    lastError: lastError ?? link.lastError,
  });
  const notify = () => {
    const snapshot = status();
    for (const listener of [...statusListeners]) listener(snapshot);
  };
  const ctx: RelayContext = {
    link,
    pairing,
    daemonToken: options.daemonToken,
    httpLimiter: new RateLimiter(60, 20),
    pairLimiter: new RateLimiter(10, 1),
    log,
    relayVersion: RELAY_VERSION,
    // bound to loopback (the default), the relay answers only to loopback names: DNS rebinding defence.
    // An operator who binds it elsewhere on purpose gets no Host check.
    hostAllowed: (hostHeader, localPort) =>
      !isLoopbackHostname(host) || (localPort !== undefined && isLoopbackHostHeader(hostHeader, localPort)),
    status,
    setLastError: (message) => {
      lastError = message;
      notify();
    },
  };

  link.onChange(() => {
    notify();
    if (link.connected) {
      link.send('node.status', {}, { timeoutMs: 5000 }).then(
        (node) => {
          tabs = node.tabs;
          notify();
        },
        () => {},
      );
    }
  });
  link.onEvent((event, params) => {
    // validated against EVENTS by the link before it reaches here
    if (event === 'tab.paused')
      return void options.onPauseChange?.(params as { tabId: number; targetId: string; paused: boolean });
    if (event === 'page.annotate')
      return void options.onAnnotateRequest?.(params as { tabId: number; targetId: string });
    if (event === 'inbox.clear') return void options.onInboxClear?.();
    if (event === 'tab.created') tabs += 1;
    else if (event === 'tab.removed') tabs = Math.max(0, tabs - 1);
    else return;
    notify();
  });

  const http = createServer(createHttpHandler(ctx));
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 * 1024 });
  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const target = new URL(req.url ?? '/', 'http://relay.invalid');
    const origin = req.headers.origin;
    const accept = (then: (ws: WebSocket) => void) => wss.handleUpgrade(req, socket, head, then);
    if (!ctx.hostAllowed(req.headers.host, req.socket.localPort))
      return rejectUpgrade(socket, 421, 'Misdirected Request');
    if (target.pathname === '/extension') {
      if (!isExtensionOrigin(origin)) return rejectUpgrade(socket, 403, 'Only the Argus extension may connect here.');
      return accept((ws) => acceptExtension(ctx, ws, socket));
    }
    if (target.pathname !== '/ops' && target.pathname !== '/cdp') return rejectUpgrade(socket, 404, 'Not found');
    if (!isAllowedClientOrigin(origin))
      return rejectUpgrade(socket, 403, 'Browser pages may not connect to the relay.');
    // header only: a token in the URL (`?token=`) would land in logs and process listings
    const token = bearerToken(req.headers.authorization);
    if (token === undefined || !safeEqual(token, options.daemonToken))
      return rejectUpgrade(socket, 401, 'A valid daemon token is required.');
    if (target.pathname === '/ops') return accept((ws) => acceptOps(ctx, ws));
    const targetId = target.searchParams.get('targetId');
    if (!targetId) return rejectUpgrade(socket, 400, 'Pass ?targetId= of the tab to lease.');
    return accept((ws) => acceptCdp(ctx, leases, ws, targetId));
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 8787, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address();
  port = typeof address === 'object' && address ? address.port : 0;
  url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  log('info', 'relay listening', { url });

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    status,
    transport: (transportOptions = {}) => {
      const transport = new RelayTransport(link, transportOptions, (closed) => transports.delete(closed));
      transports.add(transport);
      return transport;
    },
    notify: (event, params) => link.notify(event, params),
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    approvePairing: (code) => {
      const approved = pairing.approve(code);
      notify();
      return approved;
    },
    pendingPairings: () => pairing.list(),
    close() {
      closing ??= (async () => {
        for (const transport of [...transports]) transport.terminate('relay closed');
        link.close();
        for (const client of wss.clients) client.terminate();
        wss.close();
        http.closeAllConnections();
        await new Promise<void>((resolve) => http.close(() => resolve()));
      })();
      return closing;
    },
  };
}

function rejectUpgrade(socket: Duplex, status: number, message: string): void {
  socket.end(`HTTP/1.1 ${status} ${message}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
