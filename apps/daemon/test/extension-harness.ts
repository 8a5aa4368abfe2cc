import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromeForTests, PROFILE_PREFIX } from '@argus/test-kit';
import WebSocket from 'ws';

/** The built MV3 extension (`pnpm --filter @argus/extension build`). */
export const EXTENSION_DIR = fileURLToPath(new URL('../../extension/dist', import.meta.url));

export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 15_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

interface Message {
  id?: number;
  method?: string;
  result?: unknown;
  error?: { message: string };
}

/** The "user's" own CDP connection to their browser: opens and closes tabs as a person would. */
export class CdpClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as Message; // Chromium's own protocol output
      if (message.id === undefined) return;
      const pending = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) pending?.reject(new Error(message.error.message));
      else pending?.resolve(message.result);
    });
  }

  static async connect(url: string): Promise<CdpClient> {
    // DevToolsActivePort appears slightly before the endpoint accepts connections
    for (let attempt = 0; ; attempt++) {
      try {
        const socket = new WebSocket(url, { perMessageDeflate: false });
        const client = new CdpClient(socket);
        await new Promise<void>((resolve, reject) => {
          socket.once('open', () => resolve());
          socket.once('error', reject);
        });
        return client;
      } catch (error) {
        if (attempt > 40) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  send<T = Record<string, unknown>>(method: string, params: object = {}, sessionId?: string): Promise<T> {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    return new Promise<unknown>((resolve, reject) => this.pending.set(id, { resolve, reject })) as Promise<T>;
  }

  close(): void {
    this.socket.close();
  }
}

/** Headless Chromium with the unpacked extension: the user's own browser in these tests. */
export interface UserBrowser {
  pid: number;
  userDataDir: string;
  cdp: CdpClient;
  /** Evaluates an expression (awaited) in the extension's service worker. */
  evalInWorker(expression: string): Promise<unknown>;
  /** Points the extension at a relay, the way a daemon that launched Chrome would. */
  configure(settings: { relayUrl: string; launchToken?: string }): Promise<void>;
  /** Opens a tab as the user would; returns its target id (= Argus tab id). */
  openTab(url: string): Promise<string>;
  close(): Promise<void>;
}

export async function launchUserBrowser(): Promise<UserBrowser> {
  if (!existsSync(join(EXTENSION_DIR, 'manifest.json'))) throw new Error('Build the extension first: pnpm --filter @argus/extension build');
  const userDataDir = mkdtempSync(join(tmpdir(), PROFILE_PREFIX));
  const args = [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--proxy-server=http://127.0.0.1:9',
    `--load-extension=${EXTENSION_DIR}`,
    `--disable-extensions-except=${EXTENSION_DIR}`,
    '--remote-debugging-port=0',
    `--user-data-dir=${userDataDir}`,
    'about:blank',
  ];
  // detached: its own process group, so close() takes renderers and helpers down too
  const child = spawn(findChromeForTests(), args, { detached: true, stdio: 'ignore' });
  const pid = child.pid;
  if (pid === undefined) throw new Error('Chromium did not start');
  const close = () => closeProcess(child, pid, userDataDir);
  let cdp: CdpClient | undefined;
  try {
    cdp = await CdpClient.connect(await devToolsUrl(userDataDir, child));
    const opened = cdp;
    const worker = await findServiceWorker(opened);
    const evalInWorker = (expression: string) => evaluateInWorker(opened, worker, expression);
    return {
      pid,
      userDataDir,
      cdp: opened,
      evalInWorker,
      configure: async (settings) => {
        await evalInWorker(`chrome.storage.local.set(${JSON.stringify({ enabled: true, ...settings })})`);
      },
      openTab: async (url) => (await opened.send<{ targetId: string }>('Target.createTarget', { url })).targetId,
      async close() {
        opened.close();
        await close();
      },
    };
  } catch (error) {
    cdp?.close();
    await close();
    throw error;
  }
}

async function devToolsUrl(userDataDir: string, child: ChildProcess): Promise<string> {
  const file = join(userDataDir, 'DevToolsActivePort');
  let url = '';
  await waitUntil(() => {
    if (child.exitCode !== null) throw new Error(`Chromium exited with ${child.exitCode}`);
    if (!existsSync(file)) return false;
    const [port, path] = readFileSync(file, 'utf8').split('\n');
    if (port && path) url = `ws://127.0.0.1:${port}${path}`;
    return url !== '';
  }, 15_000, 'DevToolsActivePort');
  return url;
}

async function closeProcess(child: ChildProcess, pid: number, userDataDir: string): Promise<void> {
  const exited = child.exitCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // already gone
    }
  };
  kill('SIGTERM');
  const timer = setTimeout(() => kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
  rmSync(userDataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}

async function findServiceWorker(cdp: CdpClient): Promise<string> {
  let targetId = '';
  await waitUntil(async () => {
    const { targetInfos } = await cdp.send<{ targetInfos: Array<{ targetId: string; type: string; url: string }> }>('Target.getTargets');
    targetId = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith('chrome-extension://'))?.targetId ?? '';
    return targetId !== '';
  }, 10_000, 'the extension service worker');
  return targetId;
}

async function evaluateInWorker(cdp: CdpClient, targetId: string, expression: string): Promise<unknown> {
  const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
  try {
    // the worker's extension context (with chrome.*) shows up a moment after attach
    await waitUntil(async () => {
      const probe = await cdp.send<{ result: { value?: unknown } }>('Runtime.evaluate', { expression: 'typeof chrome?.storage?.local' }, sessionId);
      return probe.result.value === 'object';
    }, 10_000, 'chrome.storage in the service worker');
    const response = await cdp.send<{ result: { value?: unknown }; exceptionDetails?: unknown }>(
      'Runtime.evaluate',
      { expression: `Promise.resolve(${expression}).then((value) => JSON.stringify(value ?? null))`, awaitPromise: true, returnByValue: true },
      sessionId,
    );
    if (response.exceptionDetails) throw new Error(`worker evaluation failed: ${JSON.stringify(response.exceptionDetails)}`);
    return JSON.parse(String(response.result.value)) as unknown;
  } finally {
    await cdp.send('Target.detachFromTarget', { sessionId });
  }
}

/** Whether a process still runs (and is not a zombie). */
export function alive(pid: number): boolean {
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
