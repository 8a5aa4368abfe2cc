import { createWSClient, TRPCClientError, type TRPCLink, wsLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import type { AppRouter } from '@argus/protocol';
import { ArgusError } from '@argus/protocol/errors';
import { wsAuthProtocols } from '@argus/security';
import { DAEMON_LOST } from './node-fetch.js';

/** An idle WebSocket (no call, no stream) closes this long after its last use. */
export const WS_IDLE_CLOSE_MS = 1_000;

export interface AuthenticatedWs {
  link: TRPCLink<AppRouter>;
  close(): void;
}

/** The error for an upgrade the daemon refused with `status`. */
export function refusalFor(status: number): ArgusError {
  if (status === 401 || status === 403 || status === 421) {
    return new ArgusError(
      'unauthorized',
      `The daemon refused the WebSocket (HTTP ${status}): missing or wrong bearer token. Clients read it from .argus/daemon.json; restart the client if the daemon was restarted.`,
    );
  }
  return new ArgusError(
    'daemon_unreachable',
    `The daemon refused the WebSocket (HTTP ${status}${status === 429 ? ': too many open sockets for this token; close some' : ''}).`,
  );
}

/**
 * tRPC fails a query or mutation already sent on a socket that then closed with the close event as
 * its cause ("Unknown error"); one never sent fails "Closed before connection was established". The
 * first may have run at the daemon: it is tagged as lost so that nobody retries it.
 */
function lostOrAsIs(error: TRPCClientError<AppRouter>): TRPCClientError<AppRouter> {
  const cause = error.cause as { type?: unknown; wasClean?: unknown } | undefined;
  if (cause?.type !== 'close' || typeof cause.wasClean !== 'boolean') return error;
  return TRPCClientError.from(
    Object.assign(new Error('the daemon closed the WebSocket before answering'), { code: DAEMON_LOST, cause }),
  );
}

/**
 * What a stream fails with when its socket closes under it. tRPC would resubscribe on a new socket,
 * retrying the same port for ever: a daemon that died (or stopped without ending the stream) never
 * comes back there, and the stream hung, silent, its process alive.
 */
function streamLost(path: string, started: boolean): ArgusError {
  return started
    ? new ArgusError(
        'daemon_lost',
        `The Argus daemon went away during the stream ${path}, which has ended. The next argus command starts a new daemon (e.g. \`argus url\`); run the stream again to follow again. .argus/daemon.log says why it stopped.`,
      )
    : new ArgusError(
        'daemon_unreachable',
        `The Argus daemon closed the WebSocket before the stream ${path} started. The next argus command starts a fresh daemon (e.g. \`argus url\`); .argus/daemon.log says why it stopped.`,
      );
}

type WsClient = ReturnType<typeof createWSClient>;

/**
 * The id of the last call `client` made. tRPC keeps it private (`lastRequestId`, 11.x): read at a
 * trust boundary, and a client without it (another version) stops no call (the socket's close still does).
 */
function lastRequestId(client: WsClient): number | undefined {
  const id = (client as unknown as { lastRequestId?: unknown }).lastRequestId;
  return typeof id === 'number' ? id : undefined;
}

/**
 * Tells the daemon a query or mutation was given up: `{id, method: 'subscription.stop'}`, as WsCalls
 * sends. tRPC's wsLink (11.x) sends that for subscriptions only and just forgets an aborted query or
 * mutation, which then ran on at the daemon. A call not sent yet is dropped by tRPC; its stop is ignored.
 */
function stopCall(client: WsClient, id: number): void {
  const connection = client.connection;
  if (connection?.state === 'open') connection.ws.send(JSON.stringify({ id, method: 'subscription.stop' }));
}

/**
 * tRPC's wsLink over a socket authenticated at the upgrade: the token rides in the subprotocol list
 * (`argus`, `argus.bearer.<token>`), which every WebSocket implementation can send (tRPC passes the
 * constructor only a URL). tRPC retries a refused upgrade forever; a refusal (an HTTP status instead
 * of 101) instead fails the waiting calls with a typed error, and the next call tries again. A query
 * or mutation given up (its signal aborted) is stopped at the daemon (stopCall), each call of a batch
 * on its own.
 */
export function authenticatedWsLink(options: { url: string; token: string; WebSocket: unknown }): AuthenticatedWs {
  const Base = options.WebSocket as typeof globalThis.WebSocket; // the caller's implementation (ws on Node 20)
  const protocols = wsAuthProtocols(options.token);
  class Authenticated extends Base {
    constructor(url: string | URL) {
      super(url, protocols);
    }
  }
  let refusal: ArgusError | undefined;
  let closing = false;
  // each open stream's way to fail when the socket closes under it (streamLost)
  const streams = new Set<() => void>();
  const client = createWSClient({
    url: options.url,
    WebSocket: Authenticated,
    // Lazy: the socket opens at the first call and closes once idle, so a script that never calls
    // close() can still exit. Not at once (closeMs 0): tRPC re-arms the idle timer with closeMs while
    // a stream is open, and at 0 a client that follows a stream (the MCP server watches approvals and
    // the inbox for its whole life) woke about a thousand times a second, 26 ms of CPU a second idle.
    lazy: { enabled: true, closeMs: WS_IDLE_CLOSE_MS },
    onError: (event) => {
      // ws reports a refused upgrade as "Unexpected server response: 401"; a plain network failure has no status
      const status = /Unexpected server response: (\d{3})/.exec(
        String((event as { message?: unknown } | undefined)?.message ?? ''),
      )?.[1];
      if (!status) return;
      refusal = refusalFor(Number(status));
      void client.close();
    },
    // a socket closing with streams still open: the daemon went away (an idle socket has none; a
    // refusal fails them itself, and close() is the caller's own)
    onClose: () => {
      if (refusal || closing) return;
      for (const lost of [...streams]) lost();
    },
  });
  const inner = wsLink<AppRouter>({ client });
  const link: TRPCLink<AppRouter> = (runtime) => {
    const innerOp = inner(runtime);
    return ({ op, next }) =>
      observable((observer) => {
        refusal = undefined;
        let answered = false;
        let started = false;
        let ended = false;
        const subscription = innerOp({ op, next }).subscribe({
          next: (value) => {
            answered = true;
            if (value.result.type === 'started') started = true;
            observer.next(value);
          },
          error: (error) => {
            answered = true;
            ended = true;
            streams.delete(lost);
            observer.error(refusal ? TRPCClientError.from(refusal) : lostOrAsIs(error));
          },
          complete: () => {
            // unsubscribing (lost, below) completes it too: the caller hears why it ended instead
            if (ended) return;
            ended = true;
            streams.delete(lost);
            observer.complete();
          },
        });
        function lost(): void {
          ended = true;
          streams.delete(lost);
          // tRPC forgets it (no resubscribing), then the caller hears why it ended
          subscription.unsubscribe();
          observer.error(TRPCClientError.from(streamLost(op.path, started)));
        }
        if (op.type === 'subscription' && !ended) streams.add(lost);
        // the wire id tRPC just gave the call (it numbers them as they are made, synchronously)
        const id = op.type === 'subscription' ? undefined : lastRequestId(client);
        return () => {
          streams.delete(lost);
          subscription.unsubscribe();
          // given up before its answer (its signal aborted): the daemon is told to stop the command
          if (!answered && id !== undefined) stopCall(client, id);
        };
      });
  };
  return {
    link,
    close: () => {
      closing = true;
      void client.close();
    },
  };
}
