import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type * as ArgusClient from '@argus/client';
import type { CallOptions, Connection } from '@argus/client';
import { cueBrowserLaunch, earlyStartSettled, startDaemon } from '@argus/client/daemon-spawn';
import type { RunningDaemon } from '@argus/daemon';
import type { AnyCommand, CallContext } from '@argus/protocol';
import { AGENTS_OWN_ENV } from '@argus/protocol/daemon-state';
import { ArgusError } from '@argus/protocol/errors';
import { daemonEntry } from './daemon-entry.js';
import { HostedDaemon } from './hosted-daemon.js';
import type { InboxChange } from './inbox-notify.js';
import { prestartDaemonEnv, prestartMode } from './prestart.js';

export { daemonEntry };

/**
 * The typed client (tRPC and the rest of @argus/client), loaded when the link first connects, so
 * argus-mcp does not compile it before its first answer (the daemon is up only after that answer).
 */
let clientModule: Promise<typeof ArgusClient> | undefined;
const argusClient = () => (clientModule ??= import('@argus/client'));

export interface DaemonLinkOptions {
  /** Directory whose workspace owns the daemon (default: process.cwd()). */
  cwd?: string | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  /** Override for tests; defaults to the installed @argus/daemon. */
  daemonEntry?: string | undefined;
  /** The named session every call runs in (`argus mcp --session NAME`); undefined: the default one. */
  session?: string | undefined;
  /**
   * Run the workspace daemon in this process when none runs (argus-mcp's default, see hostsDaemon):
   * calls then go to its router directly. A daemon already running is shared over its port, as ever.
   */
  host?: boolean | undefined;
}

/** Calls a manifest command by contract path on a connection (the plugin dispatches from the manifest). */
export function invoke(
  connection: Connection,
  command: AnyCommand,
  input: unknown,
  options: CallOptions = {},
): Promise<unknown> {
  if (command.kind === 'subscription') return Promise.reject(streamRefused(command));
  return connection.call(command.name, command.kind, input, options);
}

function streamRefused(command: AnyCommand): ArgusError {
  return new ArgusError('unsupported', `${command.name} is a stream; tools cannot call it.`);
}

/**
 * The plugin's link to the shared per-workspace daemon: connects lazily (starting the daemon on the
 * first call), and when a call finds the daemon gone (`daemon_unreachable`), reconnects once,
 * starting a fresh daemon, and retries the call.
 */
/** A command waiting for an approval, as `approvals.watch` streams it. */
export interface PendingApproval {
  id: string;
  command: string;
  summary: string;
  reason: string;
  client: string | null;
  expiresInMs: number;
}

export class DaemonLink {
  private connection: Promise<Connection> | undefined;
  private readonly options: DaemonLinkOptions;
  /** This server's name at the daemon: approvals its own calls wait for carry it. */
  readonly name = `mcp-${process.pid}-${randomBytes(3).toString('hex')}`;
  /**
   * Tab lease ids this server took for its agent (`argus_tab_lease`): presented with every call, so
   * the agent never handles them, and released when the agent goes (close).
   */
  private readonly leases = new Set<string>();

  /** The daemon this process runs for the link (options.host), whether or not it runs now. */
  private readonly host: HostedDaemon | undefined;
  /** The hosted daemon while the connection is to it: calls go to its router, not over the socket. */
  private hosted: RunningDaemon | undefined;

  constructor(options: DaemonLinkOptions = {}) {
    this.options = options;
    this.host = options.host ? new HostedDaemon(options.env ?? process.env, options.cwd ?? process.cwd()) : undefined;
  }

  /** Whether this link's calls go to a daemon in this process now. */
  get hosting(): boolean {
    return this.hosted !== undefined;
  }

  /**
   * A browser command is coming: a daemon still loading launches Chromium now (a launch cue to an
   * early daemon process, or an early launch for a hosted daemon not up yet); nothing once it is up.
   */
  cueBrowser(): void {
    cueBrowserLaunch();
    this.host?.cue();
  }

  private entry(): string {
    return this.options.daemonEntry ?? daemonEntry();
  }

