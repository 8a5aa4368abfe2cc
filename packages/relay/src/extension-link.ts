import { randomUUID } from 'node:crypto';
import { ArgusError } from '@argus/protocol';
import type { WebSocket } from 'ws';
import { ResultCache } from './result-cache.js';
import type { RelayLog } from './types.js';
import { RemoteCommandError } from './wire-error.js';
import {
  CLOSE_CODES,
  COMMANDS,
  EVENTS,
  ExtensionFrame,
  WIRE_VERSION,
  type CommandFrame,
  type CommandName,
  type EventName,
  type RelayEventName,
  type RelayEventParams,
  type CommandParams,
  type CommandResult,
  type ResultFrame,
} from './wire/index.js';

interface Pending {
  frame: CommandFrame;
  promise: Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
}

export interface SendOptions {
  /** Idempotency key; a replay of a key returns the first execution's result. */
  key?: string | undefined;
  timeoutMs?: number | undefined;
  /** How long to wait for an extension to (re)connect before failing; 0 fails at once. */
  connectGraceMs?: number | undefined;
}

export interface NodeInfo {
  nodeId: string;
  extensionVersion: string;
}

const HEARTBEAT_MS = 15_000;

/**
 * The relay's side of the one extension node. Commands carry idempotency keys and stay pending
 * across a reconnect: they are re-sent after the node re-authenticates, and the node answers a
 * replay from its own result cache instead of running the side effect again.
 */
export class ExtensionLink {
  private socket: WebSocket | undefined;
  private node: NodeInfo | undefined;
  private readonly pending = new Map<string, Pending>();
  private readonly results = new ResultCache<ResultFrame>();
  private readonly eventListeners = new Set<(event: string, params: unknown) => void>();
  private readonly changeListeners = new Set<() => void>();
  private readonly connectWaiters = new Set<() => void>();
  private heartbeat: NodeJS.Timeout | undefined;
  private alive = true;
  /** Running while the node is away with commands in flight: they fail when it runs out. */
  private orphanTimer: NodeJS.Timeout | undefined;
  lastError: string | undefined;

  constructor(
    private readonly defaultTimeoutMs: number,
    private readonly log: RelayLog,
    private readonly reconnectGraceMs = 10_000,
  ) {}

  get connected(): boolean {
    return this.socket !== undefined;
  }

  get info(): NodeInfo | undefined {
    return this.node;
  }

