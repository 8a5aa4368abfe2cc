import { join } from 'node:path';
import type { AppRouter, Scope } from '@argus/protocol';
import { buildRouter } from '@argus/protocol/router';
import { generateToken } from '@argus/security';
import { BrowserManager, chromeFlagsFromEnv } from './browser-manager.js';
import { createAuthorize, runAsClient } from './client-guard.js';
import { createDispatch } from './dispatch.js';
import { createHandlers } from './handlers/index.js';
import { Logger } from './logger.js';
import { RelayHost } from './relay-host.js';
import { type RunningServer, startServer } from './server.js';
import { ShareStore } from './share-store.js';
import { type McpHttpEndpoint, Tunnel } from './tunnel-server.js';
import type { Services } from './services.js';
import { prepareStateDir, removeStateFile, writeStateFile } from './state-file.js';

export const VERSION = '0.1.0';

export interface DaemonOptions {
  stateDir: string;
  workspace: string;
  env?: NodeJS.ProcessEnv;
  idleTimeoutMs?: number;
  port?: number;
  /** MCP over Streamable HTTP on the tunnel listener (the plugin provides it: `@argus/plugin/http`). */
  mcp?: McpHttpEndpoint;
}

export interface RunningDaemon {
  port: number;
  token: string;
  stateDir: string;
  services: Services;
  /** Resolves when the daemon has fully stopped (browser closed, state file removed). */
  stopped: Promise<void>;
  stop(reason?: string): Promise<void>;
}

function numberFromEnv(value: string | undefined, fallback: number): number {
  const parsed = value === undefined ? Number.NaN : Number(value);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : fallback;
}

/** Starts the daemon: server on 127.0.0.1, state file (0600), idle shutdown; the browser starts lazily. */
export async function startDaemon(options: DaemonOptions): Promise<RunningDaemon> {
  const env = options.env ?? process.env;
  prepareStateDir(options.stateDir);
  const token = generateToken();
  const logFile = join(options.stateDir, 'daemon.log');
  const tokens = new Map<string, readonly Scope[]>([[token, ['admin']]]);
  const log = new Logger(logFile, () => [...tokens.keys()]);
  const idleTimeoutMs = options.idleTimeoutMs ?? numberFromEnv(env.ARGUS_IDLE_TIMEOUT_MS, 30 * 60_000);
  const relay = new RelayHost({
    log,
    daemonToken: token,
    stateDir: options.stateDir,
    port: numberFromEnv(env.ARGUS_RELAY_PORT, 8787),
    launchToken: env.ARGUS_RELAY_LAUNCH_TOKEN || undefined,
  });
  const manager = new BrowserManager({
    log,
    headless: env.ARGUS_HEADLESS !== '0' && env.ARGUS_HEADLESS !== 'false',
    extraFlags: chromeFlagsFromEnv(env),
    cdpUrl: env.ARGUS_CDP_URL || undefined,
    captureCapacity: numberFromEnv(env.ARGUS_CAPTURE_CAPACITY, 5_000) || 5_000,
    extensionTransport: () => relay.transport(),
  });

  let resolveStopped!: () => void;
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve));
  let stopping: Promise<void> | undefined;
  let server: RunningServer | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  const shares = new ShareStore(options.stateDir);

  const stop = (reason = 'requested'): Promise<void> => {
    stopping ??= (async () => {
      log.info('daemon.stopping', { reason });
      clearTimeout(idleTimer);
      removeStateFile(options.stateDir, process.pid);
      try {
        await manager.close();
      } catch (error) {
        log.error('browser.close_failed', { message: (error as Error).message });
      }
      await relay.close().catch((error: unknown) => log.error('relay.close_failed', { message: (error as Error).message }));
      await tunnel.close();
      shares.flush();
      await server?.close();
      log.info('daemon.stopped', { reason });
      resolveStopped();
    })();
    return stopping;
  };

  const touch = () => {
    clearTimeout(idleTimer);
    if (idleTimeoutMs > 0) {
      idleTimer = setTimeout(() => void stop(`idle for ${idleTimeoutMs} ms`), idleTimeoutMs);
      idleTimer.unref();
    }
  };

  const services: Services = {
    manager,
    relay,
    log,
    version: VERSION,
    workspace: options.workspace,
    stateDir: options.stateDir,
    logFile,
    startedAt: Date.now(),
    idleTimeoutMs,
    // let the response go out first
    requestStop: () => void setTimeout(() => void stop('stop command'), 10),
    tokens,
    shares,
    tunnel: new Tunnel({
      router: () => router,
      shares,
      log,
      onActivity: () => touch(),
      mcp: options.mcp,
      onExpired: (id) => manager.clients.closeAll(manager.current, id),
    }),
    dispatch: createDispatch(() => router),
  };
  const { tunnel } = services;
  const router: AppRouter = buildRouter(runAsClient(createHandlers(services), log), {
    // scope and allow-list (@argus/security), then what a shared token may never do; denials logged
    authorize: createAuthorize(log),
    onError: ({ path, error }) => log.warn('command.failed', { path, code: error.code, message: error.message }),
  });
  server = await startServer({ router, tokens: () => tokens, onActivity: touch, ...(options.port === undefined ? {} : { port: options.port }) });
  writeStateFile(options.stateDir, {
    port: server.port,
    pid: process.pid,
    token,
    version: VERSION,
    workspace: options.workspace,
    startedAt: new Date(services.startedAt).toISOString(),
  });
  // a restarted daemon (idle shutdown) keeps serving its remote agents where they connected before
  if (shares.tunnel && shares.hasLive()) {
    await tunnel.listen(shares.tunnel.host, shares.tunnel.port).catch((error: unknown) => log.warn('tunnel.reopen_failed', { ...shares.tunnel, message: (error as Error).message }));
  }
  touch();
  log.info('daemon.started', { port: server.port, pid: process.pid, workspace: options.workspace, idleTimeoutMs });
  return { port: server.port, token, stateDir: options.stateDir, services, stopped, stop };
}
