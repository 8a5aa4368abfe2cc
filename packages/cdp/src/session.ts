import type {
  CdpEvent,
  CommandName,
  CommandParamsTuple,
  CommandResult,
  EventName,
  EventParams,
  Transport,
} from './transport.js';
import { ProtocolError, TargetGoneError } from './transport.js';
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
 * Chrome's answer to a Page command (history, reload, screenshot, stopLoading) sent while the tab
 * is between two documents: a cross-process navigation has been answered but its document is not
 * yet in (measured: 20–200 ms; a failed navigation's error page commits ~200 ms after its answer).
 * Only the Page domain answers so; other domains' calls are not watched for it.
 */
const BETWEEN_DOCUMENTS = /Not attached to an active page/;
const isBetweenDocuments = (error: unknown): boolean =>
  error instanceof ProtocolError && BETWEEN_DOCUMENTS.test(error.message);
/** How long such a command waits for the pending document before its error is reported. */
const BETWEEN_DOCUMENTS_WAIT_MS = 10_000;
/**
 * The command is sent again after the main frame's commit (Page.frameNavigated) or a load's stop.
 * Chrome hands the new document to DevTools 20–30 ms after announcing the commit, with no event
 * of its own, so a refused retry is repeated after 10, 20, 40, 80 ms and then every
 * BETWEEN_DOCUMENTS_MAX_PAUSE_MS, within BETWEEN_DOCUMENTS_WAIT_MS.
 */
const BETWEEN_DOCUMENTS_MAX_PAUSE_MS = 100;

/** Thrown when a tab stays between two documents longer than BETWEEN_DOCUMENTS_WAIT_MS. */
export class BetweenDocumentsError extends Error {
  override readonly name = 'BetweenDocumentsError';
  constructor(readonly method: string) {
    super(
      `${method}: the tab is still switching documents (a navigation has not committed within ${BETWEEN_DOCUMENTS_WAIT_MS / 1000} s)`,
    );
  }
}

/**
 * One flat CDP session (the browser root session or an attached target). Events are routed here
 * by sessionId from a single transport listener, so listeners cost nothing for other sessions.
 */
export class Session {
  private readonly listeners = new Map<string, Set<Listener>>();
  private detached = false;
  private readonly detachListeners = new Set<() => void>();
  /** Bounds this session's pending calls and waits: Chrome never answers them once its target detached. */
  private readonly whenGone = (fail: (error: Error) => void, what: string): (() => void) =>
    this.onDetach(() => fail(new TargetGoneError(what, this.targetType)));
  /** Counts the main frame's commits and frames' load stops (see BETWEEN_DOCUMENTS). */
  private documentTurns = 0;
  private readonly turnWaiters = new Set<() => void>();
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
    if (this.detached) return Promise.reject(new TargetGoneError(method, this.targetType));
    // every call has a deadline: the command's (when one runs) or the session's fallback
    const scope = currentCommandScope();
    if (scope?.signal?.aborted) return Promise.reject(new CommandCancelledError());
    const liveness = isJudgedByLiveness(method) ? this.liveness : undefined;
    if (liveness?.unresponsive) return Promise.reject(new PageUnresponsiveError(method, liveness.silentMs));
    const turns = this.documentTurns;
    const call = () =>
      bound(this.transport.send(method, params, this.id), method, {
        scope,
        fallbackMs: this.timing.callTimeoutMs,
        liveness,
        gone: this.id === undefined ? undefined : this.whenGone,
      });
    const answered = call();
    if (this.id === undefined || !method.startsWith('Page.')) return answered;
    // refused while the tab is between documents, so nothing was done: sent again once the pending
    // document is in (see BETWEEN_DOCUMENTS_MAX_PAUSE_MS)
    return answered.catch(async (error: unknown) => {
      if (!isBetweenDocuments(error)) throw error;
      const deadline = performance.now() + BETWEEN_DOCUMENTS_WAIT_MS;
      await this.nextDocumentTurn(turns, method, deadline);
      for (let pause = 10; ; pause = Math.min(pause * 2, BETWEEN_DOCUMENTS_MAX_PAUSE_MS)) {
        try {
          return await call();
        } catch (again) {
          if (!isBetweenDocuments(again)) throw again;
          if (performance.now() + pause > deadline) throw new BetweenDocumentsError(method);
          await this.guard(new Promise((resolve) => setTimeout(resolve, pause)), method);
        }
      }
    });
  }

  /** Resolves once the main frame has committed a document or a frame stopped loading since `turns`. */
  private nextDocumentTurn(turns: number, method: string, deadline: number): Promise<void> {
    if (this.documentTurns !== turns) return Promise.resolve();
    const waiting = new Promise<void>((resolve, reject) => {
      const done = (settle: () => void) => {
        this.turnWaiters.delete(turned);
        clearTimeout(timer);
        offDetach();
        settle();
      };
      const turned = () => done(resolve);
      const timer = setTimeout(
        () => done(() => reject(new BetweenDocumentsError(method))),
        Math.max(0, deadline - performance.now()),
      );
      const offDetach = this.onDetach(() => done(() => reject(new TargetGoneError(method, this.targetType))));
      this.turnWaiters.add(turned);
    });
    return this.guard(waiting, method);
  }

  /**
   * Bounds a wait on this page (e.g. for a load event) like a call: it fails when the command's
   * caller goes away or the page stops answering. Its own timeout stays the caller's business.
   */
  guard<T>(waiting: Promise<T>, what: string): Promise<T> {
    return bound(waiting, what, {
      scope: currentCommandScope(),
      fallbackMs: undefined,
      liveness: this.liveness,
      gone: this.id === undefined ? undefined : this.whenGone,
    });
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
        this.onDetach(() => finish(() => reject(new TargetGoneError(`the wait for ${event}`, this.targetType)))),
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
    if (
      (event.method === 'Page.frameNavigated' && !(event.params as { frame: { parentId?: string } }).frame.parentId) ||
      event.method === 'Page.frameStoppedLoading'
    ) {
      this.documentTurns++;
      for (const turned of [...this.turnWaiters]) turned();
    }
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
