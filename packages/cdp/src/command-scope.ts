import { setMaxListeners } from 'node:events';
import { asyncSlot } from './async-slots.js';

/**
 * What bounds the CDP calls of one command: its caller's abort signal (the client went away) and
 * its deadline. The daemon opens a scope around each command; `Session.send` reads it, so every
 * call made on the command's behalf, however deep (snapshot walker, actions), is bounded by it
 * without each call site threading a signal through.
 */
export interface CommandScope {
  signal?: AbortSignal | undefined;
  /** `performance.now()` value after which calls made in this scope fail. */
  deadline?: number | undefined;
  /** False once the command has returned: a scope inherited by a later callback no longer binds. */
  active: boolean;
}

const storage = asyncSlot<CommandScope>('command scope');

/** How many calls of one command may listen for its abort before Node warns of a leak. */
const CALLS_IN_FLIGHT = 200;

/** Runs `run` inside a command scope; the scope ends (stops binding calls) when `run` settles. */
export async function runInCommandScope<T>(
  options: { signal?: AbortSignal | undefined; timeoutMs?: number | undefined },
  run: () => Promise<T>,
): Promise<T> {
  // every CDP call in flight listens for the command's abort (and stops listening when it settles):
  // a navigation has more than Node's default 10 at once, which is no leak
  if (options.signal) setMaxListeners(CALLS_IN_FLIGHT, options.signal);
  const scope: CommandScope = {
    signal: options.signal,
    deadline: options.timeoutMs === undefined ? undefined : performance.now() + options.timeoutMs,
    active: true,
  };
  try {
    return await storage.run(scope, run);
  } finally {
    scope.active = false;
  }
}

/**
 * Runs `run` in a scope bounded like the current command (its caller's signal, its deadline) and
 * also ended by `abandon`: for a call the command may give up on and send again (see
 * captureScreenshot), whose pending promise then holds no deadline timer or liveness probe.
 */
export function runAbandonable<T>(abandon: AbortSignal, run: () => Promise<T>): Promise<T> {
  const outer = currentCommandScope();
  const signal = outer?.signal ? AbortSignal.any([outer.signal, abandon]) : abandon;
  const timeoutMs = outer?.deadline === undefined ? undefined : Math.max(0, outer.deadline - performance.now());
  return runInCommandScope({ signal, timeoutMs }, run);
}

/**
 * Settles as `waiting` does, or fails with CommandCancelledError as soon as the current command's
 * caller goes away: for a wait that is no CDP call (a timer, a browser event, a download), which the
 * scope does not bound by itself. Outside a command scope, `waiting` as it is.
 */
export function untilCancelled<T>(waiting: Promise<T>): Promise<T> {
  const signal = currentCommandScope()?.signal;
  if (!signal) return waiting;
  if (signal.aborted) return Promise.reject(new CommandCancelledError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new CommandCancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
    waiting.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Runs `run` outside any command scope (work shared by every command, e.g. starting the browser). */
export function outsideCommandScope<T>(run: () => T): T {
  return storage.exit(run);
}

/** The scope of the command this code runs for, if it is still running. */
export function currentCommandScope(): CommandScope | undefined {
  const scope = storage.get();
  return scope?.active ? scope : undefined;
}

/** The command's caller went away (HTTP request closed, WebSocket closed): stop its work. */
export class CommandCancelledError extends Error {
  override readonly name = 'CommandCancelledError';
  constructor(message = 'The command was cancelled: its caller went away') {
    super(message);
  }
}