  /** How this link reaches its daemon: over HTTP, starting one when none runs (with `daemonEnv` added to its environment). */
  private connectOptions(daemonEnv?: Record<string, string>) {
    return {
      ...(daemonEnv ? { daemonEnv } : {}),
      autoStart: true,
      daemonEntry: this.entry(),
      cwd: this.options.cwd,
      env: this.options.env,
      transport: 'http' as const,
      // thousands of calls over the agent's session: its tools' calls go over one WebSocket held open
      // (cheaper per call than HTTP, see WsCalls); the typed client's few calls stay on kept-alive HTTP
      calls: 'ws' as const,
      keepAlive: true,
      name: this.name,
      session: this.options.session,
      // read per call: the leases held now
      lease: () => [...this.leases].slice(-16),
      // the ws package loads once the daemon is up: not compiled before the server's first answer
      loadWebSocket: () => import('ws').then((module) => module.WebSocket),
    };
  }

  /** Set once this link started a daemon (first connect or a reconnect): it may stop it on leaving. */
  private startedPid: number | undefined;

  private connect(daemonEnv?: Record<string, string>): Promise<Connection> {
    const pending: Promise<Connection> = (async () => {
      // the daemon argus-mcp's entry started: the client is made once it is up (see argusClient)
      await earlyStartSettled();
      const hosted = await this.hostUnlessRunning(daemonEnv);
      const { connectToDaemon } = await argusClient();
      if (!hosted) return connectToDaemon(this.connectOptions(daemonEnv));
      // the hosted daemon's own port carries only the streams (approvals, inbox); calls skip it
      const connection = await connectToDaemon({
        ...this.connectOptions(),
        stateDir: hosted.stateDir,
        autoStart: false,
      });
      this.hosted = hosted;
      void hosted.stopped.then(() => {
        // stopped (idle, `argus stop`, a restart): the next call connects afresh, hosting again if none runs
        if (this.hosted !== hosted) return;
        this.hosted = undefined;
        if (this.connection === pending) this.connection = undefined;
        connection.close();
      });
      return connection;
    })();
    void pending.then(
      (connection) => {
        if (connection.started) this.startedPid = connection.state.pid;
      },
      () => undefined,
    );
    // A failed connect must not stick: the next call tries again.
    pending.catch(() => {
      if (this.connection === pending) this.connection = undefined;
    });
    return pending;
  }

  /**
   * With options.host: the daemon started in this process when no other runs for the workspace
   * (one that does, the CLI's or another agent's, is shared over its port instead). Undefined otherwise.
   */
  private async hostUnlessRunning(daemonEnv?: Record<string, string>): Promise<RunningDaemon | undefined> {
    if (!this.host || this.host.otherRunning()) return undefined;
    // as a daemon process would: Chromium at once unless the prestart (or ARGUS_PRELAUNCH) says not
    const prelaunch = (daemonEnv?.ARGUS_PRELAUNCH ?? (this.options.env ?? process.env).ARGUS_PRELAUNCH) !== '0';
    return this.host.start(prelaunch);
  }

  /** What a call from this link says about its caller, as the headers of a request on the port do. */
  private context(): CallContext {
    return {
      scopes: ['admin'],
      client: this.name,
      cwd: resolve(this.options.cwd ?? process.cwd()),
      ...(this.options.session === undefined ? {} : { session: this.options.session }),
      leases: [...this.leases].slice(-16),
    };
  }

  /** A fresh connection, replacing `failed` (shared by concurrent callers that saw the same failure). */
  private reconnect(failed: Promise<Connection>): Promise<Connection> {
    if (this.connection !== failed) return this.connection ?? (this.connection = this.connect());
    const next = (async () => {
      const { connectToDaemon, daemonAnswers, readState } = await argusClient();
      const old = await failed.catch(() => undefined);
      old?.close();
      // the shared daemon went away: this process hosts the next one, unless another runs by now
      if (this.host && !this.host.otherRunning()) return (this.connection = this.connect());
      const stateDir = old?.stateDir;
      const state = stateDir ? readState(stateDir) : undefined;
      // The state file may still name a live pid that no longer answers (shutting down, reused pid):
      // then start a fresh daemon rather than trusting it.
      if (stateDir && state && !(await daemonAnswers(state))) {
        const fresh = await startDaemon({
          daemonEntry: this.entry(),
          stateDir,
          env: this.options.env,
          cwd: this.options.cwd,
        });
        this.startedPid = fresh.pid;
      }
      const connection = await connectToDaemon({ ...this.connectOptions(), ...(stateDir ? { stateDir } : {}) });
      if (connection.started) this.startedPid = connection.state.pid;
      return connection;
    })();
    next.catch(() => {
      if (this.connection === next) this.connection = undefined;
    });
    this.connection = next;
    return next;
  }

