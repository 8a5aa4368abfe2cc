import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArgusError } from '@argus/protocol';
import { findChrome } from './find-chrome.js';

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
  '--disable-features=Translate,MediaRouter,OptimizationHints,BackForwardCache',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
  '--disable-background-timer-throttling',
  '--window-size=1280,800',
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
}

export interface ChromeProcess {
  readonly pid: number;
  readonly wsEndpoint: string;
  readonly executablePath: string;
  readonly userDataDir: string;
  /** Resolves when the process has exited (for any reason). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly hasExited: boolean;
  /** Kills the process group, waits for exit, removes the profile. Idempotent. */
  kill(graceMs?: number): Promise<void>;
}

/** Splits ARGUS_CHROME_FLAGS-style strings on whitespace. */
export function parseFlags(value: string | undefined): string[] {
  return value ? value.split(/\s+/).filter(Boolean) : [];
}

function removeProfile(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}

/**
 * Launches Chrome with a fresh temp profile and resolves once its DevTools endpoint is announced
 * on stderr (event driven: no polling of DevToolsActivePort).
 */
export async function launchChrome(options: LaunchOptions = {}): Promise<ChromeProcess> {
  const executablePath = options.executablePath ?? findChrome(options.env);
  const userDataDir = mkdtempSync(join(tmpdir(), PROFILE_PREFIX));
  const args = [
    ...(options.headless === false ? [] : ['--headless=new']),
    ...DEFAULT_CHROME_FLAGS,
    `--user-data-dir=${userDataDir}`,
    '--remote-debugging-port=0',
    ...(options.extraFlags ?? []),
    'about:blank',
  ];
  let child: ChildProcess;
  try {
    child = spawn(executablePath, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: options.env ?? process.env });
  } catch (error) {
    removeProfile(userDataDir);
    throw new ArgusError('browser_not_found', `Could not start ${executablePath}: ${(error as Error).message}`, { cause: error });
  }
  let hasExited = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
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

  let killing: Promise<void> | undefined;
  const kill = (graceMs = 2_000): Promise<void> => {
    killing ??= (async () => {
      if (!hasExited && pid !== undefined) {
        signalGroup(pid, 'SIGTERM');
        const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
        // renderers and utilities live in the same group; make sure none outlive the browser
        signalGroup(pid, 'SIGKILL');
      }
      child.stderr?.destroy();
      removeProfile(userDataDir);
    })();
    return killing;
  };

  try {
    const wsEndpoint = await waitForEndpoint(child, exited, options.timeoutMs ?? 30_000);
    if (pid === undefined) throw new ArgusError('browser_not_found', `${executablePath} did not start`);
    return {
      pid,
      wsEndpoint,
      executablePath,
      userDataDir,
      exited,
      get hasExited() {
        return hasExited;
      },
      kill,
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

function waitForEndpoint(
  child: ChildProcess,
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>,
  timeoutMs: number,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stderr?.off('data', onData);
      // keep draining stderr so Chrome never blocks on a full pipe
      child.stderr?.resume();
      fn();
    };
    const onData = (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
      if (match?.[1]) {
        const endpoint = match[1];
        settle(() => resolve(endpoint));
      }
      if (stderr.length > 64_000) stderr = stderr.slice(-16_000);
    };
    child.stderr?.on('data', onData);
    void exited.then(({ code, signal }) =>
      settle(() =>
        reject(
          new ArgusError('browser_crashed', `Chrome exited before it was ready (code ${code}, signal ${signal}). Its last output: ${stderr.trim().slice(-800) || '(none)'}`),
        ),
      ),
    );
    const timer = setTimeout(
      () => settle(() => reject(new ArgusError('timeout', `Chrome did not open its DevTools endpoint within ${timeoutMs} ms. Last output: ${stderr.trim().slice(-800) || '(none)'}`))),
      timeoutMs,
    );
  });
}
