import { ArgusError } from '@argus/protocol/errors';
import { wsAuthProtocols } from '@argus/security';
import { callCancelled, toArgusError } from './errors.js';
import { DAEMON_LOST } from './node-fetch.js';
import { refusalFor } from './ws-link.js';
import { errorOfAnswer } from './trpc-answer.js';

/** The slice of a WebSocket (ws's) this uses. */
interface Socket {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  on(event: 'open', listener: () => void): unknown;
  on(event: 'message', listener: (data: unknown) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'unexpected-response', listener: (request: unknown, response: { statusCode?: number }) => void): unknown;
  /** ws's underlying TCP socket (not part of its public API: used only to ref and unref it). */
  _socket?: { ref(): void; unref(): void } | null;
}
type SocketClass = new (url: string, protocols: string[]) => Socket;
/** WebSocket.OPEN */
const OPEN = 1;

interface Waiting {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** A tRPC answer on the socket: `{id, result: {type: 'data', data}}` or `{id, error}`. */
interface Answer {
  id?: unknown;
  result?: { type?: string; data?: unknown };
  error?: unknown;
}

/**
 * Queries and mutations by contract path over one WebSocket held open, in tRPC's WebSocket wire
 * format (`{id, method, params: {path, input}}`), answered by the daemon's tRPC WebSocket handler.
 * For a client that calls many times (the MCP server's link to its daemon): measured against a
 * kept-alive HTTP request on the same daemon, a call costs 0.2 to 0.5 ms less (the request and
 * response objects, header parsing and per-request authentication on both sides are gone), and
 * the token is checked once, at the upgrade (bench/mcp-hops-bench.mjs).
 *
 * The socket opens at the first call and stays open until close(); it keeps the process alive only
 * while a call waits. A call the socket closes under may have run at the daemon: it fails as lost
 * (`daemon_lost`, never retried); one that could not be sent (no daemon) fails `daemon_unreachable`;
 * a refused upgrade fails `unauthorized`. Leases taken on the socket are held by it (the daemon
 * ends them when it closes), like any WebSocket's.
 */
export class WsCalls {
  private socket: Promise<Socket> | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: { url: string; token: string; WebSocket: unknown }) {}

  /**
   * `signal` abandons the call: the daemon is sent `subscription.stop` for its id (its server stops
   * the command, see the daemon's ws-call-signals.ts) and the call fails with `cancelled` at once.
   */
  call(path: string, kind: 'query' | 'mutation', input: unknown, signal?: AbortSignal): Promise<unknown> {
    if (this.closed) return Promise.reject(new ArgusError('daemon_unreachable', 'This client was closed.'));
    const current = (this.socket ??= this.open());
    return current.then(
      (socket) =>
        new Promise((resolve, reject) => {
          // closing already (its close event not yet come): nothing was sent, so the call may go again
          if (socket.readyState !== OPEN) {
            if (this.socket === current) this.socket = undefined;
            reject(
              new ArgusError('daemon_unreachable', 'The WebSocket to the daemon is closing; the call was not sent.'),
            );
            return;
          }
          if (signal?.aborted) return reject(callCancelled(path));
          const id = this.nextId++;
          const abandon = () => {
            if (!this.waiting.delete(id)) return;
            if (this.waiting.size === 0) socket._socket?.unref();
            if (socket.readyState === OPEN) socket.send(JSON.stringify({ id, method: 'subscription.stop' }));
            reject(callCancelled(path));
          };
          signal?.addEventListener('abort', abandon, { once: true });
          const settled = () => signal?.removeEventListener('abort', abandon);
          this.waiting.set(id, {
            resolve: (value) => {
              settled();
              resolve(value);
            },
            reject: (error) => {
              settled();
              reject(error);
            },
          });
          if (this.waiting.size === 1) socket._socket?.ref();
          socket.send(JSON.stringify({ id, method: kind, params: { path, input } }));
        }),
    );
  }

  close(): void {
    this.closed = true;
    const socket = this.socket;
    this.socket = undefined;
    void socket?.then(
      (open) => open.close(),
      () => undefined,
    );
  }

  private open(): Promise<Socket> {
    const Ws = this.options.WebSocket as SocketClass;
    const opening = new Promise<Socket>((resolve, reject) => {
      const socket = new Ws(this.options.url, wsAuthProtocols(this.options.token));
      let opened = false;
      let refusal: ArgusError | undefined;
      socket.on('unexpected-response', (_request, response) => {
        refusal = refusalFor(response.statusCode ?? 0);
        socket.close();
      });
      socket.on('error', (error) => {
        if (!opened) reject(refusal ?? toArgusError(new Error(`WebSocket connection failed: ${error.message}`)));
      });
      socket.on('open', () => {
        opened = true;
        // idle, the socket does not keep this process alive (a script that never calls close() still exits)
        socket._socket?.unref();
        resolve(socket);
      });
      socket.on('message', (data) => this.answer(socket, data));
      socket.on('close', () => {
        if (!opened)
          reject(refusal ?? new ArgusError('daemon_unreachable', 'The daemon closed the WebSocket at once.'));
        if (this.socket === opening) this.socket = undefined;
        this.lose();
      });
    });
    // a failed open must not stick: the next call tries again
    opening.catch(() => {
      if (this.socket === opening) this.socket = undefined;
    });
    return opening;
  }

  private answer(socket: Socket, data: unknown): void {
    let message: Answer;
    try {
      message = JSON.parse(String(data)) as Answer;
    } catch {
      return;
    }
    const id = typeof message.id === 'number' ? message.id : undefined;
    const waiting = id === undefined ? undefined : this.waiting.get(id);
    if (!waiting || (message.error === undefined && message.result?.type !== 'data')) return;
    this.waiting.delete(id!);
    if (this.waiting.size === 0) socket._socket?.unref();
    if (message.error !== undefined) waiting.reject(errorOfAnswer(message));
    else waiting.resolve(message.result?.data);
  }

  /** The socket closed: every call still waiting may have run at the daemon. */
  private lose(): void {
    const lost = [...this.waiting.values()];
    this.waiting.clear();
    for (const waiting of lost)
      waiting.reject(
        toArgusError(
          Object.assign(new Error('the daemon closed the WebSocket before answering'), { code: DAEMON_LOST }),
        ),
      );
  }
}
