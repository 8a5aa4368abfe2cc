import type CDP from 'chrome-remote-interface';
import { ArgusError } from '@argus/protocol';
import { type Corkable, ProtocolError, StreamTransport, type Transport, TransportClosedError } from './transport.js';

interface CriProtocolFailure {
  response?: { code?: number; message?: string; data?: string };
  message?: string;
}

type CriClient = Awaited<ReturnType<typeof CDP>>;

/**
 * The TCP socket under the client's WebSocket (chrome-remote-interface's `_ws`, ws's `_socket`,
 * both pinned): undefined if either ever changes shape, and then every message is written alone.
 */
function socketOf(client: CriClient): Corkable | undefined {
  const socket = (client as unknown as { _ws?: { _socket?: Partial<Corkable> } })._ws?._socket;
  return typeof socket?.cork === 'function' && typeof socket.uncork === 'function' ? (socket as Corkable) : undefined;
}

/** A Transport over chrome-remote-interface's WebSocket client (connect mode, the pool). */
class CriTransport extends StreamTransport {
  private readonly socket: Corkable | undefined;

  constructor(private readonly client: CriClient) {
    super();
    this.socket = socketOf(client);
    client.on('event', (message) => {
      this.emit({ method: message.method, params: message.params, sessionId: message.sessionId });
    });
    client.on('disconnect', () => this.markClosed('the browser connection dropped'));
  }

  async send(method: string, params: object | undefined, sessionId: string | undefined): Promise<unknown> {
    if (this.closed) throw new TransportClosedError(`Cannot send ${method}: the browser connection is closed`);
    this.batchWrites(this.socket);
    try {
      return await this.client.send(method, params ?? {}, sessionId);
    } catch (error) {
      const failure = error as CriProtocolFailure;
      if (failure.response) {
        const detail = failure.response.data ? ` (${failure.response.data})` : '';
        throw new ProtocolError(
          method,
          failure.response.code,
          `${failure.response.message ?? 'protocol error'}${detail}`,
        );
      }
      if (this.closed) throw new TransportClosedError(`${method} failed: the browser connection closed`);
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.markClosed('closed by Argus');
    await this.client.close().catch(() => undefined);
  }
}

const NO_DOMAINS = { domains: [] };

let cri: Promise<typeof CDP> | undefined;

/**
 * chrome-remote-interface (and the ws 7 under it), loaded at the first connect: a daemon that launches
 * its own browser talks over a pipe and never needs it, so it is not part of every start-up (issue 16).
 */
function loadCri(): Promise<typeof CDP> {
  cri ??= import('chrome-remote-interface').then((module) => module.default);
  return cri;
}

/**
 * Connects to a browser-level DevTools WebSocket endpoint. Retries briefly: Chrome announces its
 * endpoint shortly before it accepts connections.
 */
export async function connectCri(wsEndpoint: string, options: { attempts?: number } = {}): Promise<Transport> {
  const attempts = options.attempts ?? 20;
  let lastError: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      // Only raw `send` and events are used: an empty descriptor spares loading the bundled 1 MB
      // protocol.json and building helpers for every domain on each connect (~30 ms, issue 16).
      const client = await (await loadCri())({ target: wsEndpoint, protocol: NO_DOMAINS });
      return new CriTransport(client);
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(25 * 2 ** attempt, 250)));
    }
  }
  throw new ArgusError(
    'browser_not_found',
    `Could not connect to ${wsEndpoint}: ${(lastError as Error)?.message ?? lastError}. Is Chrome running with remote debugging enabled?`,
    {
      cause: lastError,
    },
  );
}

/**
 * Resolves `http://host:port` (a --remote-debugging-port address, or a grid's HTTP endpoint) to its
 * browser WebSocket endpoint. A query on the address (a grid's `?token=`) goes with the
 * `/json/version` request, after the path (`http://grid/?token=t` asked `/?token=t/json/version`,
 * which nothing serves), and onto the WebSocket URL the answer names when that one has none: grids
 * answer it without their token (browserless leaves it out), and the socket needs it as much.
 * Errors quote the address as given: the daemon masks it (its token) before they reach anyone.
 */
export async function resolveBrowserEndpoint(url: string): Promise<string> {
  if (url.startsWith('ws://') || url.startsWith('wss://')) return url;
  let address: URL;
  try {
    address = new URL(url);
  } catch {
    throw new ArgusError(
      'invalid_input',
      `${url} is not a URL. Pass ws://host:port/devtools/browser/… or http://host:port.`,
    );
  }
  const version = new URL(address.href);
  version.pathname = `${address.pathname.replace(/\/+$/, '')}/json/version`;
  version.hash = '';
  const response = await fetch(version).catch((error: unknown) => {
    throw new ArgusError('browser_not_found', `No DevTools endpoint answered at ${url}: ${(error as Error).message}`, {
      cause: error,
    });
  });
  const body = response.ok
    ? ((await response.json().catch(() => undefined)) as { webSocketDebuggerUrl?: unknown } | undefined)
    : undefined;
  if (typeof body?.webSocketDebuggerUrl !== 'string')
    throw new ArgusError(
      'browser_not_found',
      `${url} is no DevTools endpoint: /json/version ${response.ok ? 'did not name a webSocketDebuggerUrl' : `answered HTTP ${response.status}`}. Pass Chrome's --remote-debugging-port address (http://host:port) or its ws://…/devtools/browser/… URL.`,
    );
  const endpoint = new URL(body.webSocketDebuggerUrl);
  if (address.search && !endpoint.search) endpoint.search = address.search;
  return endpoint.href;
}