  /**
   * Adopts an authenticated socket; a previous node connection is replaced. `ended` are the sessions
   * the node detached while it was away: they end here, before any client can send on them again.
   */
  adopt(
    socket: WebSocket,
    node: NodeInfo,
    ended: { sessionIds: string[]; reason: string } = { sessionIds: [], reason: '' },
  ): void {
    const previous = this.socket;
    this.socket = socket;
    this.node = node;
    if (previous && previous !== socket) previous.close(CLOSE_CODES.replaced, 'replaced by a newer connection');
    this.alive = true;
    socket.on('pong', () => (this.alive = true));
    socket.on('message', (data) => this.onMessage(data.toString()));
    socket.on('close', () => this.drop(socket, 'extension socket closed'));
    socket.on('error', (error) => (this.lastError = error.message));
    clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => {
      if (!this.alive) return socket.terminate();
      this.alive = false;
      socket.ping();
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
    clearTimeout(this.orphanTimer);
    this.orphanTimer = undefined;
    for (const sessionId of ended.sessionIds)
      for (const listener of [...this.eventListeners])
        listener('session.detached', { sessionId, reason: ended.reason });
    // replay whatever was in flight when the previous connection dropped
    for (const pending of this.pending.values()) this.write(pending.frame);
    for (const wake of [...this.connectWaiters]) wake();
    this.changed();
  }

  send<C extends CommandName>(
    command: C,
    params: CommandParams<C>,
    options: SendOptions = {},
  ): Promise<CommandResult<C>> {
    // params are ours or already validated by the endpoint; the result schema is checked on arrival
    return this.sendRaw(command, params, options) as Promise<CommandResult<C>>;
  }

  async sendRaw(command: CommandName, params: unknown, options: SendOptions = {}): Promise<unknown> {
    const key = options.key ?? randomUUID();
    const cached = this.results.get(key);
    if (cached) return settle(cached, command);
    const inflight = this.pending.get(key);
    if (inflight) return inflight.promise;
    if (!this.socket) await this.waitForNode(options.connectGraceMs ?? 0);
    const again = this.pending.get(key);
    if (again) return again.promise;
    const frame: CommandFrame = { version: WIRE_VERSION, type: 'command', id: key, command, params };
    let resolve!: (value: unknown) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<unknown>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const timer = setTimeout(() => {
      this.pending.delete(key);
      reject(
        new ArgusError('timeout', `The extension did not answer ${command} within ${timeoutMs} ms.`, {
          details: { command, key },
        }),
      );
    }, timeoutMs);
    this.pending.set(key, { frame, promise, resolve, reject, timer });
    this.write(frame);
    return promise;
  }

  /**
   * Pushes an event to the connected node (the side panel's feed and inbox). Not queued: with no node
   * connected it is dropped (false), since the panel gets the current inbox again on connect.
   */
  notify<E extends RelayEventName>(event: E, params: RelayEventParams<E>): boolean {
    if (this.socket?.readyState !== 1) return false;
    this.socket.send(JSON.stringify({ version: WIRE_VERSION, type: 'event', event, params }));
    return true;
  }

  onEvent(listener: (event: string, params: unknown) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  close(): void {
    clearInterval(this.heartbeat);
    clearTimeout(this.orphanTimer);
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(new ArgusError('browser_not_found', 'The relay is shutting down.'));
    }
    this.pending.clear();
    this.socket?.close(CLOSE_CODES.shuttingDown, 'relay shutting down');
    this.socket = undefined;
  }

  private waitForNode(graceMs: number): Promise<void> {
    const fail = () =>
      new ArgusError(
        'browser_not_found',
        'No Argus extension is connected to the relay. Open the extension popup, set the relay URL and pair it (see docs/EXTENSION.md).',
      );
    if (graceMs <= 0) return Promise.reject(fail());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.connectWaiters.delete(wake);
        reject(fail());
      }, graceMs);
      const wake = () => {
        clearTimeout(timer);
        this.connectWaiters.delete(wake);
        resolve();
      };
      this.connectWaiters.add(wake);
    });
  }

  private write(frame: CommandFrame): void {
    // while disconnected the frame stays in `pending` and goes out again on adopt()
    if (this.socket?.readyState === 1) this.socket.send(JSON.stringify(frame));
  }

  private onMessage(text: string): void {
    let frame: ExtensionFrame;
    try {
      frame = ExtensionFrame.parse(JSON.parse(text));
    } catch (error) {
      this.lastError = `bad frame from extension: ${(error as Error).message}`;
      this.log('warn', this.lastError);
      return;
    }
    if (frame.type === 'ping')
      return void this.socket?.send(JSON.stringify({ version: WIRE_VERSION, type: 'pong', t: frame.t }));
    if (frame.type === 'pong') return;
    if (frame.type === 'event') {
      const schema = EVENTS[frame.event as EventName]; // unknown names fail the lookup below
      if (!schema?.safeParse(frame.params).success)
        return void this.log('warn', `dropped malformed event ${frame.event}`);
      for (const listener of [...this.eventListeners]) listener(frame.event, frame.params);
      return;
    }
    this.results.set(frame.id, frame);
    const pending = this.pending.get(frame.id);
    if (!pending) return; // a buffered result for a command issued before a relay restart: cached for its replay
    this.pending.delete(frame.id);
    clearTimeout(pending.timer);
    settle(frame, pending.frame.command).then(pending.resolve, pending.reject);
  }

  private drop(socket: WebSocket, reason: string): void {
    if (this.socket !== socket) return;
    clearInterval(this.heartbeat);
    this.socket = undefined;
    this.log('info', 'extension disconnected', { reason, pending: this.pending.size });
    if (this.pending.size > 0) {
      clearTimeout(this.orphanTimer);
      this.orphanTimer = setTimeout(() => this.orphanPending(), this.reconnectGraceMs);
      this.orphanTimer.unref();
    }
    this.changed();
  }

  /**
   * The node dropped with commands in flight and did not come back (Disconnect in the popup, the
   * browser closed): they fail now, saying so, instead of waiting out their deadline as if the
   * extension were merely slow.
   */
  private orphanPending(): void {
    this.orphanTimer = undefined;
    if (this.socket) return;
    for (const [key, pending] of [...this.pending]) {
      this.pending.delete(key);
      clearTimeout(pending.timer);
      pending.reject(
        new ArgusError(
          'browser_not_found',
          `The Argus extension disconnected while ${pending.frame.command} was running and did not reconnect within ${Math.round(this.reconnectGraceMs / 1000)} s (Disconnect in its popup, the browser closing, the extension reloading). Whether the command took effect is unknown: reconnect it (its popup shows why it is not connected) and check before retrying.`,
          { details: { command: pending.frame.command, key } },
        ),
      );
    }
  }

  private changed(): void {
    for (const listener of [...this.changeListeners]) listener();
  }
}

async function settle(frame: ResultFrame, command: string): Promise<unknown> {
  if (!frame.ok) throw new RemoteCommandError(frame.error);
  const schema = COMMANDS[command as CommandName]?.result; // command came from our own map
  if (!schema) return frame.result;
  const parsed = schema.safeParse(frame.result);
  if (!parsed.success)
    throw new ArgusError('internal', `The extension sent a malformed result for ${command}.`, {
      details: { issues: parsed.error.issues.length },
    });
  return parsed.data;
}
