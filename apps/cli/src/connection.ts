import { ArgusError } from '@argus/protocol/errors';
import {
  type Connection,
  afterStoppingDaemon,
  connectToDaemon,
  createArgusClient,
  daemonAnswers,
  daemonUrl,
  presentedLeaseIds,
  startDaemon,
  waitForExit,
} from '@argus/client';
import { daemonEntry } from '@argus/plugin/daemon-entry';
import { startNextDaemon } from './restart-browser.js';

/** After `daemon.stop`: waits (bounded) until the daemon process has exited, its browser closed with it. */
export async function waitForDaemonExit(pid: number, warn: (line: string) => void): Promise<void> {
  if (!(await waitForExit(pid, 15_000))) warn(`warning: daemon pid ${pid} is still running 15 s after stop`);
}

/**
 * After `daemon.restart`: waits for the old daemon to exit, then starts the new one (which reopens
 * the saved session) with the browser launched for it at the CLI's start, if any (restart-browser.ts),
 * and answers with its pid.
 */
export async function waitForRestart(oldPid: number, warn: (line: string) => void): Promise<number> {
  await waitForDaemonExit(oldPid, warn);
  startNextDaemon();
  const connection = await connect(() => warn('argus: starting the new daemon and Chromium…'));
  return connection.state.pid;
}

/**
 * The named session this process's calls run in: `--session NAME` (main sets the variable from the
 * flag) or ARGUS_SESSION; likewise the tab lease ids it presents (`--lease`, ARGUS_LEASE) and how long
 * its writes wait for another client's lease (`--lease-wait`, ARGUS_LEASE_WAIT). A bad one is
 * `invalid_input`: the lease ids and the wait are read here, the session name by the daemon.
 */
function session(): { session?: string; lease?: string[]; leaseWaitMs?: number } {
  const name = process.env.ARGUS_SESSION;
  // read (whitespace around ids dropped, a malformed one invalid_input) before any daemon is started for it
  const lease = presentedLeaseIds(process.env.ARGUS_LEASE ?? '');
  const wait = process.env.ARGUS_LEASE_WAIT;
  return {
    ...(name ? { session: name } : {}),
    ...(lease.length ? { lease } : {}),
    ...(wait ? { leaseWaitMs: durationMs(wait) } : {}),
  };
}

/** `--lease-wait` / ARGUS_LEASE_WAIT: `500ms`, `30s`, `2m` (a bare number is seconds). */
export function durationMs(text: string): number {
  const match = /^(\d{1,6})(ms|s|m)?$/.exec(text.trim());
  if (!match)
    throw new ArgusError(
      'invalid_input',
      `--lease-wait ${text} is not a duration: use e.g. 500ms, 30s or 2m (ARGUS_LEASE_WAIT).`,
    );
  const unit = match[2] ?? 's';
  return Number(match[1]) * (unit === 'ms' ? 1 : unit === 's' ? 1_000 : 60_000);
}

/** Namespaces whose commands never need the browser; every other command starts it on a fresh daemon. */
const NO_BROWSER = new Set(['daemon', 'session', 'sessions', 'token', 'journal', 'profile']);

/** A command that never needs the browser (nor starts it). */
export function browserFree(commandName: string): boolean {
  return NO_BROWSER.has(commandName.split('.')[0] ?? '');
}

/**
 * What to print on stderr when a command has to start the daemon (and so, for page commands, Chromium):
 * the first command otherwise sits silent for seconds.
 */
export function startingNotice(commandName: string, warn: (line: string) => void): () => void {
  const browser = !browserFree(commandName);
  return () => warn(browser ? 'argus: starting the daemon and Chromium…' : 'argus: starting the daemon…');
}

/**
 * The workspace's running daemon, or undefined when none runs (no state file, a dead pid, or a pid
 * that does not answer). `status` and `stop` use it: they report on a daemon, never start one.
 */
export async function runningDaemon(): Promise<Connection | undefined> {
  try {
    const connection = await connectToDaemon({ transport: 'http', ...session() });
    return (await daemonAnswers(connection.state)) ? connection : undefined;
  } catch (error) {
    if (error instanceof ArgusError && error.code === 'daemon_unreachable') return undefined;
    throw error;
  }
}

/**
 * A running daemon whose browser uses another profile than the one asked for (`--profile` /
 * ARGUS_PROFILE) would silently act in the wrong profile: refused, with the way out.
 */
