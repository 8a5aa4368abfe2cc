import { createTRPCClient, httpBatchLink, httpLink, splitLink, type TRPCClient } from '@trpc/client';
import type { AppRouter } from '@argus/protocol';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { ArgusError } from '@argus/protocol/errors';
import { LEASE_IDS_EXPECTED, leaseIds } from '@argus/protocol/lease-ids';
import { callCancelled, toArgusError } from './errors.js';
import { Agent } from 'node:http';
import { keepAliveHttpFetch, nodeHttpFetch } from './node-fetch.js';
import { type AuthenticatedWs, authenticatedWsLink } from './ws-link.js';
import { WsCalls } from './ws-calls.js';
import { errorOfAnswer } from './trpc-answer.js';

export type ArgusClient = TRPCClient<AppRouter>;
/** Inputs and outputs of every procedure by contract path: `RouterOutputs['read']['text']`. */
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

export interface ClientOptions {
  /** `http://127.0.0.1:<port>` of the daemon. */
  url: string;
  token: string;
  /**
   * 'http' (one request per call: lowest latency for one-shot processes such as the CLI),
   * 'batch' (HTTP batching for scripts), or 'ws' (everything over one WebSocket).
   * Subscriptions always go over the WebSocket.
   */
  transport?: 'http' | 'batch' | 'ws';
  /**
   * Use node:http instead of the global fetch for HTTP calls (default true on Node): cheaper to load
   * and no lingering keep-alive socket in one-shot processes.
   */
  nodeHttp?: boolean;
  /**
   * Keep HTTP connections to the daemon open between calls (node:http transport): for a long-lived
   * client that makes many calls (the MCP server's link). Default false: a one-shot process (the CLI)
   * should not hold a socket. `close()` ends them.
   */
  keepAlive?: boolean;
  /** WebSocket implementation; Node 20 has no global one, so pass `ws`'s. */
  WebSocket?: unknown;
  /**
   * How `call()` reaches the daemon: 'http' (default: as the transport says) or 'ws', one WebSocket
   * held open for them (needs `WebSocket`), for a long-lived client that calls many times (the MCP
   * server's link): each call then costs less than a kept-alive HTTP request (see WsCalls).
   */
  calls?: 'http' | 'ws';
  /**
   * The directory relative paths in commands resolve against (absolute; sent with every call as the
   * `x-argus-cwd` header). Absent: the daemon's workspace.
   */
  cwd?: string | undefined;
  /**
   * A short name for this client (letters, digits, `.:_-`; sent as `x-argus-client`): it labels the
   * daemon's log lines and the approvals its calls wait for. Grants nothing.
   */
  name?: string | undefined;
  /**
   * The named session every call runs in (sent as `x-argus-session`): its own browser context,
   * cookies, storage, tabs and refs in the same browser (`argus sessions`). Absent or `default`:
   * the default session.
   */
  session?: string | undefined;
  /**
   * Tab lease ids this client holds (`tabs.lease` returns one; sent as `x-argus-lease`): they prove
   * the lease, so its writes on the leased tab go on while others' wait or fail with `tab_leased`.
   * A function is asked before every HTTP call (a client that takes and releases leases as it goes);
   * over a WebSocket the value at connect time is sent, and leases taken on the socket are held by it.
   * A string may list several, comma-separated; whitespace around ids is dropped, and a malformed id
   * fails the call (or, for the WebSocket's, the client's creation) with `invalid_input`.
   */
  lease?: string | readonly string[] | (() => readonly string[]) | undefined;
  /** How long a write may wait for another client's lease on its tab, in ms (`x-argus-lease-wait`); default: fail fast. */
  leaseWaitMs?: number | undefined;
}

/**
 * The lease ids in `lease` (`--lease`, ARGUS_LEASE, the `lease` option), whitespace around them and
 * their commas dropped. A malformed one is `invalid_input` here, before anything is sent: an id pasted
 * with a newline inside it would otherwise reach node:http, which refuses the header with an error
 * that named no option (reported as `internal`).
 */
export function presentedLeaseIds(lease: string | readonly string[]): string[] {
  const ids = leaseIds(lease);
  if (ids === null)
    throw new ArgusError(
      'invalid_input',
      `Tab leases (--lease / ARGUS_LEASE, or the client's \`lease\` option) take ${LEASE_IDS_EXPECTED}.`,
    );
  return ids;
}