  /**
   * Connects now, without waiting, starting the daemon when none runs (a start begun early by
   * argus-mcp's entry is adopted), so the agent's first call does not wait for the daemon's start-up.
   * ARGUS_PRELAUNCH decides what starts (see prestart.ts); a daemon started here is this link's own.
   */
  prestart(): void {
    this.prestarted = true;
    const mode = prestartMode(this.options.env ?? process.env);
    if (this.connection || mode === 'off') return;
    this.connection = this.connect(prestartDaemonEnv(mode));
  }

  private prestarted = false;

  /**
   * The connection, made now when there is none. The first is made as the prestart makes it, also
   * for a call that comes before the prestart's turn (argus-mcp prestarts a hosted daemon a little
   * after `initialized`): a first call that needs no browser then launches none.
   */
  private current(): Promise<Connection> {
    if (!this.prestarted) this.prestart();
    return (this.connection ??= this.connect());
  }

  async call(command: AnyCommand, input: unknown, options: CallOptions = {}): Promise<unknown> {
    const output = await this.send(command, input, options);
    if (command.name === 'tabs.lease') this.leases.add((output as { lease: string }).lease);
    if (command.name === 'tabs.release') {
      const named = (input as { lease?: string } | null)?.lease;
      if (named === undefined) this.leases.clear();
      else this.leases.delete(named);
    }
    return output;
  }

  private async send(command: AnyCommand, input: unknown, options: CallOptions): Promise<unknown> {
    const current = this.current();
    try {
      const connection = await current;
      const hosted = this.hosted;
      if (!hosted) return await invoke(connection, command, input, options);
      if (hosted.stopping()) {
        // stopping (idle, `argus stop`, a restart): the call goes to the next daemon once this one is gone
        await hosted.stopped;
        return await this.send(command, input, options);
      }
      if (command.kind === 'subscription') throw streamRefused(command);
      // in-process, the signal is the command's own: the router's caller aborts the command with it
      const { signal } = options;
      return await hosted.call(command.name, input, signal ? { ...this.context(), signal } : this.context());
    } catch (error) {
      const { toArgusError } = await argusClient();
      const failure = toArgusError(error);
      if (failure.code !== 'daemon_unreachable') throw failure;
      try {
        return await invoke(await this.reconnect(current), command, input, options);
      } catch (retryError) {
        throw toArgusError(retryError);
      }
    }
  }

  /**
   * Streams approvals as they start waiting (over the WebSocket; calls stay on HTTP). Resolves once
   * subscribed; `onEnd` runs when the stream breaks (daemon gone), so the caller can watch again.
   */
  async watchApprovals(onPending: (pending: PendingApproval) => void, onEnd: () => void): Promise<() => void> {
    const connection = await this.current();
    const subscription = connection.client.approvals.watch.subscribe(
      {},
      { onData: onPending, onError: onEnd, onComplete: onEnd },
    );
    return () => subscription.unsubscribe();
  }

  /** Follows the inbox's unread count (over the WebSocket, like approvals); `onEnd` when the stream breaks. */
  async watchInbox(onChange: (change: InboxChange) => void, onEnd: () => void): Promise<() => void> {
    const connection = await this.current();
    const subscription = connection.client.inbox.watch.subscribe(
      {},
      { onData: onChange, onError: onEnd, onComplete: onEnd },
    );
    return () => subscription.unsubscribe();
  }

