import type { AnyCommand, CallContext, Scope } from '@argus/protocol';
// the errors entry alone: the package index loads the whole manifest and zod, which the CLI's start-up never needs
import { ArgusError } from '@argus/protocol/errors';

const SCOPE_RANK: Record<Scope, number> = { read: 0, write: 1, admin: 2 };

/** The one scope rule: admin covers write covers read. Every handler and the router use this. */
export function hasScope(granted: readonly Scope[], needed: Scope): boolean {
  return granted.some((scope) => SCOPE_RANK[scope] >= SCOPE_RANK[needed]);
}

/** Throws `forbidden_scope` unless the caller holds `needed`; `what` names the thing refused and `instead` what to do. */
export function requireScope(
  ctx: Pick<CallContext, 'scopes'>,
  needed: Scope,
  what: string,
  instead = `Use a token with ${needed} scope.`,
): void {
  if (hasScope(ctx.scopes, needed)) return;
  throw new ArgusError(
    'forbidden_scope',
    `${what} needs the ${needed} scope; this token has ${ctx.scopes.join(', ') || 'none'}. ${instead}`,
    {
      details: { needed, granted: [...ctx.scopes] },
    },
  );
}

/**
 * The token part of the router's `authorize` seam: the command's scope, then the token's command
 * allow-list when it carries one (shared tokens for remote agents).
 */
export function authorizeToken(ctx: CallContext, command: AnyCommand): void {
  requireScope(ctx, command.scope, command.name);
  if (ctx.commands && !ctx.commands.includes(command.name)) {
    throw new ArgusError(
      'forbidden_scope',
      `${command.name} is not in this token's command allow-list. Ask the operator for a token that allows it.`,
      {
        details: { command: command.name },
      },
    );
  }
}
