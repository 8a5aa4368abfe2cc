import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { join } from 'node:path';
import { ArgusError } from '@argus/protocol/errors';
import { findChrome } from './find-chrome.js';
import type { CdpPipe } from './pipe-transport.js';

/** Flags every managed launch uses; without the networking ones Chromium stalls on closed networks. */
export const DEFAULT_CHROME_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-breakpad',
  '--disable-crash-reporter',
  '--metrics-recording-only',
  '--password-store=basic',
  '--use-mock-keychain',
  '--mute-audio',
  // WebUIOmniboxPopup, WebUIOmniboxAimPopup: Chromium (156 here) preloads its omnibox popups as two
  // WebUI pages, each in a renderer of its own, at every start, headless too; without them (the
  // omnibox keeps its built-in popup) a start costs ~40% less CPU (issue 16)
  '--disable-features=Translate,MediaRouter,OptimizationHints,BackForwardCache,WebUIOmniboxPopup,WebUIOmniboxAimPopup',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
  '--disable-background-timer-throttling',
  '--window-size=1280,800',
  // a key (End, PageDown, Space) or wheel scroll is done when its input event is: an agent's next
  // snapshot or read sees the new view, and an infinite feed has loaded its next page
  '--disable-smooth-scrolling',
] as const;

/** Profiles we create carry this prefix so leak checks can recognise our processes. */
export const PROFILE_PREFIX = 'argus-chrome-';

export interface LaunchOptions {
  executablePath?: string;
  headless?: boolean;
  /** Appended after the defaults (e.g. from ARGUS_CHROME_FLAGS). */
  extraFlags?: readonly string[];
  /** How long to wait for the DevTools endpoint. */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  /**
   * A persistent profile directory (must exist): used as is and kept after the browser exits.
   * Absent: a fresh temp profile, removed on exit.
   */
  userDataDir?: string;
  /**
   * A temporary profile an earlier launch handed over (`keepProfile()` before its close): used as
   * is, and removed on exit and by the watchdog like a fresh one. A relaunch keeps everything on
   * disk (IndexedDB, caches, service workers) that `state save|load` cannot carry.
   */
  tempProfile?: string;
  /**
   * DevTools over a pipe (`--remote-debugging-pipe`, see CdpPipe) instead of a port: what the
   * daemon launches. Without it Chrome opens DevTools on a free port (`wsEndpoint`).
   */
  pipe?: boolean;
}

interface ChromeProcessBase {
  readonly pid: number;
  readonly executablePath: string;
  readonly userDataDir: string;
  /** Resolves when the process has exited (for any reason). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly hasExited: boolean;
  /** Kills the process group, waits for exit, removes the profile. Idempotent. */
  kill(graceMs?: number): Promise<void>;
  /**
   * Keeps a temporary profile when this browser closes, for the next launch to take over
   * (`tempProfile`); returns its directory (undefined for a persistent profile, never removed anyway).
   */
  keepProfile(): string | undefined;
  /**
   * After `Browser.close`: waits (up to `graceMs`) for Chrome to exit by itself, so a persistent or
   * kept profile flushes its cookies and state to disk, then makes sure with `kill()`. A temporary
   * profile, removed with this Chrome, is not waited for.
   */
  close(graceMs?: number): Promise<void>;
  /** The end of what Chrome wrote to stderr (bounded): what to show when it exits before it is ready. */
  lastOutput(): string;
}

/** A Chrome with DevTools on a port. */
export interface ChromeProcess extends ChromeProcessBase {
  readonly wsEndpoint: string;
  readonly pipe?: undefined;
}

/** A Chrome with DevTools on a pipe (`pipe: true`): no port. */
export interface PipedChromeProcess extends ChromeProcessBase {
  readonly wsEndpoint?: undefined;
  readonly pipe: CdpPipe;
}

export type AnyChromeProcess = ChromeProcess | PipedChromeProcess;

/**
 * Kills Chrome's process group and removes its profile when the daemon dies without closing it
 * (SIGKILL, a crash): `read` returns at end of file once the daemon's end of the pipe closes, and
 * the kernel closes it whatever way the daemon ends. A normal close writes `closed` first. `sh` is
 * used because it costs ~1 MB and a millisecond, against ~40 MB and ~60 ms for a Node process.
 */