  /**
   * Closes the client side. With `stopOwnDaemon`, a daemon this link started is asked to stop
   * (`daemon.stop {ifAlone}`): it does unless another client used it lately or holds a stream; a
   * daemon that was already running when this link came is the CLI's or another agent's, and stays.
   * A daemon this link hosts cannot outlive the process: when others use it (or `stopOwnDaemon` is
   * off), it hands over to a daemon process of its own, as `argus restart` does (handOver).
   */
  async close(options: { stopOwnDaemon?: boolean } = {}): Promise<void> {
    const pending = this.connection;
    this.connection = undefined;
    const connection = await pending?.catch(() => undefined);
    const hosted = this.hosted;
    this.hosted = undefined;
    try {
      if (hosted) return await this.leaveHosted(hosted, options.stopOwnDaemon === true);
      // the agent is gone: its tab leases go with it, so other clients need not wait for them to expire
      if (connection && this.leases.size > 0) await connection.client.tabs.release.mutate({}).catch(() => undefined);
      this.leases.clear();
      if (options.stopOwnDaemon && connection) await this.stopIfOwned(connection);
    } finally {
      connection?.close();
    }
  }

  /**
   * The agent leaves: the daemon this link started, or one whose starting agent left it to the
   * agents (its state says agentsOwn: a hosted daemon handed over, or a starter's stop declined while
   * others used it), is asked to stop unless someone else uses it. Without this, the last agent of a
   * handed-over daemon left it and its browser running until the idle timeout.
   */
  private async stopIfOwned(connection: Connection): Promise<void> {
    const owned = await this.ownedDaemon(connection);
    if (!owned) return;
    try {
      await owned.client.daemon.stop.mutate({ ifAlone: true }).catch(() => undefined);
    } finally {
      if (owned !== connection) owned.close();
    }
  }

  /** Where to ask (stopIfOwned): this link's connection, a fresh one to the daemon running now, or nowhere. */
  private async ownedDaemon(connection: Connection): Promise<Connection | undefined> {
    if (this.startedPid === connection.state.pid) return connection;
    const { connectToDaemon, readState } = await argusClient();
    const state = readState(connection.stateDir);
    if (!state?.agentsOwn) return undefined;
    if (state.pid === connection.state.pid) return connection;
    // a hand-over replaced the daemon this link last reached: ask the one running now, as this agent
    return connectToDaemon({
      stateDir: connection.stateDir,
      autoStart: false,
      transport: 'http',
      name: this.name,
    }).catch(() => undefined);
  }

  /** The agent leaves a daemon this process hosts: it stops, or moves to a process of its own. */
  private async leaveHosted(daemon: RunningDaemon, stopAlone: boolean): Promise<void> {
    // already stopping (idle, `argus stop`): nothing to hand over
    if (daemon.stopping()) return daemon.stopped;
    const ctx = this.context();
    if (this.leases.size > 0) await daemon.call('tabs.release', {}, ctx).catch(() => undefined);
    this.leases.clear();
    const answer = stopAlone
      ? ((await daemon.call('daemon.stop', { ifAlone: true }, ctx).catch(() => undefined)) as
          | { stopping: boolean }
          | undefined)
      : { stopping: false };
    if (answer?.stopping === false) await this.handOver(daemon, ctx);
    else if (!answer) await daemon.stop('agent left');
    await daemon.stopped;
  }

  /**
   * Others use the hosted daemon: its browser's tabs, cookies and storage are saved as for `argus
   * restart`, it stops, and a daemon process started for the workspace loads them into a fresh
   * browser. The other clients reconnect to it on their next call (their refs are gone, their tabs
   * are not). Without the save (a restart refused), it stops as it would alone.
   */
  private async handOver(daemon: RunningDaemon, ctx: CallContext): Promise<void> {
    const restarting = await daemon.call('daemon.restart', {}, ctx).then(
      () => true,
      () => false,
    );
    if (!restarting) return daemon.stop('agent left');
    // started while this one stops: it loads its modules meanwhile, then reads the restart's state
    // its agent is gone: the others' servers stop it when they go (DaemonState.agentsOwn)
    const next = startDaemon({
      daemonEntry: this.entry(),
      stateDir: daemon.stateDir,
      env: { ...(this.options.env ?? process.env), [AGENTS_OWN_ENV]: '1' },
      cwd: this.options.cwd,
    }).catch(() => undefined);
    await daemon.stopped;
    // up, or left to come up on its own (it is detached) within an MCP client's grace before SIGKILL
    await Promise.race([next, new Promise((resolve) => setTimeout(resolve, HAND_OVER_WAIT_MS).unref())]);
  }
}

/** How long a leaving server waits for the daemon process it handed over to (it reopens the tabs first). */
const HAND_OVER_WAIT_MS = 2_500;
