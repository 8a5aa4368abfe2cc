import { asyncSlot } from '@argus/cdp';
import type { AnyCommand, CallContext, Handlers } from '@argus/protocol';
import { wrapHandlers } from './handler-wrap.js';
import type { LeaseClaim } from './tab-leases.js';

/** What a call proves and does, for the tab leases: `BrowserManager.onTab` reads it for every tab command. */
export function claimFor(ctx: CallContext, command: AnyCommand): LeaseClaim {
  return {
    // the manifest's scopes decide: a read never waits for or is refused by a lease
    write: command.scope !== 'read',
    presented: ctx.leases ?? [],
    connection: ctx.connection,
    waitMs: ctx.leaseWaitMs ?? 0,
    name: ctx.client ?? (ctx.session !== undefined ? `session ${ctx.session}` : (ctx.owner ?? 'an unnamed client')),
  };
}

/**
 * Why an async context and not a parameter: like the caller (caller.ts), every tab lookup must see
 * it, so no handler, present or future, can forget to pass it and write on another client's tab.
 */
const store = asyncSlot<LeaseClaim>('lease claim');

/** The lease claim of the command running now; undefined for the daemon's own work (restart, previews). */
export function currentLeaseClaim(): LeaseClaim | undefined {
  return store.get();
}

/** Wraps every request/response handler so its tab commands run under the call's lease claim. */
export function withLeaseClaims(handlers: Handlers): Handlers {
  return wrapHandlers(handlers, (command, handler) =>
    command.kind === 'subscription'
      ? handler
      : (input, ctx) => store.run(claimFor(ctx, command), () => handler(input, ctx)),
  );
}