/** The lease ids to present now, as the header value (undefined: none). */
function leaseHeader(lease: ClientOptions['lease']): string | undefined {
  const ids = presentedLeaseIds(typeof lease === 'function' ? lease() : (lease ?? []));
  return ids.length ? ids.join(',') : undefined;
}

export interface ClientHandle {
  client: ArgusClient;
  /**
   * One query or mutation by contract path (`snapshot.take`), for adapters that route by name (the
   * CLI, the MCP server's link to its daemon). The same request as the client's HTTP link (tRPC's
   * wire format, the same headers and connections) without its per-call link chain: the link's
   * observables, abort signals and header merging cost about a third of a millisecond of CPU per
   * call, more than Node's HTTP request itself (bench/mcp-hops-bench.mjs). With `calls: 'ws'`, over
   * one WebSocket held open instead (WsCalls). Rejects with an ArgusError, as the client does.
   * `signal` abandons the call: the daemon cancels the command (the HTTP request is closed, or the
   * WebSocket call stopped) and the call fails with `cancelled` at once.
   */
  call(path: string, kind: 'query' | 'mutation', input: unknown, options?: CallOptions): Promise<unknown>;
  /** Closes the WebSocket, if one was opened. */
  close(): void;
}

export interface CallOptions {
  /** Abandons the call (an agent's MCP `notifications/cancelled`): the daemon stops the command. */
  signal?: AbortSignal | undefined;
}

type Procedure = {
  query(input: unknown, options?: CallOptions): Promise<unknown>;
  mutate(input: unknown, options?: CallOptions): Promise<unknown>;
};

/** A procedure of the client (wrapped by withArgusErrors: it rejects with an ArgusError) by contract path, called as `kind`. */
function viaClient(
  client: ArgusClient,
  path: string,
  kind: 'query' | 'mutation',
  input: unknown,
  options: CallOptions,
): Promise<unknown> {
  const [namespace, name] = path.split('.') as [string, string];
  const procedure = (client as unknown as Record<string, Record<string, Procedure> | undefined>)[namespace]?.[name];
  if (!procedure) return Promise.reject(new ArgusError('unsupported', `The daemon has no command ${path}.`));
  return kind === 'query' ? procedure.query(input, options) : procedure.mutate(input, options);
}

/**
 * Wraps the tRPC proxy so every failed call rejects with an ArgusError (stable `code`, actionable
 * message) instead of a transport-specific error class.
 */
function withArgusErrors<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver) as unknown;
      if (typeof key !== 'string') return value;
      if (key === 'query' || key === 'mutate') {
        return (...args: unknown[]) =>
          (value as (...a: unknown[]) => Promise<unknown>)(...args).catch((error: unknown) =>
            Promise.reject(toArgusError(error)),
          );
      }
      if (key === 'subscribe') {
        return (input: unknown, opts: { onError?: (error: unknown) => void } & Record<string, unknown>) =>
          (value as (i: unknown, o: unknown) => unknown)(input, {
            ...opts,
            onError: (error: unknown) => opts.onError?.(toArgusError(error)),
          });
      }
      return typeof value === 'object' || typeof value === 'function' ? withArgusErrors(value as object) : value;
    },
    apply(fn, thisArg, args) {
      return Reflect.apply(fn as (...a: unknown[]) => unknown, thisArg, args);
    },
  });
}

