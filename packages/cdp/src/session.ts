import type {
  CdpEvent,
  CommandName,
  CommandParamsTuple,
  CommandResult,
  EventName,
  EventParams,
  Transport,
} from './transport.js';
import { TransportClosedError } from './transport.js';
import { CommandCancelledError, currentCommandScope } from './command-scope.js';
import {
  type CallTiming,
  DEFAULT_CALL_TIMING,
  Liveness,
  PageUnresponsiveError,
  bound,
  isJudgedByLiveness,
} from './call-deadline.js';

type Listener = (params: unknown) => void;

/**
 * One flat CDP session (the browser root session or an attached target). Events are routed here
 * by sessionId from a single transport listener, so listeners cost nothing for other sessions.
 */
export class Session {
  private readonly listeners = new Map<string, Set<Listener>>();
  private detached = false;
  private readonly detachListeners = new Set<() => void>();
  /** Whether this target's main thread answers (absent for the root session: the browser process). */
  readonly liveness: Liveness | undefined;

  constructor(
    readonly transport: Transport,
    readonly id: string | undefined,
    /** The target this session is attached to (undefined for the root). */
    readonly targetId?: string,
    readonly targetType?: string,
    readonly timing: CallTiming = DEFAULT_CALL_TIMING,
  ) {
    this.liveness =
      id === undefined
        ? undefined
        : new Liveness(() => transport.send('Runtime.evaluate', { expression: '0', returnByValue: true }, id), timing);
  }

  /** The page's main thread has stopped answering (see Liveness). */
  get unresponsive(): boolean {
    return this.liveness?.unresponsive ?? false;
  }

  get isDetached(): boolean {
    return this.detached || this.transport.closed;
  }

  send<M extends CommandName>(method: M, ...params: CommandParamsTuple<M>): Promise<CommandResult<M>>;
  send(method: string, params?: object): Promise<unknown>;
  send(method: string, params?: object): Promise<unknown> {
    if (this.detached)
      return Promise.reject(new TransportClosedError(`Session ${this.id ?? 'root'} is detached (its target closed)`));
    // every call has a deadline: the command's (when one runs) or the session's fallback
    const scope = currentCommandScope();
    if (scope?.signal?.aborted) return Promise.reject(new CommandCancelledError());
    const liveness = isJudgedByLiveness(method) ? this.liveness : undefined;
    if (liveness?.unresponsive) return Promise.reject(new PageUnresponsiveError(method, liveness.silentMs));
    const pending = this.transport.send(method, params, this.id);
    return bound(pending, method, { scope, fallbackMs: this.timing.callTimeoutMs, liveness });
  }

  /**
   * Bounds a wait on this page (e.g. for a load event) like a call: it fails when the command's
   * caller goes away or the page stops answering. Its own timeout stays the caller's business.
   */
  guard<T>(waiting: Promise<T>, what: string): Promise<T> {
    return bound(waiting, what, { scope: currentCommandScope(), fallbackMs: undefined, liveness: this.liveness });
  }

