import { asyncSlot } from '@argus/cdp';
import type { CallContext } from '@argus/protocol';

/** A remote client: its shared token's id (which owns its tabs) and its name (for messages and logs). */
export interface Caller {
  id: string;
  name: string;
  /** The named session (`--session NAME`) the call runs in; absent for a shared token's own default. */
  session?: string | undefined;
}

/**
 * Who a call runs as for tab lookups: a shared token (its own tabs), a named session (the operator's
 * or a token's: the session's tabs, in its own browser context), or nobody (the operator's default
 * session, which sees every tab).
 */
export function callerFor(ctx: CallContext): Caller | undefined {
  if (ctx.session !== undefined) {
    return { id: sessionOwner(ctx.owner, ctx.session), name: ctx.client ?? ctx.session, session: ctx.session };
  }
  return ctx.owner === undefined ? undefined : { id: ctx.owner, name: ctx.client ?? ctx.owner };
}

/** The tab-owner id of a named session: the operator's, or a shared token's own (`<token>/session:<name>`). */
export function sessionOwner(owner: string | undefined, session: string): string {
  return owner === undefined ? `session:${session}` : `${owner}/session:${session}`;
}

/**
 * The remote client (shared token) a command runs for, carried through the handler's async calls.
 * Why not a parameter: every tab lookup in BrowserManager filters by it, so no handler, present or
 * future, can forget to pass it and reach the operator's tabs.
 */
const store = asyncSlot<Caller>('caller');

/** Runs `task` as `client` (undefined: as the operator). */
export function runAs<T>(client: Caller | undefined, task: () => T): T {
  return client ? store.run(client, task) : task();
}

/** The client the current command runs for; undefined for the operator (main listener). */
export function currentClient(): Caller | undefined {
  return store.get();
}

/** Runs `task` outside any client (browser start-up: its sockets must not carry a client's context). */
export function asDaemon<T>(task: () => T): T {
  return store.exit(task);
}
