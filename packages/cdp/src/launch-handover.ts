import { existsSync, readFileSync } from 'node:fs';
import { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { isZombie } from '@argus/protocol/daemon-state';
import {
  type LaunchOptions,
  launchKey,
  registerEarly,
  removeProfile,
  spawnChrome,
  spawnWatchdog,
  superviseChrome,
  unrefStream,
} from './launch.js';

/*
 * A browser launched by the process that starts the daemon, handed to the daemon (issue 16): the
 * CLI spawns Chromium at its first line, before its own modules load and before the daemon's Node
 * starts (~200 ms earlier than the daemon's entry could), and the daemon adopts it like an early
 * launch of its own. The daemon gets two descriptors: 3, Chrome's stderr (its DevTools line, then
 * drained; end of file once Chrome's process group is gone), and 4, the stdin of the watchdog the
 * launching process started. The watchdog kills the group and removes the profile when every holder
 * of that pipe is gone without writing `closed`: the launcher lets go of its end as soon as the
 * daemon is spawned, so from then on the daemon's death (however it dies) ends the browser, and
 * a daemon that never starts ends it too. The browser speaks DevTools on a pipe (`pipe`, as every
 * browser the daemon launches): its two ends go over as descriptors 5 (to Chrome) and 6 (from Chrome).
 */

/** The daemon's environment variable describing a handed browser. */
export const HANDED_CHROME_ENV = 'ARGUS_HANDED_CHROME';
const STDERR_FD = 3;
const WATCHDOG_FD = 4;
const TO_CHROME_FD = 5;
const FROM_CHROME_FD = 6;

interface HandedChrome {
  pid: number;
  userDataDir: string;
  executablePath: string;
  key: string;
  /** SpawnedChrome.otherProfile: a profile of the flags' own, which its close waits to be written */
  otherProfile?: boolean;
}

export interface ChromeHandOver {
  /** The daemon's descriptors 3 to 6, in that order: stderr, the watchdog's stdin, the DevTools pipe's two ends. */
  stdio: [Readable, Writable, Writable, Readable];
  env: Record<string, string>;
  /** Called once the daemon is spawned (or failed to be): this process closes its ends. */
  release(): void;
}

/**
 * Spawns Chrome (temporary profile only, DevTools on a pipe) and its watchdog for a daemon about to
 * start; undefined if it cannot.
 */
export function launchForHandOver(requested: LaunchOptions): ChromeHandOver | undefined {
  if (requested.userDataDir !== undefined || requested.tempProfile !== undefined) return undefined;
  const options: LaunchOptions = { ...requested, pipe: true };
  let spawned: ReturnType<typeof spawnChrome>;
  let key: string;
  try {
    key = launchKey(options);
    spawned = spawnChrome(options);
  } catch {
    return undefined; // no browser found: the daemon's own launch says so
  }
  const { child, userDataDir, executablePath, pipe } = spawned;
  child.on('error', () => undefined);
  const pid = child.pid;
  const watchdog = pid === undefined ? undefined : spawnWatchdog(pid, userDataDir);
  if (pid === undefined || !child.stderr || !watchdog?.stdin || !pipe) {
    if (pid !== undefined) killGroup(pid);
    removeProfile(userDataDir);
    return undefined;
  }
  // this process exits long before the browser: nothing of it may keep this one alive
  child.unref();
  unrefStream(child.stderr);
  const stderr = child.stderr;
  const watchdogStdin = watchdog.stdin;
  unrefStream(pipe.toChrome);
  unrefStream(pipe.fromChrome);
  const handed: HandedChrome = { pid, userDataDir, executablePath, key, otherProfile: spawned.otherProfile };
  return {
    stdio: [stderr, watchdogStdin, pipe.toChrome, pipe.fromChrome],
    env: { [HANDED_CHROME_ENV]: JSON.stringify(handed) },
    release() {
      stderr.destroy();
      watchdogStdin.destroy();
      pipe.toChrome.destroy();
      pipe.fromChrome.destroy();
    },
  };
}

function parseHanded(raw: string): HandedChrome | undefined {
  try {
    const value = JSON.parse(raw) as Partial<HandedChrome>;
    const ok =
      Number.isInteger(value.pid) &&
      (value.pid ?? 0) > 1 &&
      typeof value.userDataDir === 'string' &&
      typeof value.executablePath === 'string' &&
      typeof value.key === 'string';
    return ok ? (value as HandedChrome) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * In the daemon's entry: adopts the browser its starter handed over (HANDED_CHROME_ENV, descriptors
 * 3 and 4) as the early launch the first matching `launchChrome` takes. Returns whether there was one.
 */
export function adoptHandedChrome(env: NodeJS.ProcessEnv = process.env): boolean {
  const raw = env[HANDED_CHROME_ENV];
  if (raw === undefined) return false;
  // neither a relaunched browser nor anything else this daemon starts inherits it
  delete env[HANDED_CHROME_ENV];
  const handed = parseHanded(raw);
  // only a browser with the profile it was described with: a stray variable never makes this
  // process signal someone else's process group
  if (!handed || !runsWithProfile(handed)) return false;
  let stderr: Socket;
  let watchdog: Socket;
  let pipe: { toChrome: Socket; fromChrome: Socket };
  try {
    stderr = new Socket({ fd: STDERR_FD, readable: true, writable: false });
    watchdog = new Socket({ fd: WATCHDOG_FD, readable: false, writable: true });
    pipe = {
      toChrome: new Socket({ fd: TO_CHROME_FD, readable: false, writable: true }),
      fromChrome: new Socket({ fd: FROM_CHROME_FD, readable: true, writable: false }),
    };
  } catch {
    // without every end it cannot be owned; its watchdog ends it once the starter lets go
    return false;
  }
  for (const socket of [watchdog, stderr, pipe.toChrome, pipe.fromChrome]) socket.on('error', () => undefined);
  stderr.unref();
  watchdog.unref();
  let hasExited = false;
  let markExited: () => void = () => undefined;
  const exited = new Promise<{ code: null; signal: null }>((resolve) => {
    markExited = () => {
      hasExited = true;
      resolve({ code: null, signal: null });
    };
  });
  // Not this process's child, so no exit event. What says it is ending: the close of its DevTools
  // pipe (the kernel closes it when the browser dies, however it dies; Chrome also closes it on its
  // way out), or of its stderr (which Chrome's crashpad handlers, in their own sessions, hold
  // longer). From there, its exit is confirmed with signal 0 (bounded: a browser still there after
  // GONE_WAIT_MS has its group killed), so that a profile is removed only once Chrome has stopped
  // writing to it.
  let confirming = false;
  const confirmExit = () => {
    if (confirming) return;
    confirming = true;
    whenGone(handed.pid, markExited);
  };
  stderr.once('close', confirmExit);
  pipe.fromChrome.once('close', confirmExit);
  const chrome = superviseChrome({
    pid: handed.pid,
    executablePath: handed.executablePath,
    userDataDir: handed.userDataDir,
    persistent: false,
    otherProfile: handed.otherProfile === true,
    stderr,
    pipe,
    exited,
    isExited: () => hasExited,
    standDown: () => watchdog.end('closed\n'),
  });
  registerEarly(handed.key, chrome);
  return true;
}

/** Whether `handed.pid` is a Chrome using `handed.userDataDir` (Linux /proc; elsewhere taken as said). */
function runsWithProfile(handed: HandedChrome): boolean {
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${handed.pid}/cmdline`, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT' || !existsSync('/proc/self');
  }
  return cmdline.split('\0').includes(`--user-data-dir=${handed.userDataDir}`);
}

const GONE_WAIT_MS = 10_000;
const GONE_CHECK_MS = 20;

/** Calls `onGone` once `pid` no longer exists (checked every GONE_CHECK_MS, up to GONE_WAIT_MS, then its group is killed). */
function whenGone(pid: number, onGone: () => void): void {
  const started = Date.now();
  const check = () => {
    let alive = true;
    try {
      process.kill(pid, 0);
    } catch {
      alive = false;
    }
    // exited but not reaped: init (its parent since the starter left) may reap it only seconds later,
    // and a zombie writes nothing to the profile any more
    if (alive && isZombie(pid)) alive = false;
    if (!alive) return onGone();
    if (Date.now() - started > GONE_WAIT_MS) {
      killGroup(pid);
      return onGone();
    }
    setTimeout(check, GONE_CHECK_MS).unref();
  };
  check();
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