  on<E extends EventName>(event: E, listener: (params: EventParams<E>) => void): () => void;
  on(event: string, listener: (params: unknown) => void): () => void;
  on(event: string, listener: (params: never) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as Listener);
    return () => set.delete(listener as Listener);
  }

  /**
   * Resolves with the first matching event. Rejects on timeout, abort, or detach. Event driven:
   * never polls.
   */
  waitFor<E extends EventName>(
    event: E,
    options?: { predicate?: (params: EventParams<E>) => boolean; timeoutMs?: number; signal?: AbortSignal },
  ): Promise<EventParams<E>>;
  waitFor(
    event: string,
    options?: { predicate?: (params: unknown) => boolean; timeoutMs?: number; signal?: AbortSignal },
  ): Promise<unknown>;
  waitFor(
    event: string,
    options: { predicate?: (params: never) => boolean; timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const cleanups: Array<() => void> = [];
      const finish = (fn: () => void) => {
        for (const cleanup of cleanups) cleanup();
        fn();
      };
      cleanups.push(
        this.on(event, (params: unknown) => {
          if (options.predicate && !(options.predicate as (p: unknown) => boolean)(params)) return;
          finish(() => resolve(params));
        }),
      );
      cleanups.push(
        this.onDetach(() => finish(() => reject(new TransportClosedError(`Target closed while waiting for ${event}`)))),
      );
      if (options.timeoutMs !== undefined) {
        const timer = setTimeout(
          () => finish(() => reject(new WaitTimeoutError(event, options.timeoutMs ?? 0))),
          options.timeoutMs,
        );
        cleanups.push(() => clearTimeout(timer));
      }
      if (options.signal) {
        const signal = options.signal;
        const onAbort = () => finish(() => reject(signal.reason ?? new Error('aborted')));
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        cleanups.push(() => signal.removeEventListener('abort', onAbort));
      }
    });
  }

  onDetach(listener: () => void): () => void {
    if (this.isDetached) {
      queueMicrotask(listener);
      return () => {};
    }
    this.detachListeners.add(listener);
    return () => this.detachListeners.delete(listener);
  }

  /** @internal called by the SessionRouter */
  dispatch(event: CdpEvent): void {
    const set = this.listeners.get(event.method);
    if (!set) return;
    for (const listener of [...set]) listener(event.params);
  }

  /** @internal called by the SessionRouter when the target detaches or the transport closes */
  markDetached(): void {
    if (this.detached) return;
    this.detached = true;
    for (const listener of [...this.detachListeners]) listener();
    this.detachListeners.clear();
  }
}

export class WaitTimeoutError extends Error {
  override readonly name = 'WaitTimeoutError';
  constructor(
    readonly event: string,
    readonly timeoutMs: number,
  ) {
    super(`Timed out after ${timeoutMs} ms waiting for ${event}`);
  }
}

/** Routes a transport's events to Session objects by sessionId. */
export class SessionRouter {
  readonly root: Session;
  private readonly sessions = new Map<string, Session>();
  private readonly disposers: Array<() => void> = [];

  constructor(
    readonly transport: Transport,
    private readonly timing: CallTiming = DEFAULT_CALL_TIMING,
  ) {
    this.root = new Session(transport, undefined, undefined, undefined, timing);
    this.disposers.push(
      transport.onEvent((event) => {
        if (event.method === 'Target.attachedToTarget') {
          // adopt before routing, so the new session's own events (which follow) find it
          const { sessionId, targetInfo } = event.params as {
            sessionId: string;
            targetInfo: { targetId: string; type: string };
          };
          this.adopt(sessionId, targetInfo.targetId, targetInfo.type);
        } else if (event.method === 'Target.detachedFromTarget') {
          const detachedId = (event.params as { sessionId?: string }).sessionId;
          const session = detachedId ? this.sessions.get(detachedId) : undefined;
          if (detachedId) this.sessions.delete(detachedId);
          // deliver the event first so owners can react, then mark the session gone
          this.route(event);
          session?.markDetached();
          return;
        }
        this.route(event);
      }),
      transport.onClose(() => {
        for (const session of this.sessions.values()) session.markDetached();
        this.sessions.clear();
        this.root.markDetached();
      }),
    );
  }

  private route(event: CdpEvent): void {
    const session = event.sessionId === undefined ? this.root : this.sessions.get(event.sessionId);
    session?.dispatch(event);
  }

  /** Registers a session; attachedToTarget events are adopted automatically. */
  adopt(sessionId: string, targetId: string, targetType: string): Session {
    let session = this.sessions.get(sessionId);
    if (!session) {
      session = new Session(this.transport, sessionId, targetId, targetType, this.timing);
      this.sessions.set(sessionId, session);
    }
    return session;
  }

  get(sessionId: string): Session | undefined {
    return this.sessions.get(sessionId);
  }

  dispose(): void {
    for (const dispose of this.disposers) dispose();
  }
}
