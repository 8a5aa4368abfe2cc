import { runInCommandScope } from '@argus/cdp';
import type { Handlers } from '@argus/protocol';
import { wrapHandlers } from './handler-wrap.js';

/** Beyond its own timeout, how long a command's CDP calls may still run (reading the result, cleanup). */
const DEADLINE_SLACK_MS = 30_000;
/** Commands without a timeout of their own. */
const DEFAULT_COMMAND_MS = 30_000;

/**
 * Wraps every request/response handler in a command scope (packages/cdp command-scope): each CDP
 * call it makes is bounded by the command's deadline and cancelled when its caller goes away
 * (HTTP request closed, WebSocket closed: tRPC aborts `ctx.signal`). Streams bound themselves.
 */
export function withCommandScopes(handlers: Handlers): Handlers {
  return wrapHandlers(handlers, (command, handler) =>
    command.kind === 'subscription'
      ? handler
      : (input, ctx) =>
          runInCommandScope(
            // time spent waiting for another client's tab lease (--lease-wait) is not the command's own
            { signal: ctx.signal, timeoutMs: deadlineFor(input) + (ctx.leaseWaitMs ?? 0) },
            async () => handler(input, ctx),
          ),
  );
}

function deadlineFor(input: unknown): number {
  const own = (input as { timeoutMs?: unknown } | null)?.timeoutMs;
  return (typeof own === 'number' ? Math.max(own, DEFAULT_COMMAND_MS) : DEFAULT_COMMAND_MS) + DEADLINE_SLACK_MS;
}