const WATCHDOG_SCRIPT = [
  'read line',
  '[ "$line" = closed ] && exit 0',
  'kill -s KILL -- "-$1" 2>/dev/null',
  'i=0',
  '[ -z "$2" ] && exit 0',
  'while [ $i -lt 50 ]; do rm -rf -- "$2" 2>/dev/null; [ -e "$2" ] || exit 0; i=$((i+1)); sleep 0.1; done',
].join('\n');

/** Spawns the watchdog of a Chrome process group (detached, unreferenced); undefined if it cannot start. */
export function spawnWatchdog(pgid: number, userDataDir: string): ChildProcess | undefined {
  let watchdog: ChildProcess;
  try {
    watchdog = spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT, 'argus-watchdog', String(pgid), userDataDir], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
  } catch {
    return undefined;
  }
  watchdog.on('error', () => undefined);
  watchdog.stdin?.on('error', () => undefined);
  // neither the watchdog nor its pipe may keep the daemon alive
  watchdog.unref();
  unrefStream(watchdog.stdin);
  return watchdog;
}

export function unrefStream(stream: unknown): void {
  (stream as { unref?: () => void } | null)?.unref?.();
}

/** Starts the watchdog of a Chrome process group; returns the function that stands it down. */
function startWatchdog(pgid: number, userDataDir: string): () => void {
  const watchdog = spawnWatchdog(pgid, userDataDir);
  return () => {
    watchdog?.stdin?.end('closed\n');
  };
}

/** Splits ARGUS_CHROME_FLAGS-style strings on whitespace. */
export function parseFlags(value: string | undefined): string[] {
  return value ? value.split(/\s+/).filter(Boolean) : [];
}

/** Removes a temporary profile directory (Chromium may still be writing to it: retried). */
export function removeProfile(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}

/**
 * A launch begun before its owner was ready to ask for it (`launchEarly`), with the options it was
 * begun with, resolved (`launchKey`): the first `launchChrome` with the same key adopts it.
 */
let early: { key: string; chrome: Promise<AnyChromeProcess> } | undefined;

/** What makes two launches the same browser: binary, headless, flags, profile dir. */
export function launchKey(options: LaunchOptions): string {
  const executablePath = options.executablePath ?? findChrome(options.env);
  return JSON.stringify([
    executablePath,
    options.headless !== false,
    options.extraFlags ?? [],
    options.userDataDir ?? options.tempProfile ?? null,
    options.pipe === true,
  ]);
}

const killLater = (chrome: Promise<AnyChromeProcess>) =>
  void chrome.then((process) => process.kill(0)).catch(() => undefined);

/**
 * Starts Chrome now for a launch that will be asked for soon, before the caller has loaded the
 * code that asks (the daemon process starts it before loading its modules, ~2/3 of its start-up:
 * the browser's own start then runs alongside). The next `launchChrome` adopts it when its options
 * resolve to the same browser, else kills it and launches as asked; `discardEarlyLaunch` ends one
 * nobody will ask for. Never throws: a browser that cannot start is reported by the real launch.
 */
export function launchEarly(options: LaunchOptions): Promise<AnyChromeProcess> | undefined {
  if (early) return undefined;
  try {
    const key = launchKey(options);
    return registerEarly(key, startChrome(options));
  } catch {
    // no browser found: the launch that is asked for says so
    return undefined;
  }
}

/** Makes `chrome` the early launch the next matching `launchChrome` adopts (see launch-handover for the other source). */
export function registerEarly(key: string, chrome: Promise<AnyChromeProcess>): Promise<AnyChromeProcess> {
  chrome.catch(() => undefined);
  early = { key, chrome };
  return chrome;
}

/** Kills an early launch that no `launchChrome` adopted (e.g. the daemon connects to a browser instead). */
export function discardEarlyLaunch(): void {
  if (early) killLater(early.chrome);
  early = undefined;
}

/**
 * Launches Chrome with a fresh temp profile and resolves once its DevTools endpoint is announced
 * on stderr (event driven: no polling of DevToolsActivePort), or at once with `pipe` (commands wait
 * in the pipe until Chrome reads them). Adopts a matching `launchEarly` one.
 */
export function launchChrome(options?: LaunchOptions & { pipe?: false }): Promise<ChromeProcess>;
export function launchChrome(options: LaunchOptions & { pipe: true }): Promise<PipedChromeProcess>;
export function launchChrome(options: LaunchOptions): Promise<AnyChromeProcess>;
export async function launchChrome(options: LaunchOptions = {}): Promise<AnyChromeProcess> {
  const pending = early;
  early = undefined;
  if (pending) {
    let same = false;
    try {
      same = pending.key === launchKey(options);
    } finally {
      if (!same) killLater(pending.chrome);
    }
    // an early browser that failed or died is launched again, as if there had been none
    const chrome = same ? await pending.chrome.catch(() => undefined) : undefined;
    if (chrome && !chrome.hasExited) return chrome;
  }
  return startChrome(options);
}

