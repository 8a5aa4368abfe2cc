import type { AnyCommand, CallContext, Handlers } from '@argus/protocol';
import { manifest } from '@argus/protocol';

/** A handler seen without its command's types: what the wrappers below work on. */
export type AnyHandler = (input: unknown, ctx: CallContext) => unknown;

/**
 * One handler per manifest command, each replaced by `wrap(command, handler)`: the one walk the
 * daemon's handler layers (command scopes, the caller log, running as a client) share. Handlers
 * mirrors the manifest, so it is walked here by key and the record view is the trust boundary;
 * the result keeps the same keys and signatures, only the bodies change.
 */
export function wrapHandlers(
  handlers: Handlers,
  wrap: (command: AnyCommand, handler: AnyHandler) => AnyHandler,
): Handlers {
  const source = handlers as unknown as Record<string, Record<string, AnyHandler>>;
  const wrapped: Record<string, Record<string, AnyHandler>> = {};
  for (const [namespace, group] of Object.entries(manifest)) {
    wrapped[namespace] = {};
    for (const [key, command] of Object.entries(group) as Array<[string, AnyCommand]>) {
      const handler = source[namespace]?.[key];
      if (handler) wrapped[namespace]![key] = wrap(command, handler);
    }
  }
  return wrapped as unknown as Handlers;
}