export function createArgusClient(options: ClientOptions): ClientHandle {
  const cwd = options.cwd === undefined ? undefined : encodeURIComponent(options.cwd);
  // the directory is URI-encoded: a header carries Latin-1 only, a path may hold any character
  const name = options.name === undefined ? undefined : encodeURIComponent(options.name);
  const headers: Record<string, string> = { authorization: `Bearer ${options.token}` };
  if (cwd !== undefined) headers['x-argus-cwd'] = cwd;
  if (name !== undefined) headers['x-argus-client'] = name;
  const session = options.session === undefined ? undefined : encodeURIComponent(options.session);
  if (session !== undefined) headers['x-argus-session'] = session;
  if (options.leaseWaitMs !== undefined) headers['x-argus-lease-wait'] = String(options.leaseWaitMs);
  const initialLease = leaseHeader(options.lease);
  // over the WebSocket they ride in the upgrade URL (loopback only; a lease id is a local secret, like the socket itself)
  const wsParams = [
    cwd === undefined ? '' : `cwd=${cwd}`,
    name === undefined ? '' : `client=${name}`,
    session === undefined ? '' : `session=${session}`,
    initialLease === undefined ? '' : `lease=${encodeURIComponent(initialLease)}`,
    options.leaseWaitMs === undefined ? '' : `leaseWait=${options.leaseWaitMs}`,
  ]
    .filter(Boolean)
    .join('&');
  const wsUrl = `${options.url.replace(/^http/, 'ws')}/trpc`;
  let authenticated: AuthenticatedWs | undefined;
  const ws = () => {
    if (!options.WebSocket) throw new Error('This call needs a WebSocket: pass `WebSocket` from the ws package');
    authenticated ??= authenticatedWsLink({
      url: wsParams ? `${wsUrl}?${wsParams}` : wsUrl,
      token: options.token,
      WebSocket: options.WebSocket,
    });
    return authenticated.link;
  };
  const transport = options.transport ?? 'http';
  const httpUrl = `${options.url}/trpc`;
  // tRPC only calls fetch(url, init) and res.json(): the node:http stand-in covers exactly that
  const agent = options.keepAlive && options.nodeHttp !== false ? new Agent({ keepAlive: true }) : undefined;
  const httpFetch = agent ? keepAliveHttpFetch(agent) : nodeHttpFetch;
  const fetchImpl = options.nodeHttp === false ? {} : { fetch: httpFetch as unknown as typeof fetch };
  // the lease ids are read per call: a holder presents the leases it holds now
  const callHeaders = () => {
    const lease = leaseHeader(options.lease);
    return lease === undefined ? headers : { ...headers, 'x-argus-lease': lease };
  };
  const plain =
    transport === 'ws'
      ? ws()
      : transport === 'batch'
        ? httpBatchLink<AppRouter>({ url: httpUrl, headers: callHeaders, ...fetchImpl })
        : httpLink<AppRouter>({ url: httpUrl, headers: callHeaders, ...fetchImpl });
  const client = createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: options.WebSocket ? ws() : plain,
        false: plain,
      }),
    ],
  });
  const wrapped = withArgusErrors(client);
  if (options.calls === 'ws' && !options.WebSocket)
    throw new Error("calls over a WebSocket need `WebSocket`: pass the ws package's");
  const wsCalls =
    options.calls === 'ws'
      ? new WsCalls({
          url: wsParams ? `${wsUrl}?${wsParams}` : wsUrl,
          token: options.token,
          WebSocket: options.WebSocket,
        })
      : undefined;
  const call = async (
    path: string,
    kind: 'query' | 'mutation',
    input: unknown,
    callOptions: CallOptions = {},
  ): Promise<unknown> => {
    const { signal } = callOptions;
    if (signal?.aborted) throw callCancelled(path);
    if (wsCalls) return wsCalls.call(path, kind, input, signal);
    // over the WebSocket, batched or on the global fetch: through the client's own link
    if (transport !== 'http' || options.nodeHttp === false)
      return viaClient(wrapped, path, kind, input, callOptions).catch((error: unknown) => {
        throw signal?.aborted ? callCancelled(path) : error;
      });
    const body = input === undefined ? undefined : JSON.stringify(input);
    const url =
      kind === 'query' && body !== undefined
        ? `${httpUrl}/${path}?input=${encodeURIComponent(body)}`
        : `${httpUrl}/${path}`;
    const base = callHeaders();
    let answer: unknown;
    try {
      // an aborted request closes its connection: the daemon sees it and cancels the command
      const response = await httpFetch(
        url,
        kind === 'query'
          ? { method: 'GET', headers: base, signal }
          : { method: 'POST', headers: { 'content-type': 'application/json', ...base }, body, signal },
      );
      answer = await response.json();
    } catch (error) {
      throw signal?.aborted ? callCancelled(path) : toArgusError(error);
    }
    const result = answer as { result?: { data?: unknown }; error?: unknown } | null;
    if (result && typeof result === 'object' && 'error' in result) throw errorOfAnswer(result);
    return result?.result?.data;
  };
  return {
    client: wrapped,
    call,
    close() {
      wsCalls?.close();
      authenticated?.close();
      agent?.destroy();
    },
  };
}
