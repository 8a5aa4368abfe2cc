import type { ProtocolMapping } from 'devtools-protocol/types/protocol-mapping.js';

export type CommandName = keyof ProtocolMapping.Commands;
export type CommandParams<M extends CommandName> = ProtocolMapping.Commands[M]['paramsType'] extends [infer P]
  ? P
  : ProtocolMapping.Commands[M]['paramsType'] extends [(infer P)?]
    ? P | undefined
    : undefined;
export type CommandParamsTuple<M extends CommandName> = ProtocolMapping.Commands[M]['paramsType'];
export type CommandResult<M extends CommandName> = ProtocolMapping.Commands[M]['returnType'];
export type EventName = keyof ProtocolMapping.Events;
export type EventParams<E extends EventName> = ProtocolMapping.Events[E] extends [infer P] ? P : undefined;

/** A raw protocol event as it arrives on the wire. */
export interface CdpEvent {
  method: string;
  params: unknown;
  /** The flat session it belongs to; absent for the browser (root) session. */
  sessionId?: string | undefined;
}

/**
 * The one seam between the driver and how CDP messages travel. chrome-remote-interface over a
 * WebSocket is one implementation (`connectCri`); the extension relay is another. Everything above
 * this interface (sessions, pages, snapshots, commands) is the same in every session mode.
 */
export interface Transport {
  /** Sends a command on the root session (no sessionId) or on a flat child session. */
  send(method: string, params: object | undefined, sessionId: string | undefined): Promise<unknown>;
  /** Subscribes to every event of every session. Returns the unsubscribe function. */
  onEvent(listener: (event: CdpEvent) => void): () => void;
  /** Called once when the connection goes away (browser exit, socket drop, close()). */
  onClose(listener: (reason: string) => void): () => void;
  readonly closed: boolean;
  close(): Promise<void>;
}

/** The listener bookkeeping every Transport shares: each event to every subscriber, the close told once. */
export class TransportListeners {
  private readonly events = new Set<(event: CdpEvent) => void>();
  private readonly closes = new Set<(reason: string) => void>();

  onEvent(listener: (event: CdpEvent) => void): () => void {
    this.events.add(listener);
    return () => this.events.delete(listener);
  }

  onClose(listener: (reason: string) => void): () => void {
    this.closes.add(listener);
    return () => this.closes.delete(listener);
  }

  emit(event: CdpEvent): void {
    for (const listener of this.events) listener(event);
  }

  /** Tells every close listener `reason`, then forgets every listener. */
  closed(reason: string): void {
    const closes = [...this.closes];
    this.closes.clear();
    this.events.clear();
    for (const listener of closes) listener(reason);
  }
}

/** A stream whose writes can be held and sent together (a socket, a pipe). */
export interface Corkable {
  cork(): void;
  uncork(): void;
}

/**
 * What the transports over a byte stream to Chrome share (chrome-remote-interface's WebSocket, the
 * DevTools pipe): the listeners, closing once, and sending one turn's messages in one write.
 */
export abstract class StreamTransport implements Transport {
  private readonly listeners = new TransportListeners();
  private isClosed = false;
  private corked = false;

  abstract send(method: string, params: object | undefined, sessionId: string | undefined): Promise<unknown>;
  abstract close(): Promise<void>;

  get closed(): boolean {
    return this.isClosed;
  }

  onEvent(listener: (event: CdpEvent) => void): () => void {
    return this.listeners.onEvent(listener);
  }

  onClose(listener: (reason: string) => void): () => void {
    return this.listeners.onClose(listener);
  }

  protected emit(event: CdpEvent): void {
    this.listeners.emit(event);
  }

  /** Marks the transport closed and tells its listeners, once; `beforeTelling` runs first (the first time only). */
  protected markClosed(reason: string, beforeTelling?: () => void): void {
    if (this.isClosed) return;
    this.isClosed = true;
    beforeTelling?.();
    this.listeners.closed(reason);
  }

  /**
   * Messages sent in one turn of the event loop leave in one write: `stream` is corked at the first
   * and uncorked once the turn's callbacks and promise jobs have run. A snapshot's two questions
   * then cost one write (one wake-up of Chrome) instead of one each; on a loopback socket the write
   * is most of a message's cost (CPU profile of the daemon under a snapshot loop, issue 16).
   */
  protected batchWrites(stream: Corkable | undefined): void {
    if (!stream || this.corked) return;
    this.corked = true;
    stream.cork();
    process.nextTick(() => {
      this.corked = false;
      stream.uncork();
    });
  }
}

/** Error returned by the browser for a command (a protocol-level error, not a transport one). */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
  constructor(
    readonly method: string,
    readonly protocolCode: number | undefined,
    message: string,
  ) {
    super(`${method}: ${message}`);
  }
}

/** The transport closed while a command was in flight, or before it was sent. */
export class TransportClosedError extends Error {
  override readonly name: string = 'TransportClosedError';
}

/**
 * One session's target went away (its tab closed, or an out-of-process frame left the page) while a
 * call or wait of it was pending, or before it was sent: the browser connection itself is fine.
 */
export class TargetGoneError extends TransportClosedError {
  override readonly name = 'TargetGoneError';
  constructor(
    readonly what: string,
    /** the target's type (`page`, `iframe`, `worker`…), when known */
    readonly targetType: string | undefined,
  ) {
    super(`The ${targetType === 'iframe' ? 'frame' : 'target'} went away during ${what}`);
  }
}
