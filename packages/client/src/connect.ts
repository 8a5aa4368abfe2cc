import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { DAEMON_READY_LINE } from '@argus/protocol/daemon-state';
import { ArgusError } from '@argus/protocol/errors';
import { type ClientHandle, type ClientOptions, createArgusClient } from './client.js';
import { nodeHttpFetch } from './node-fetch.js';
import { type DaemonState, isProcessAlive, readState, stateDirFor } from './state.js';

export interface ConnectOptions {
  /** The caller's directory: finds its workspace's daemon, and relative paths resolve against it (default: process.cwd()). */
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  stateDir?: string;
  /** Start a daemon when none answers (needs `daemonEntry`). */
  autoStart?: boolean;
  /** Path of the daemon's JS entry, started with the current Node when auto-starting. */
  daemonEntry?: string;
  /** Called just before auto-starting a daemon (the CLI prints progress on stderr). */
  onStart?: () => void;
  /** Extra environment for an auto-started daemon. */
  daemonEnv?: NodeJS.ProcessEnv;
  transport?: ClientOptions['transport'];
  WebSocket?: unknown;
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

/**
 * Starts the daemon detached and resolves with its state once it prints its ready line
 * (event driven: no polling of the state file).
 */
export async function startDaemon(options: {
  daemonEntry: string;
  stateDir: string;
  env?: NodeJS.ProcessEnv | undefined;
  timeoutMs?: number | undefined;
  cwd?: string | undefined;
}): Promise<DaemonState> {
  mkdirSync(options.stateDir, { recursive: true, mode: 0o700 });
  const child = spawn(process.execPath, [options.daemonEntry], {
    cwd: options.cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...(options.env ?? process.env), ARGUS_STATE_DIR: options.stateDir },
  });
  const timeoutMs = options.timeoutMs ?? 15_000;
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4_000);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new ArgusError('daemon_unreachable', `The daemon did not start within ${timeoutMs} ms. ${stderr.trim()}`),
          ),
        timeoutMs,
      );
      const lines = createInterface({ input: child.stdout! });
      lines.on('line', (line) => {
        if (line.startsWith(DAEMON_READY_LINE)) {
          clearTimeout(timer);
          lines.close();
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(
          new ArgusError(
            'daemon_unreachable',
            `The daemon exited during start-up (code ${code}). ${stderr.trim() || 'See .argus/daemon.log.'}`,
          ),
        );
      });
    });
  } finally {
    child.stdout?.destroy();
    child.stderr?.destroy();
    child.unref();
  }
  const state = readState(options.stateDir);
  if (!state)
    throw new ArgusError('daemon_unreachable', `The daemon started but wrote no state file in ${options.stateDir}`);
  return state;
}

/** Finds the workspace daemon (starting one when allowed) and returns a typed client for it. */
export async function connectToDaemon(options: ConnectOptions = {}): Promise<Connection> {
  const env = options.env ?? process.env;
  const stateDir = options.stateDir ?? stateDirFor(options.cwd, env);
  let state = readState(stateDir);
  let started = false;
  const clientFor = (current: DaemonState): Connection => ({
    ...createArgusClient({
      url: daemonUrl(current),
      token: current.token,
      transport: options.transport ?? 'http',
      WebSocket: options.WebSocket,
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
  // Fast path: a live pid is trusted; if it does not answer, the first call reports daemon_unreachable.
  if (state && isProcessAlive(state.pid)) return clientFor(state);
  if (!options.autoStart || !options.daemonEntry) {
    throw new ArgusError(
      'daemon_unreachable',
      `No Argus daemon is running for this workspace (state dir ${stateDir}). Any argus command that needs the browser starts one, e.g. \`argus goto <url>\`.`,
    );
  }
  options.onStart?.();
  state = await startDaemon({
    daemonEntry: options.daemonEntry,
    stateDir,
    env: { ...env, ...options.daemonEnv },
    timeoutMs: options.startTimeoutMs,
    cwd: options.cwd,
  });
  started = true;
  return clientFor(state);
}
