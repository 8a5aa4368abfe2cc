import { runInCommandScope } from '@argus/cdp';
import { type AnyCommand, type CallContext, type Handlers, manifest } from '@argus/protocol';

/** Beyond its own timeout, how long a command's CDP calls may still run (reading the result, cleanup). */
const DEADLINE_SLACK_MS = 30_000;
/** Commands without a timeout of their own. */
const DEFAULT_COMMAND_MS = 30_000;

type AnyHandler = (input: unknown, ctx: CallContext) => unknown;

/**
 * Wraps every request/response handler in a command scope (packages/cdp command-scope): each CDP
 * call it makes is bounded by the command's deadline and cancelled when its caller goes away
 * (HTTP request closed, WebSocket closed: tRPC aborts `ctx.signal`). Streams bound themselves.
 */
export function withCommandScopes(handlers: Handlers): Handlers {
  const wrapped: Record<string, Record<string, AnyHandler>> = {};
  for (const [namespace, group] of Object.entries(manifest)) {
    const source = (handlers as unknown as Record<string, Record<string, AnyHandler>>)[namespace] ?? {};
    const target: Record<string, AnyHandler> = {};
    for (const [key, command] of Object.entries(group) as Array<[string, AnyCommand]>) {
      const handler = source[key];
      if (!handler) continue;
      target[key] =
        command.kind === 'subscription'
          ? handler
          : (input, ctx) =>
              runInCommandScope({ signal: ctx.signal, timeoutMs: deadlineFor(input) }, async () => handler(input, ctx));
    }
    wrapped[namespace] = target;
  }
  // same keys and signatures as the input: only the bodies are wrapped
  return wrapped as unknown as Handlers;
}

function deadlineFor(input: unknown): number {
  const own = (input as { timeoutMs?: unknown } | null)?.timeoutMs;
  return (typeof own === 'number' ? Math.max(own, DEFAULT_COMMAND_MS) : DEFAULT_COMMAND_MS) + DEADLINE_SLACK_MS;
}
