import type { CallContext, Handlers } from '@argus/protocol';
import { type AnyHandler, wrapHandlers } from './handler-wrap.js';

/** A client that called within this long (or holds a stream open) counts as attached. */
export const ATTACHED_WINDOW_MS = 5 * 60_000;

/** How many leaving clients are remembered (their streams' ends do not count as use). */
const DEPARTED_KEPT = 256;

/** Calls that do not make their caller count as attached. */
const OBSERVING = new Set(['daemon.status', 'daemon.stop']);

/**
 * The name the daemon's own calls go under when it reopens what a restart saved (restart.ts): not a
 * client, so never one that keeps the daemon from stopping when its agent leaves.
 */
export const RESTORING_CALLER = 'restart';

/**
 * The name a hand-off's own calls go under (state save and load around its relaunch,
 * handoff-service.ts): the daemon's work, not a client's. A running hand-off keeps the daemon for
 * the person at the browser instead (daemon.stop {ifAlone}).
 */
export const HANDOFF_CALLER = 'handoff';

/** The daemon's own callers: never counted as clients. */
const INTERNAL_CALLERS = new Set([RESTORING_CALLER, HANDOFF_CALLER]);

/**
 * Who has used the daemon lately, by the name each client gives itself (`x-argus-client`; unnamed
 * callers such as the CLI are `cli`). `argus mcp` asks `daemon.stop {ifAlone}` when its agent leaves:
 * the daemon it started stops only when nobody else is using it.
 */
export class CallerLog {
  private readonly lastSeen = new Map<string, number>();
  private readonly streams = new Map<string, number>();

  /** Clients that said they leave (left), until they call again. */
  private readonly departed = new Set<string>();

  seen(name: string): void {
    this.departed.delete(name);
    this.lastSeen.set(name, Date.now());
  }

  /** Counts an open stream until the returned release runs. */
  streamOpened(name: string): () => void {
    this.seen(name);
    this.streams.set(name, (this.streams.get(name) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // a stream that just ended counts as recent use, unless its client said it is leaving
      if (!this.departed.has(name)) this.seen(name);
      const left = (this.streams.get(name) ?? 1) - 1;
      if (left > 0) this.streams.set(name, left);
      else this.streams.delete(name);
    };
  }

  /** A client that says it is leaving (an agent's server asking `daemon.stop {ifAlone}`) no longer counts as attached. */
  left(name: string): void {
    this.lastSeen.delete(name);
    this.departed.add(name);
    // each agent's server has a name of its own: a long-lived daemon keeps the last ones only
    if (this.departed.size > DEPARTED_KEPT) this.departed.delete(this.departed.values().next().value!);
  }

  /** Clients other than `self` that called within the window or hold a stream open. */
  others(self: string | undefined, now = Date.now()): string[] {
    return this.attached(now).filter((name) => name !== (self ?? 'cli'));
  }

  /** Every client attached now (called within the window, or holding a stream open). */
  attached(now = Date.now()): string[] {
    const names = new Set<string>(this.streams.keys());
    for (const [name, at] of this.lastSeen) if (now - at < ATTACHED_WINDOW_MS) names.add(name);
    return [...names].sort();
  }
}

/** The name a call is logged under. */
export function callerOf(ctx: CallContext): string {
  return ctx.client ?? ctx.owner ?? 'cli';
}

/** Wraps every handler so each call (and each open stream) is noted in the log. */
export function logCallers(handlers: Handlers, callers: CallerLog): Handlers {
  return wrapHandlers(
    handlers,
    (command, handler): AnyHandler =>
      command.kind === 'subscription'
        ? async function* (input, ctx) {
            const release = callers.streamOpened(callerOf(ctx));
            try {
              yield* handler(input, ctx) as AsyncIterable<unknown>;
            } finally {
              release();
            }
          }
        : (input, ctx) => {
            // looking at the daemon (or stopping it) is not using it, nor is its own work (a restore, a hand-off's relaunch)
            const caller = callerOf(ctx);
            if (!OBSERVING.has(command.name) && !INTERNAL_CALLERS.has(caller)) callers.seen(caller);
            return handler(input, ctx);
          },
  );
}
