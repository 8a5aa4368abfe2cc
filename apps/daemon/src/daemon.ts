import { join } from 'node:path';
import {
  type AppRouter,
  ArgusError,
  type ArgusErrorData,
  type Authorize,
  type CallContext,
  type Scope,
} from '@argus/protocol';
import { type ObserveCall, buildRouter, toArgusErrorData } from '@argus/protocol/router';
import { generateToken } from '@argus/security';
import { Access } from './access.js';
import { BrowserManager } from './browser-manager.js';
import { CallerLog, logCallers } from './caller-log.js';
import { createAuthorize, runAsClient } from './client-guard.js';
import { ApprovalQueue } from './policy/approvals.js';
import { createNavigationGuard, createPolicyAuthorize } from './policy/authorize.js';
import { ConfigStore } from './policy/config-store.js';
import { callAs, createDispatch } from './dispatch.js';
import { assertPageAllowed, guardFileUrls } from './file-guard.js';
import { createHandlers } from './handlers/index.js';
import { cdpUrlOf, poolOptionsOf } from './handlers/session.js';
import { applySavedState } from './handlers/state.js';
import { withCommandScopes } from './command-scopes.js';
import { withLeaseClaims } from './lease-claims.js';
import { Logger } from './logger.js';
import { RelayHost } from './relay-host.js';
import { type RunningServer, startServer } from './server.js';
import { ShareStore } from './share-store.js';
import { type McpHttpEndpoint, Tunnel } from './tunnel-server.js';
import type { Services } from './services.js';
import { WebProviders } from './web-providers.js';
import { RenderGuards, chainGuards } from './render-guards.js';
import { resumeAfterRestart } from './restart.js';
import { markStateFileStopping, prepareStateDir, removeStateFile, writeStateFile } from './state-file.js';
import type { DaemonState } from '@argus/protocol/daemon-state';
import { Journal } from './journal/journal.js';
import { locateTab } from './journal/locate-tab.js';
import { observeAll } from './observe-all.js';
import { CanvasSync } from './canvas-sync.js';
import { WatchService } from './watch/watch-service.js';
import { HandoffService } from './handoff/handoff-service.js';
import { ProfileStore } from './profile-store.js';
import { SkillRecorder } from './skills/skill-recorder.js';
import { SkillStore } from './skills/skill-store.js';
import { InboxStore } from './inbox/inbox-store.js';
import { annotateForExtension } from './inbox/extension-annotate.js';
import { startExtensionPanel } from './extension-panel.js';
import { homedir } from 'node:os';

export const VERSION = '0.1.0';

export interface DaemonOptions {
  stateDir: string;
  workspace: string;
  env?: NodeJS.ProcessEnv;
  idleTimeoutMs?: number;
  port?: number;
  /** MCP over Streamable HTTP on the tunnel listener (the plugin provides it: `@argus/plugin/http`). */
  mcp?: McpHttpEndpoint;
  /** Launch a managed browser at once rather than on the first command (daemons that clients start). */
  prelaunch?: boolean;
  /** Started for agents whose starter has gone (a hosted daemon's hand-over): see DaemonState.agentsOwn. */
  agentsOwn?: boolean;
  /**
   * Answers host names for the browser tier's address checks instead of the system resolver. For
   * tests that give an invented name a public address (Chromium maps it with --host-resolver-rules).
   */
  resolveHost?: (host: string) => Promise<readonly string[]>;
}

export interface RunningDaemon {
  port: number;
  token: string;
  stateDir: string;
  services: Services;
  /** Resolves when the daemon has fully stopped (browser closed, state file removed). */
  stopped: Promise<void>;
  stop(reason?: string): Promise<void>;
  /**
   * Runs one command by contract path for a client in this process (an MCP server hosting the daemon),
   * exactly as a request on its port runs: the router's validation, scopes, policy and journal, and a
   * tick of the idle clock. The caller's context stands in for what a request's token and headers say.
   */
  call(path: string, input: unknown, ctx: CallContext): Promise<unknown>;
  /** Whether it is stopping, stopped or asked to stop: a client in this process waits for `stopped` and starts another. */
  stopping(): boolean;
}

/** Runs each part of the seam in order; the first refusal ends the call. */
function chainAuthorize(...parts: Authorize[]): Authorize {
  return async (ctx, command, input) => {
    for (const part of parts) await part(ctx, command, input);
  };
}

/**
 * Starts the daemon: server on 127.0.0.1, state file (0600), idle shutdown. The browser starts on the
 * first command, or at once with `prelaunch`.
 */
