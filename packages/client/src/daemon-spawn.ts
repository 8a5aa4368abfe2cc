import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Socket } from 'node:net';
import type { Stream } from 'node:stream';
import { DAEMON_READY_LINE, LAUNCH_CUE_ENV, LAUNCH_CUE_FD } from '@argus/protocol/daemon-state';
import { ArgusError, isErrorCode } from '@argus/protocol/errors';
import { type DaemonState, isProcessAlive, readState, stateDirFor } from './state.js';
import { makeDirs } from '@argus/protocol/make-dirs';

// what a process deciding whether to start or host the daemon reads, without the tRPC client
export { isProcessAlive, readState, stateDirFor };

/*
 * Starting the daemon process, kept free of the tRPC client and zod so that a CLI can start the
 * daemon (and so Chromium) before it loads the rest of itself: `startDaemonEarly` at the top of the
 * process, `takeEarlyStart` where the connection would otherwise start one (issue 16).
 */

export interface SpawnDaemonOptions {
  daemonEntry: string;
  stateDir: string;
  env?: NodeJS.ProcessEnv | undefined;
  timeoutMs?: number | undefined;
  cwd?: string | undefined;
  /**
   * Called once the state dir is made, just before the spawn (the CLI says a daemon is starting): a
   * state dir that cannot be made is the error, with nothing said about a start first.
   */
  onStart?: (() => void) | undefined;
}

/**
 * Something the starter hands the daemon at spawn (a browser it launched for it: chromeForDaemon in
 * @argus/daemon/early-launch): extra descriptors from 3 up, environment, and the starter's own ends
 * to close once the daemon has them.
 */
export interface DaemonHandOver {
  stdio: Stream[];
  env: Record<string, string>;
  release(): void;
}

interface Started {
  stateDir: string;
  child: ChildProcess;
  ready: Promise<DaemonState>;
}

/**
 * The environment a daemon inherits: never a handed browser's description or a launch cue's
 * descriptor that this process did not give it.
 */
function inheritedEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { ARGUS_HANDED_CHROME: _handed, [LAUNCH_CUE_ENV]: _cue, ...rest } = env;
  return rest;
}

/** Makes a daemon's state dir (0700), or says which one cannot be made and how to choose another. */
function makeStateDir(stateDir: string): void {
  try {
    makeDirs(stateDir, 0o700);
  } catch (error) {
    throw new ArgusError(
      'invalid_input',
      `Cannot make the state dir ${stateDir}: ${(error as Error).message}. Set ARGUS_STATE_DIR (or \`stateDir\` in the config) to a directory you can write.`,
      { details: { stateDir } },
    );
  }
}

/** The write end of the early daemon's launch cue, until it is used or the daemon is up. */
let launchCue: Socket | undefined;

/**
 * Spawns the daemon detached; `ready` resolves with its state once it prints its ready line (no
 * polling). With `cue` (and nothing handed over) it gets a launch cue on descriptor 3 (cueBrowserLaunch).
 */
function spawnDaemon(options: SpawnDaemonOptions, handOver?: DaemonHandOver, cue = false): Started {
  let child: ChildProcess;
  const withCue = cue && !handOver;
  try {
    makeStateDir(options.stateDir);
    options.onStart?.();
    child = spawn(process.execPath, [options.daemonEntry], {
      cwd: options.cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe', ...(handOver?.stdio ?? (withCue ? ['pipe' as const] : []))],
      env: {
        ...inheritedEnv(options.env ?? process.env),
        ...handOver?.env,
        ...(withCue ? { [LAUNCH_CUE_ENV]: String(LAUNCH_CUE_FD) } : {}),
        ARGUS_STATE_DIR: options.stateDir,
      },
    });
  } finally {
    // the daemon holds its own copies now (or there is no daemon, and what was handed ends)
    handOver?.release();
  }
  const cueEnd = withCue ? (child.stdio[LAUNCH_CUE_FD] as Socket | null) : null;
  if (cueEnd) {
    cueEnd.on('error', () => cueEnd.destroy());
    // never what keeps this process alive
    cueEnd.unref();
    launchCue = cueEnd;
  }
  const timeoutMs = options.timeoutMs ?? 15_000;
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4_000);
  });
  const ready = new Promise<void>((resolve, reject) => {
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
  })
    .finally(() => {
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.unref();
      // up (or gone): its commands launch the browser from now on
      cueEnd?.destroy();
      if (launchCue === cueEnd) launchCue = undefined;
    })
    .then(() => {
      const state = readState(options.stateDir);
      if (!state)
        throw new ArgusError('daemon_unreachable', `The daemon started but wrote no state file in ${options.stateDir}`);
      return state;
    });
  return { stateDir: options.stateDir, child, ready };
}

