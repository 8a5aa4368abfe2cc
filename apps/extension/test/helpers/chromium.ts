import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LaunchedChromium {
  browserWsUrl: string;
  pid: number;
  userDataDir: string;
  close(): Promise<void>;
}

export function chromePath(): string {
  const candidates = [process.env.CHROME_PATH, '/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/google-chrome'];
  const found = candidates.find((candidate): candidate is string => !!candidate && existsSync(candidate));
  if (!found) throw new Error('Chromium not found: set CHROME_PATH');
  return found;
}

/** Launches headless Chromium with the unpacked extension; the caller must close() it in finally. */
export async function launchChromium(extensionDir: string, extraFlags: readonly string[] = []): Promise<LaunchedChromium> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'argus-chrome-'));
  const args = [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    `--load-extension=${extensionDir}`,
    `--disable-extensions-except=${extensionDir}`,
    '--remote-debugging-port=0',
    `--user-data-dir=${userDataDir}`,
    ...extraFlags,
    'about:blank',
  ];
  // detached: own process group, so close() can kill renderers and helpers too
  const child = spawn(chromePath(), args, { detached: true, stdio: 'ignore' });
  const pid = child.pid;
  if (pid === undefined) throw new Error('Chromium did not start');
  const close = () => closeProcess(child, pid, userDataDir);
  try {
    const browserWsUrl = await waitForDevToolsPort(userDataDir, child);
    return { browserWsUrl, pid, userDataDir, close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function waitForDevToolsPort(userDataDir: string, child: ChildProcess): Promise<string> {
  const file = join(userDataDir, 'DevToolsActivePort');
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Chromium exited with ${child.exitCode}`);
    if (existsSync(file)) {
      const [port, path] = readFileSync(file, 'utf8').split('\n');
      if (port && path) return `ws://127.0.0.1:${port}${path}`;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('Chromium did not write DevToolsActivePort in 15 s');
}

async function closeProcess(child: ChildProcess, pid: number, userDataDir: string): Promise<void> {
  const exited = child.exitCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    // already gone
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }, 3000);
  await exited;
  clearTimeout(timer);
  rmSync(userDataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}

/** Pids of live processes started with an Argus test profile (`argus-chrome-*`), optionally one dir. */
export function argusChromeProcesses(userDataDir = 'argus-chrome-'): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (cmdline.includes(`--user-data-dir=`) && cmdline.includes(userDataDir) && !/\) Z /.test(stat)) pids.push(Number(entry));
    } catch {
      // the process exited while we looked
    }
  }
  return pids;
}
