import {
  type AnyCommand,
  ArgusError,
  type Authorize,
  type CallContext,
  type Handlers,
  NEVER_SHARED_COMMANDS,
  NEVER_SHARED_PREFIXES,
  commandByName,
  commandByVerb,
  isArgusError,
} from '@argus/protocol';
import { authorizeToken } from '@argus/security';
import { callerFor, runAs } from './caller.js';
import { wrapHandlers } from './handler-wrap.js';
import type { Logger } from './logger.js';

/** Input fields that name a file on the daemon's machine (or make the browser write one). */
const FILE_FIELDS = ['path', 'file', 'files', 'prefix', 'download'] as const;

/** Whether a command may ever be granted to a shared token. */
export function isShareable(command: AnyCommand): boolean {
  if (command.scope === 'admin' || command.kind === 'subscription') return false;
  if ((NEVER_SHARED_COMMANDS as readonly string[]).includes(command.name)) return false;
  return !NEVER_SHARED_PREFIXES.some((prefix) => command.name.startsWith(prefix));
}

/**
 * `--commands` for `argus share`: CLI verbs or contract paths to contract paths. Unknown names and
 * commands a shared token can never get are `invalid_input`, so the operator sees what was refused.
 */
export function resolveShareCommands(names: readonly string[]): string[] {
  const resolved = new Set<string>();
  for (const name of names) {
    const command = commandByName(name) ?? commandByVerb(name);
    if (!command)
      throw new ArgusError(
        'invalid_input',
        `Unknown command "${name}" in --commands. Use CLI verbs (goto, snapshot) or contract paths (page.goto); see \`argus help\`.`,
      );
    if (!isShareable(command)) {
      throw new ArgusError(
        'invalid_input',
        `${command.name} cannot be shared: shared tokens never get admin commands, streams, files, cookies, state or tokens. Leave it out of --commands.`,
      );
    }
    resolved.add(command.name);
  }
  return [...resolved];
}

function logDenial(log: Logger, ctx: CallContext, command: string, reason: string, code: string): void {
  // the token id is a prefix of the secret's sha256: the log never holds anything usable as a token
  log.warn('share.denied', { token: ctx.owner, client: ctx.client, command, reason, code });
}

/** What a shared token may never do, whatever its allow-list says: unshareable commands, file paths. */
export function authorizeClient(ctx: CallContext, command: AnyCommand, input: unknown): void {
  if (ctx.owner === undefined) return;
  if (!isShareable(command)) {
    throw new ArgusError(
      'forbidden_scope',
      `${command.name} is never available to a shared token (client "${ctx.client ?? ''}").`,
      { details: { reason: 'command' } },
    );
  }
  const fields = (input ?? {}) as Record<string, unknown>;
  const field = FILE_FIELDS.find((name) => fields[name] !== undefined && fields[name] !== false);
  if (field) {
    const inline = command.name === 'page.screenshot' ? '; the image comes back inline (base64)' : '';
    throw new ArgusError(
      'path_forbidden',
      `A shared token cannot read or write files on the daemon's machine (--${field} given). Leave it out${inline}.`,
      { details: { reason: `file:${field}` } },
    );
  }
}

/**
 * The daemon's `authorize` seam: the token's scope and allow-list (@argus/security), then what a
 * shared token may never do. Every refusal of a shared token is logged.
 */
export function createAuthorize(log: Logger): Authorize {
  return (ctx, command, input) => {
    try {
      authorizeToken(ctx, command);
      authorizeClient(ctx, command, input);
    } catch (error) {
      if (ctx.owner !== undefined && isArgusError(error)) {
        const reason =
          typeof error.details?.reason === 'string'
            ? error.details.reason
            : error.details?.needed
              ? 'scope'
              : 'command';
        logDenial(log, ctx, command.name, reason, error.code);
      }
      throw error;
    }
  };
}

/**
 * Wraps every handler so a call from a shared token (ctx.owner) or in a named session runs as that
 * client: every tab lookup sees only its own tabs (a foreign id is `tab_not_found`, logged), and a
 * shared token's screenshot comes back inline instead of landing on the daemon's disk. The
 * operator's default-session calls pass straight through.
 */
export function runAsClient(handlers: Handlers, log: Logger): Handlers {
  return wrapHandlers(handlers, (command, handler) => (input, ctx) => {
    const caller = callerFor(ctx);
    if (!caller) return handler(input, ctx);
    const actual =
      ctx.owner !== undefined && command.name === 'page.screenshot'
        ? { ...(input as Record<string, unknown>), base64: true }
        : input;
    return runAs(caller, async () => {
      try {
        return await (handler(actual, ctx) as Promise<unknown>);
      } catch (error) {
        if (isArgusError(error) && error.code === 'tab_not_found') logDenial(log, ctx, command.name, 'tab', error.code);
        throw error;
      }
    });
  });
}
