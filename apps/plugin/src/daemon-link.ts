import { randomBytes } from 'node:crypto';
import type * as ArgusClient from '@argus/client';
import type { Connection } from '@argus/client';
import { earlyStartSettled } from '@argus/client/daemon-spawn';
import type { AnyCommand } from '@argus/protocol';
import { ArgusError } from '@argus/protocol/errors';
import { daemonEntry } from './daemon-entry.js';
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
}

/** Calls a manifest command by contract path on a connection (the plugin dispatches from the manifest). */
export function invoke(connection: Connection, command: AnyCommand, input: unknown): Promise<unknown> {
  if (command.kind === 'subscription')
    return Promise.reject(new ArgusError('unsupported', `${command.name} is a stream; tools cannot call it.`));
  return connection.call(command.name, command.kind, input);
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

  constructor(options: DaemonLinkOptions = {}) {
    this.options = options;
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
    const pending = (async () => {
      // the daemon argus-mcp's entry started: the client is made once it is up (see argusClient)
      await earlyStartSettled();
      const { connectToDaemon } = await argusClient();
      return connectToDaemon(this.connectOptions(daemonEnv));
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

  /** A fresh connection, replacing `failed` (shared by concurrent callers that saw the same failure). */
  private reconnect(failed: Promise<Connection>): Promise<Connection> {
    if (this.connection !== failed) return this.connection ?? (this.connection = this.connect());
    const next = (async () => {
      const { connectToDaemon, daemonAnswers, readState, startDaemon } = await argusClient();
      const old = await failed.catch(() => undefined);
      old?.close();
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
    const mode = prestartMode(this.options.env ?? process.env);
    if (this.connection || mode === 'off') return;
    this.connection = this.connect(prestartDaemonEnv(mode));
  }

  async call(command: AnyCommand, input: unknown): Promise<unknown> {
    const output = await this.send(command, input);
    if (command.name === 'tabs.lease') this.leases.add((output as { lease: string }).lease);
    if (command.name === 'tabs.release') {
      const named = (input as { lease?: string } | null)?.lease;
      if (named === undefined) this.leases.clear();
      else this.leases.delete(named);
    }
    return output;
  }

  private async send(command: AnyCommand, input: unknown): Promise<unknown> {
    const current = (this.connection ??= this.connect());
    try {
      return await invoke(await current, command, input);
    } catch (error) {
      const { toArgusError } = await argusClient();
      const failure = toArgusError(error);
      if (failure.code !== 'daemon_unreachable') throw failure;
      try {
        return await invoke(await this.reconnect(current), command, input);
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
    const connection = await (this.connection ??= this.connect());
    const subscription = connection.client.approvals.watch.subscribe(
      {},
      { onData: onPending, onError: onEnd, onComplete: onEnd },
    );
    return () => subscription.unsubscribe();
  }

  /** Follows the inbox's unread count (over the WebSocket, like approvals); `onEnd` when the stream breaks. */
  async watchInbox(onChange: (change: InboxChange) => void, onEnd: () => void): Promise<() => void> {
    const connection = await (this.connection ??= this.connect());
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
   */
  async close(options: { stopOwnDaemon?: boolean } = {}): Promise<void> {
    const pending = this.connection;
    this.connection = undefined;
    const connection = await pending?.catch(() => undefined);
    try {
      // the agent is gone: its tab leases go with it, so other clients need not wait for them to expire
      if (connection && this.leases.size > 0) await connection.client.tabs.release.mutate({}).catch(() => undefined);
      this.leases.clear();
      if (options.stopOwnDaemon && connection && this.startedPid === connection.state.pid)
        await connection.client.daemon.stop.mutate({ ifAlone: true }).catch(() => undefined);
    } finally {
      connection?.close();
    }
  }
}