/** A Chrome process just spawned, with its fresh (or given) profile. */
export interface SpawnedChrome {
  child: ChildProcess;
  executablePath: string;
  userDataDir: string;
  persistent: boolean;
  /**
   * A `--user-data-dir` among the extra flags (ARGUS_CHROME_FLAGS): Chromium uses that one (the last
   * wins), a profile that outlives this Chrome, so its close waits for it to write its cookies.
   */
  otherProfile: boolean;
  /** Its DevTools pipe (this process's ends), when spawned with `pipe`. */
  pipe: CdpPipe | undefined;
}

/**
 * Spawns Chrome in its own process group, DevTools on a free port (or on descriptors 3 and 4 with
 * `pipe`), stderr piped. Throws `browser_not_found`.
 */
export function spawnChrome(options: LaunchOptions): SpawnedChrome {
  const executablePath = options.executablePath ?? findChrome(options.env);
  const persistent = options.userDataDir !== undefined;
  const userDataDir = options.userDataDir ?? options.tempProfile ?? mkdtempSync(join(tmpdir(), PROFILE_PREFIX));
  const args = [
    ...(options.headless === false ? [] : ['--headless=new']),
    ...DEFAULT_CHROME_FLAGS,
    `--user-data-dir=${userDataDir}`,
    options.pipe === true ? '--remote-debugging-pipe' : '--remote-debugging-port=0',
    ...(options.extraFlags ?? []),
    'about:blank',
  ];
  try {
    const child = spawn(executablePath, args, {
      detached: true,
      stdio: options.pipe === true ? ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'ignore', 'pipe'],
      env: options.env ?? process.env,
    });
    const otherProfile = (options.extraFlags ?? []).some((flag) => flag.startsWith('--user-data-dir'));
    return {
      child,
      executablePath,
      userDataDir,
      persistent,
      otherProfile,
      pipe: options.pipe === true ? pipeOf(child) : undefined,
    };
  } catch (error) {
    if (!persistent && options.tempProfile === undefined) removeProfile(userDataDir);
    throw new ArgusError('browser_not_found', `Could not start ${executablePath}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

export type ChromeExit = { code: number | null; signal: NodeJS.Signals | null };

/** What a ChromeProcess is made of: the same whether this process spawned Chrome or was handed it. */
export interface RunningChrome {
  pid: number | undefined;
  executablePath: string;
  userDataDir: string;
  persistent: boolean;
  /** See SpawnedChrome.otherProfile. */
  otherProfile?: boolean | undefined;
  /** Chrome's stderr: the DevTools line is read from it, then it is drained. */
  stderr: Readable | null;
  /** Its DevTools pipe, when launched with one (no DevTools line then). */
  pipe?: CdpPipe | undefined;
  exited: Promise<ChromeExit>;
  isExited(): boolean;
  /** Stands the watchdog down (a normal close). */
  standDown(): void;
  timeoutMs?: number | undefined;
}

/** Chrome's ends of the pipe as this process holds them (descriptors 3 and 4 of the child). */
function pipeOf(child: ChildProcess): CdpPipe | undefined {
  const [, , , toChrome, fromChrome] = child.stdio;
  return toChrome && fromChrome ? { toChrome: toChrome as Writable, fromChrome: fromChrome as Readable } : undefined;
}

async function startChrome(options: LaunchOptions): Promise<AnyChromeProcess> {
  const { child, ...spawned } = spawnChrome(options);
  let hasExited = false;
  const exited = new Promise<ChromeExit>((resolve) => {
    child.once('exit', (code, signal) => {
      hasExited = true;
      resolve({ code, signal });
    });
    child.once('error', () => {
      hasExited = true;
      resolve({ code: null, signal: null });
    });
  });
  const pid = child.pid;
  return superviseChrome({
    ...spawned,
    pid,
    stderr: child.stderr,
    exited,
    isExited: () => hasExited,
    standDown: pid === undefined ? () => {} : startWatchdog(pid, spawned.persistent ? '' : spawned.userDataDir),
    timeoutMs: options.timeoutMs,
  });
}

/**
 * Waits for Chrome's DevTools endpoint (none to wait for on a pipe) and wraps it as a ChromeProcess;
 * kills it if it never comes.
 */
export async function superviseChrome(running: RunningChrome): Promise<AnyChromeProcess> {
  const { pid, executablePath, userDataDir, persistent, stderr, pipe, exited, standDown } = running;
  const output = new OutputTail();
  // a persistent profile is never removed: not on exit, not by the watchdog; a kept one goes to the next launch
  let kept = false;
  const removeOwnProfile = () => {
    if (!persistent && !kept) removeProfile(userDataDir);
  };
  let killing: Promise<void> | undefined;
  const kill = (graceMs = 2_000): Promise<void> => {
    killing ??= (async () => {
      if (!running.isExited() && pid !== undefined) {
        signalGroup(pid, 'SIGTERM');
        const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
        // renderers and utilities live in the same group; make sure none outlive the browser
        signalGroup(pid, 'SIGKILL');
      }
      stderr?.destroy();
      pipe?.toChrome.destroy();
      pipe?.fromChrome.destroy();
      removeOwnProfile();
      standDown();
    })();
    return killing;
  };
  const close = async (graceMs = 5_000): Promise<void> => {
    // only a profile that outlives this Chrome (persistent, or kept for the next launch) needs its own
    // exit to write cookies and state; a temporary one is removed with it, and waiting for Chrome's
    // shutdown held `argus stop` 2-3.5 s under load
    const flushes = persistent || kept || running.otherProfile === true;
    if (flushes && !running.isExited()) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    }
    await kill(flushes ? undefined : 0);
  };

  try {
    let endpoint: { wsEndpoint: string } | { pipe: CdpPipe };
    if (pipe) {
      if (stderr) {
        stderr.on('data', (chunk: Buffer) => output.add(chunk));
        stderr.resume();
      }
      endpoint = { pipe };
    } else endpoint = { wsEndpoint: await waitForEndpoint(stderr, exited, running.timeoutMs ?? 30_000, output) };
    if (pid === undefined) throw new ArgusError('browser_not_found', `${executablePath} did not start`);
    return {
      pid,
      ...endpoint,
      executablePath,
      userDataDir,
      exited,
      get hasExited() {
        return running.isExited();
      },
      kill,
      keepProfile() {
        if (persistent) return undefined;
        kept = true;
        return userDataDir;
      },
      close,
      lastOutput: () => output.text(),
    };
  } catch (error) {
    await kill(0);
    throw error;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** What a Chrome that exited before it was ready is reported with. */
export function exitReport(exit: ChromeExit, output: string): string {
  return `Chrome exited before it was ready (${describeExit(exit)}). Its last output: ${output || '(none)'}`;
}

/** How a process ended, saying only what is known: `exit code 1`, `killed by SIGKILL` (never `signal null`). */
export function describeExit({ code, signal }: ChromeExit): string {
  if (signal) return `killed by ${signal}`;
  if (code !== null) return `exit code ${code}`;
  // a browser handed over by the CLI that launched it is not this process's child: its status is not seen
  return 'exit status not known';
}

/** The end of a process's output, bounded. */
class OutputTail {
  private value = '';
  add(chunk: Buffer): string {
    this.value += chunk.toString('utf8');
    if (this.value.length > 64_000) this.value = this.value.slice(-16_000);
    return this.value;
  }
  text(): string {
    return this.value.trim().slice(-800);
  }
}

function waitForEndpoint(
  stderrStream: Readable | null,
  exited: Promise<ChromeExit>,
  timeoutMs: number,
  output: OutputTail,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // keep draining stderr so Chrome never blocks on a full pipe (its tail kept for lastOutput)
      stderrStream?.resume();
      fn();
    };
    const onData = (chunk: Buffer) => {
      const text = output.add(chunk);
      if (settled) return;
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(text);
      if (match?.[1]) {
        const endpoint = match[1];
        settle(() => resolve(endpoint));
      }
    };
    stderrStream?.on('data', onData);
    void exited.then(({ code, signal }) =>
      settle(() => reject(new ArgusError('browser_crashed', exitReport({ code, signal }, output.text())))),
    );
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(
            new ArgusError(
              'timeout',
              `Chrome did not open its DevTools endpoint within ${timeoutMs} ms. Last output: ${output.text() || '(none)'}`,
            ),
          ),
        ),
      timeoutMs,
    );
  });
}
