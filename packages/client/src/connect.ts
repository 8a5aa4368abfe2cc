import { resolve } from 'node:path';
import { ArgusError } from '@argus/protocol/errors';
import { startDaemon, takeEarlyStart } from './daemon-spawn.js';
import { type ClientHandle, type ClientOptions, createArgusClient } from './client.js';
import { nodeHttpFetch } from './node-fetch.js';
import { type DaemonState, afterStoppingDaemon, isProcessAlive, readState, stateDirFor } from './state.js';

export { startDaemon };

export interface ConnectOptions {
  /** The caller's directory: finds its workspace's daemon, and relative paths resolve against it (default: process.cwd()). */
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  stateDir?: string;
  /** Start a daemon when none answers (needs `daemonEntry`). */
  autoStart?: boolean;
  /** Path of the daemon's JS entry, started with the current Node when auto-starting. */
  daemonEntry?: string;
  /** Called when a daemon is auto-started: once its state dir is made, before its spawn (the CLI prints progress on stderr). */
  onStart?: () => void;
  /** Extra environment for an auto-started daemon. */
  daemonEnv?: NodeJS.ProcessEnv;
  transport?: ClientOptions['transport'];
  /** Keep HTTP connections open between calls (see ClientOptions.keepAlive). */
  keepAlive?: boolean;
  WebSocket?: unknown;
  /**
   * Instead of `WebSocket`: loads it once the daemon is there, just before the client is made (an
   * MCP server connects at its start, and its daemon is up only after its first answer: the ws
   * package is not compiled before that answer).
   */
  loadWebSocket?: () => Promise<unknown>;
  /** How `call()` reaches the daemon (see ClientOptions.calls). */
  calls?: ClientOptions['calls'];
  /** This client's name for logs and approvals (see ClientOptions.name). */
  name?: string | undefined;
  /** The named session every call runs in (see ClientOptions.session). */
  session?: string | undefined;
  /** Tab lease ids this client presents (see ClientOptions.lease). */
  lease?: ClientOptions['lease'];
  /** How long writes wait for another client's lease, in ms (see ClientOptions.leaseWaitMs). */
  leaseWaitMs?: number | undefined;
  startTimeoutMs?: number;
}

export interface Connection extends ClientHandle {
  state: DaemonState;
  stateDir: string;
  /** True when this call started the daemon. */
  started: boolean;
}

export function daemonUrl(state: DaemonState): string {
  return `http://127.0.0.1:${state.port}`;
}

/** True when the daemon named by the state file is alive and answers its health endpoint. */
export async function daemonAnswers(state: DaemonState): Promise<boolean> {
  if (!isProcessAlive(state.pid)) return false;
  try {
    const response = await nodeHttpFetch(`${daemonUrl(state)}/health`, { signal: AbortSignal.timeout(2_000) });
    return response.ok;
  } catch {
    return false;
  }
}

/** Finds the workspace daemon (starting one when allowed) and returns a typed client for it. */
export async function connectToDaemon(options: ConnectOptions = {}): Promise<Connection> {
  const env = options.env ?? process.env;
  const stateDir = options.stateDir ?? stateDirFor(options.cwd, env);
  let state = readState(stateDir);
  let started = false;
  const clientFor = async (current: DaemonState): Promise<Connection> => ({
    ...createArgusClient({
      url: daemonUrl(current),
      token: current.token,
      transport: options.transport ?? 'http',
      keepAlive: options.keepAlive,
      WebSocket: options.WebSocket ?? (await options.loadWebSocket?.()),
      ...(options.calls ? { calls: options.calls } : {}),
      cwd: resolve(options.cwd ?? process.cwd()),
      name: options.name,
      session: options.session,
      lease: options.lease,
      leaseWaitMs: options.leaseWaitMs,
    }),
    state: current,
    stateDir,
    started,
  });
  // A start this process began early (startDaemonEarly) is its own, even once its state file is written.
  const early = options.autoStart ? takeEarlyStart(stateDir) : undefined;
  if (early) {
    options.onStart?.();
    state = await early;
    started = true;
    return clientFor(state);
  }
  // a daemon that is stopping still holds the browser and the state dir: wait for its exit, never
  // start a second daemon beside it (it answers until its listener closes, but not for long)
  if (state?.stopping) state = await afterStoppingDaemon(stateDir);
  // Fast path: a live pid is trusted; if it does not answer, the first call reports daemon_unreachable.
  if (state && isProcessAlive(state.pid)) return clientFor(state);
  if (!options.autoStart || !options.daemonEntry) {
    throw new ArgusError(
      'daemon_unreachable',
      `No Argus daemon is running for this workspace (state dir ${stateDir}). Any argus command that needs the browser starts one, e.g. \`argus goto <url>\`.`,
    );
  }
  state = await startDaemon({
    daemonEntry: options.daemonEntry,
    stateDir,
    env: { ...env, ...options.daemonEnv },
    timeoutMs: options.startTimeoutMs,
    cwd: options.cwd,
    onStart: options.onStart,
  });
  started = true;
  return clientFor(state);
}