export async function startDaemon(options: DaemonOptions): Promise<RunningDaemon> {
  const env = options.env ?? process.env;
  // user file < project file < environment < flags; an invalid layer stops the start with its file and key
  const config = new ConfigStore(options.workspace, env);
  const settings = config.current();
  prepareStateDir(options.stateDir);
  const token = generateToken();
  const logFile = join(options.stateDir, 'daemon.log');
  const tokens = new Map<string, readonly Scope[]>([[token, ['admin']]]);
  const log = new Logger(logFile, () => [...tokens.keys()]);
  config.attachLog(log);
  const approvals = new ApprovalQueue(log);
  const policyDeps = { policy: () => config.current().policy, approvals, log };
  const idleTimeoutMs = options.idleTimeoutMs ?? settings.idleTimeoutMs ?? 30 * 60_000;
  const relay = new RelayHost({
    log,
    daemonToken: token,
    stateDir: options.stateDir,
    port: () => config.current().relay?.port ?? 8787,
    launchToken: env.ARGUS_RELAY_LAUNCH_TOKEN || undefined,
    // the manager and the inbox are made below; the button is only pressed once the daemon runs
    onAnnotateRequest: ({ targetId }) => annotateForExtension({ manager, inbox: () => inbox, log }, targetId),
    onPauseChange: ({ targetId, paused }) => {
      manager.pauses.set(targetId, paused);
      log.info(paused ? 'tab.paused' : 'tab.resumed', { tab: targetId });
    },
    // the side panel's Clear runs the same command as `argus inbox clear` (journalled, policy applies)
    onInboxClear: () =>
      void services.dispatch('inbox.clear', {}, { scopes: ['write'], client: 'extension-panel' }).then(
        (result) => log.info('inbox.cleared_from_panel', result as Record<string, unknown>),
        (error: unknown) => log.warn('inbox.clear_from_panel_failed', { message: (error as Error).message }),
      ),
    onExtensionConnection: (connected) => {
      if (connected) return panel.pushInbox();
      // nobody is left to press Resume: the pauses end, commands waiting on them fail saying why
      const ended = manager.pauses.endAll();
      if (ended.length) log.info('tab.pauses_ended', { reason: 'extension disconnected', tabs: ended });
    },
  });
  const access = Access.fromSettings(settings.files, options.workspace, options.stateDir, env.HOME || undefined);
  const renderGuards = new RenderGuards();
  const profileName = settings.chrome?.profile;
  const profiles = new ProfileStore(options.stateDir, profileName);
  const manager = new BrowserManager({
    log,
    logFile,
    headless: settings.chrome?.headless ?? true,
    extraFlags: settings.chrome?.flags ?? [],
    cdpUrl: settings.chrome?.cdpUrl ? cdpUrlOf(settings.chrome.cdpUrl, env.ARGUS_CDP_ALLOW_REMOTE === '1') : undefined,
    // a pool in the config (ARGUS_POOL): the daemon starts in pool mode (an explicit cdpUrl wins)
    pool:
      settings.pool?.endpoints?.length && !settings.chrome?.cdpUrl
        ? poolOptionsOf(settings.pool.endpoints, settings.pool.allowRemote === true, {
            maxSessions: settings.pool.maxSessionsPerEndpoint,
            healthIntervalMs: settings.pool.healthIntervalMs,
            restoreState: settings.pool.restoreState,
          })
        : undefined,
    chromePath: settings.chrome?.path,
    // a persistent user-data dir (`--profile NAME`): created 0700 and stamped at each launch
    ...(profileName ? { userDataDir: () => profiles.prepare(profileName) } : {}),
    captureCapacity: settings.captureCapacity ?? 5_000,
    maxParallel: settings.maxParallelCommands,
    // the render tabs' guard first, so their refusals keep the provider's error code
    guard: chainGuards(renderGuards.guard, createNavigationGuard(policyDeps)),
    extensionTransport: () => relay.transport(),
    guardPage: (page) => assertPageAllowed(page, access),
  });
  // browser-wide (the browser session's interception): set up while the first tab attaches
  manager.onStart((browser) => guardFileUrls(browser, access, log), { early: true });
  if (options.prelaunch) manager.prelaunch();

  let resolveStopped!: () => void;
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve));
  let stopping: Promise<void> | undefined;
  /** A stop command was answered: the stop itself begins a moment later. */
  let stopRequested = false;
  /** What the state file says (written once the port is open; rewritten by leftToAgents). */
  let stateRecord: DaemonState | undefined;
  let server: RunningServer | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  const shares = new ShareStore(options.stateDir);
  const web = new WebProviders(manager, config, options.stateDir, renderGuards, options.resolveHost);
  const locate = locateTab(manager);
  const skills = {
    store: new SkillStore({ access, home: env.HOME || homedir() }),
    recorder: new SkillRecorder(locate),
    locate,
  };
  const journal = new Journal({
    stateDir: options.stateDir,
    locate,
    onError: (message) => log.warn('journal.failed', { message }),
  });
  const inbox = new InboxStore(join(options.stateDir, 'inbox.json'));
  const canvasSync = new CanvasSync();
  const watch = new WatchService(manager, locate, log, () => touch(), env);
  const panel = startExtensionPanel({
    manager,
    feed: watch.feed,
    inbox,
    notify: (event, params) => relay.notify(event, params),
  });
  const handoff = new HandoffService({
    manager,
    log,
    stateDir: options.stateDir,
    workspace: options.workspace,
    dispatch: () => services.dispatch,
    // a daemon left to agents that a person's hand-off kept: alone once it ends, it stops
    onEnded: () => {
      if (!stateRecord?.agentsOwn || stopRequested || stopping) return;
      const attached = services.callers.attached();
      if (attached.length) return;
      log.info('daemon.stop_after_handoff', {});
      services.requestStop();
    },
  });

  /**
   * One step of the stop: a failure is logged and the next steps still run, so the daemon always
   * ends (a step that threw used to leave it half-stopped and listening, deaf to SIGTERM too).
   */
  const stopStep = async (name: string, step: () => unknown): Promise<void> => {
    try {
      await step();
    } catch (error) {
      log.error(`${name}.close_failed`, { message: (error as Error).message });
    }
  };
  const stop = (reason = 'requested'): Promise<void> => {
    stopping ??= (async () => {
      log.info('daemon.stopping', { reason });
      clearTimeout(idleTimer);
      try {
        await stopStep('approvals', () => approvals.close());
        await stopStep('canvas', () => canvasSync.close());
        await stopStep('panel', () => panel.stop());
        // the state file stays (marked stopping) until the browser, the listener and the journal are
        // closed: a client that looks meanwhile waits for this process to exit instead of starting a
        // second daemon that would race this one for the profile and the state dir
        await stopStep('state_file', () => stateRecord && markStateFileStopping(options.stateDir, stateRecord));
        await stopStep('handoff', () => handoff.close());
        // before the browser goes: recordings write their manifests
        await stopStep('watch', () => watch.close());
        await stopStep('browser', () => manager.close());
        await stopStep('relay', () => relay.close());
        await stopStep('tunnel', () => tunnel.close());
        await stopStep('web', () => web.close());
        await stopStep('shares', () => shares.flush());
        await stopStep('server', () => server?.close());
        // after the server: the last commands (stop itself) are in the queue
        await stopStep('journal', () => journal.close());
        await stopStep('state_file', () => removeStateFile(options.stateDir, process.pid));
        log.info('daemon.stopped', { reason });
        // the log is asynchronous: everything up to here is on disk before anyone hears "stopped"
        await log.close().catch(() => undefined);
      } finally {
        resolveStopped();
      }
    })();
    return stopping;
  };

  /** Queries and mutations running now, however they came (HTTP, a WebSocket, the tunnel). */
  let running = 0;
  const countRunning: ObserveCall = (_ctx, command) => {
    if (command.kind === 'subscription') return undefined;
    running++;
    return () => void running--;
  };
  const touch = () => {
    clearTimeout(idleTimer);
    if (idleTimeoutMs > 0) {
      idleTimer = setTimeout(() => {
        // someone watching a tab, a person with a handed-off tab, or a command still running (longer
        // than the idle timeout) is using the daemon even when no new request comes: look again later
        if (watch.viewers > 0 || handoff.list().length > 0 || (server?.inFlight() ?? 0) > 0 || running > 0)
          return touch();
        void stop(`idle for ${idleTimeoutMs} ms`);
      }, idleTimeoutMs);
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
    access,
    logFile,
    startedAt: Date.now(),
    idleTimeoutMs,
    // let the response go out first
    requestStop: () => {
      stopRequested = true;
      setTimeout(() => void stop('stop command'), 10);
    },
    leftToAgents: () => {
      if (!stateRecord || stateRecord.agentsOwn || stopRequested || stopping) return;
      stateRecord = { ...stateRecord, agentsOwn: true };
      writeStateFile(options.stateDir, stateRecord);
    },
    tokens,
    shares,
    tunnel: new Tunnel({
      router: () => router,
      shares,
      log,
      onActivity: () => touch(),
      mcp: options.mcp,
      onExpired: (id) => manager.closeOwner(id),
    }),
    config,
    approvals,
    dispatch: createDispatch(() => router),
    web,
    callers: new CallerLog(),
    journal,
    profiles,
    watch,
    skills,
    inbox,
    canvasSync,
    handoff,
  };
  const { tunnel } = services;
  // pool mode: a session recreated on another endpoint comes back from its last `state save`
  manager.onRecreate(async (browser, name) => {
    const restored = await applySavedState(services, browser, name, {
      restoreTabs: true,
      timeoutMs: 10_000,
      // no caller to ask here: an agent's rules (file: URLs only where agents may open them)
      refusal: (url) => access.urlRefusal(url, { cwd: options.workspace, scopes: ['write'] }),
    });
    log.info('pool.restored', {
      state: name,
      cookies: restored.cookies,
      origins: restored.origins,
      tabs: restored.tabsOpened.length,
      warnings: restored.warnings,
    });
  });
  /** A failed command, logged the same way whether it came on the port or from this process (call). */
  const commandFailed = ({
    path,
    error,
    stack,
  }: {
    path: string | undefined;
    error: ArgusErrorData;
    stack?: string | undefined;
  }) => log.warn('command.failed', { path, code: error.code, message: error.message, ...(stack ? { stack } : {}) });
  const router: AppRouter = buildRouter(
    withCommandScopes(withLeaseClaims(runAsClient(logCallers(createHandlers(services), services.callers), log))),
    {
      // scope and allow-list (@argus/security), then what a shared token may never do; denials logged
      // then the operator's policy (domains, approvals); both refuse by throwing
      authorize: chainAuthorize(createAuthorize(log), createPolicyAuthorize(policyDeps)),
      onError: commandFailed,
      // the journal, the watch feed and skill recordings each see every call
      observe: observeAll(journal.observe, watch.feed.observe, skills.recorder.observe, countRunning),
    },
  );
  // after `argus restart`: the previous daemon's session and tabs, before anyone is told we are up
  await resumeAfterRestart(services);
  server = await startServer({
    router,
    tokens: () => tokens,
    onActivity: touch,
    onRefused: (event, fields) => log.warn(event, fields),
    onConnectionClosed: (connection) => {
      const tabs = manager.leases.releaseConnection(connection);
      const docs = canvasSync.leases.releaseConnection(connection);
      if (tabs.length || docs.length) log.info('lease.released_on_disconnect', { tabs, docs });
    },
    ...(options.port === undefined ? {} : { port: options.port }),
  });
  stateRecord = {
    port: server.port,
    pid: process.pid,
    token,
    version: VERSION,
    workspace: options.workspace,
    startedAt: new Date(services.startedAt).toISOString(),
    profile: profileName ?? null,
    ...(options.agentsOwn ? { agentsOwn: true } : {}),
  };
  writeStateFile(options.stateDir, stateRecord);
  // a restarted daemon (idle shutdown) keeps serving its remote agents where they connected before
  if (shares.tunnel && shares.hasLive()) {
    await tunnel
      .listen(shares.tunnel.host, shares.tunnel.port)
      .catch((error: unknown) =>
        log.warn('tunnel.reopen_failed', { ...shares.tunnel, message: (error as Error).message }),
      );
  }
  touch();
  log.info('daemon.started', { port: server.port, pid: process.pid, workspace: options.workspace, idleTimeoutMs });
  const call = async (path: string, input: unknown, ctx: CallContext): Promise<unknown> => {
    touch();
    try {
      return await callAs(router, path, input, ctx);
    } catch (error) {
      // what the router's error formatter does for a request: the contract's error, logged
      const argus = toArgusErrorData(error, path);
      // an internal error's stack is its cause's (the router's caller wraps it), as the formatter logs it
      const original = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      commandFailed({ path, error: argus, stack: argus.code === 'internal' ? (original as Error)?.stack : undefined });
      throw ArgusError.fromData(argus);
    }
  };
  return {
    port: server.port,
    token,
    stateDir: options.stateDir,
    services,
    stopped,
    stop,
    call,
    stopping: () => stopRequested || stopping !== undefined,
  };
}