/** Starts the daemon detached and resolves with its state once it is ready. */
export function startDaemon(options: SpawnDaemonOptions): Promise<DaemonState> {
  return spawnDaemon(options).ready;
}

let early: Started | undefined;

/**
 * Starts the workspace daemon now, unless one runs, for a process that will connect to it later
 * with auto-start (same environment and working directory). Returns whether it started one.
 */
export function startDaemonEarly(
  options: Omit<SpawnDaemonOptions, 'stateDir'> & {
    /** Called only when a daemon is started: what to hand it (its browser, launched right now). */
    handOver?: () => DaemonHandOver | undefined;
    /** A daemon started without Chromium: give it a launch cue (cueBrowserLaunch). */
    launchCue?: boolean;
  },
): boolean {
  if (early) return false;
  const stateDir = stateDirFor(options.cwd, options.env ?? process.env);
  const state = readState(stateDir);
  if (state && isProcessAlive(state.pid)) return false;
  const { handOver, launchCue: cue, ...spawnOptions } = options;
  try {
    early = spawnDaemon({ ...spawnOptions, stateDir }, handOver?.(), cue);
  } catch {
    // the start the command makes itself fails the same way, and says so where errors are reported
    return false;
  }
  // a failed early start is reported by whoever takes it; never as an unhandled rejection
  early.ready.catch(() => undefined);
  return true;
}

/**
 * Tells a daemon started early without Chromium (`launchCue`) that a browser command is coming, while
 * it is still loading: it launches Chromium at once instead of at that command. Once the daemon is
 * up, or after the first cue, this does nothing (the command itself launches the browser).
 */
export function cueBrowserLaunch(): void {
  const cue = launchCue;
  launchCue = undefined;
  cue?.end('1');
}

/** Settles once the early start in flight, if any, is up or has failed (it stays for takeEarlyStart). */
export function earlyStartSettled(): Promise<void> {
  return early
    ? early.ready.then(
        () => undefined,
        () => undefined,
      )
    : Promise.resolve();
}

/**
 * A daemon start made by another copy of this module in the same process: the CLI's boot bundle
 * starts the daemon and its Chromium before the CLI's own bundle, with its own copy of this module,
 * has loaded. Handed over with handEarlyStart, taken in with adoptEarlyStart.
 */
export type EarlyStart = Readonly<Started>;

/** Gives up this copy's early start (takeEarlyStart here then finds none), for adoptEarlyStart in another. */
export function handEarlyStart(): EarlyStart | undefined {
  const started = early;
  early = undefined;
  return started;
}

/** Takes in an early start another copy of this module made (handEarlyStart): the connection then adopts it. */
export function adoptEarlyStart(start: EarlyStart | undefined): void {
  if (!start || early) return;
  // its errors come from the other copy's ArgusError class: made again with this one's, so that
  // they are reported as what they are (isArgusError), not as internal errors
  const ready = start.ready.catch((error: unknown) => {
    throw ownArgusError(error);
  });
  ready.catch(() => undefined);
  early = { stateDir: start.stateDir, child: start.child, ready };
}

function ownArgusError(error: unknown): unknown {
  if (error instanceof ArgusError || !(error instanceof Error) || error.name !== 'ArgusError') return error;
  const { code, details } = error as Error & { code?: unknown; details?: unknown };
  if (!isErrorCode(code)) return error;
  return new ArgusError(code, error.message, {
    ...(details && typeof details === 'object' ? { details: details as Record<string, unknown> } : {}),
    cause: error,
  });
}

/** The early start for this state dir, if one is in flight: the caller now owns its outcome. */
export function takeEarlyStart(stateDir: string): Promise<DaemonState> | undefined {
  if (!early || early.stateDir !== stateDir) return undefined;
  const { ready } = early;
  early = undefined;
  return ready;
}

/**
 * Stops a daemon started early that nothing took (the command turned out to be a usage error, or
 * needed no daemon): it shuts down as on `argus stop`, closing its browser.
 */
export function abandonEarlyStart(): void {
  if (!early) return;
  const { child } = early;
  early = undefined;
  // SIGTERM: the daemon shuts down as on `argus stop`; before its handlers exist, the signal ends it
  // and its browser watchdog closes the Chromium it launched early
  if (child.pid !== undefined && child.exitCode === null) child.kill('SIGTERM');
}