export function assertProfile(connection: Connection, wanted = process.env.ARGUS_PROFILE): void {
  if (!wanted) return;
  const running = connection.state.profile ?? null;
  if (running === wanted) return;
  throw new ArgusError(
    'profile_in_use',
    `The daemon of this workspace runs with ${running ? `profile "${running}"` : 'a temporary profile'}, not "${wanted}". Run \`argus stop\`, then the command again with --profile ${wanted}.`,
  );
}

/** Connects to the workspace daemon, starting one when none runs (or the recorded one is dead). */
export async function connect(onStart?: () => void): Promise<Connection> {
  const connection = await connectToDaemon({
    ...session(),
    autoStart: true,
    daemonEntry: daemonEntry(),
    transport: 'http',
    // labels its commands in the journal, log lines and approvals (grants nothing)
    name: 'cli',
    ...(onStart ? { onStart } : {}),
  });
  assertProfile(connection);
  return connection;
}

/**
 * Runs one call; if the recorded daemon does not answer (stale state file, reused pid), starts a
 * fresh daemon and retries once.
 */
export async function withDaemon<T>(
  run: (connection: Connection) => Promise<T>,
  onStart?: () => void,
): Promise<{ value: T; connection: Connection }> {
  let connection = await connect(onStart);
  try {
    return { value: await run(connection), connection };
  } catch (error) {
    if (!(error instanceof ArgusError) || error.code !== 'daemon_unreachable' || connection.started) throw error;
    if (await daemonAnswers(connection.state)) throw error;
    // a daemon that stopped under this call (its listener closed first) is waited out, never raced
    const after = await afterStoppingDaemon(connection.stateDir);
    if (after && after.pid !== connection.state.pid && (await daemonAnswers(after))) {
      connection = await connect(onStart);
      return { value: await run(connection), connection };
    }
    const state = await startDaemon({ daemonEntry: daemonEntry(), stateDir: connection.stateDir, onStart });
    connection = {
      ...(await connectToDaemon({ stateDir: connection.stateDir, transport: 'http', ...session(), name: 'cli' })),
      state,
      started: true,
    };
    return { value: await run(connection), connection };
  }
}

/** Calls a manifest command by contract path, e.g. `page.goto`. */
export function call(
  connection: Connection,
  path: string,
  kind: 'query' | 'mutation' | 'subscription',
  input: unknown,
): Promise<unknown> {
  // The CLI dispatches dynamically from the manifest; the typed surface is for scripts.
  if (kind === 'subscription')
    return Promise.reject(new ArgusError('invalid_input', `${path} is a stream: it is subscribed to, not called`));
  return connection.call(path, kind, input);
}

interface Subscribable {
  subscribe(
    input: unknown,
    opts: {
      onStarted?: () => void;
      onData: (value: unknown) => void;
      onError: (error: unknown) => void;
      onComplete: () => void;
      onStopped: () => void;
    },
  ): { unsubscribe(): void };
}

/**
 * Streams a subscription over a WebSocket (only streaming commands load `ws`). Resolves when the
 * stream ends or `signal` aborts (then it unsubscribes); the socket is closed either way.
 */
export async function subscribe(
  connection: Connection,
  path: string,
  input: unknown,
  handlers: { signal: AbortSignal; onData: (value: unknown) => void; onStarted?: () => void },
): Promise<void> {
  const { WebSocket } = await import('ws');
  const handle = createArgusClient({
    url: daemonUrl(connection.state),
    token: connection.state.token,
    transport: 'http',
    WebSocket,
    cwd: process.cwd(),
    ...session(),
  });
  const [namespace, name] = path.split('.') as [string, string];
  const procedure = (handle.client as unknown as Record<string, Record<string, Subscribable>>)[namespace]?.[name];
  try {
    if (!procedure) throw new ArgusError('invalid_input', `Unknown command ${path}`);
    await new Promise<void>((resolve, reject) => {
      if (handlers.signal.aborted) return resolve();
      const subscription = procedure.subscribe(input, {
        ...(handlers.onStarted ? { onStarted: handlers.onStarted } : {}),
        onData: handlers.onData,
        onError: reject,
        onComplete: resolve,
        onStopped: resolve,
      });
      handlers.signal.addEventListener(
        'abort',
        () => {
          subscription.unsubscribe();
          resolve();
        },
        { once: true },
      );
    });
  } finally {
    handle.close();
  }
}
