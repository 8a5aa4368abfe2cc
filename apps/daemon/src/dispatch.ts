import { type AppRouter, ArgusError, type ArgusErrorData, type CallContext, commandByName } from '@argus/protocol';
import { toArgusErrorData } from '@argus/protocol/router';

/** Runs one command by contract path for an in-process caller (batch, chain, tab-each). */
export type Dispatch = (path: string, input: unknown, ctx: CallContext) => Promise<unknown>;

export type StepOutcome = { ok: true; output: unknown } | { ok: false; error: ArgusErrorData };

type Procedure = (input: unknown) => Promise<unknown>;

/**
 * Dispatches through the router's own caller, so every command in a batch gets exactly what a
 * single request gets: zod input validation, the scope check of the caller's token, output
 * validation, the same handlers. Compound commands cannot nest and streams cannot run in one.
 */
export function createDispatch(router: () => AppRouter): Dispatch {
  return async (path, input, ctx) => {
    const command = commandByName(path);
    if (!command) {
      throw new ArgusError(
        'invalid_input',
        `Unknown command "${path}". Use a contract path such as page.goto or read.text (see docs/SURFACE.md).`,
      );
    }
    if (path.startsWith('batch.'))
      throw new ArgusError(
        'invalid_input',
        `${path} cannot run inside a batch, chain or tab-each. Flatten the steps into one request.`,
      );
    if (command.kind === 'subscription')
      throw new ArgusError(
        'invalid_input',
        `${path} is a stream; run it on its own (e.g. \`argus ${command.cli === false ? path : command.cli.verb}\`).`,
      );
    return callAs(router(), path, input, ctx);
  };
}

/**
 * Calls one procedure by contract path through the router's own caller, as `ctx`: the step runs as
 * its caller (same scopes, allow-list, client and tab owner). The tunnel's MCP tools use it too.
 */
export function callAs(router: AppRouter, path: string, input: unknown, ctx: CallContext): Promise<unknown> {
  const [namespace, key] = path.split('.') as [string, string];
  const { signal, ...callerCtx } = ctx;
  const caller = router.createCaller(callerCtx, signal ? { signal } : undefined);
  // The path is a manifest path (checked by the callers); the caller mirrors the manifest.
  const procedure = (caller as unknown as Record<string, Record<string, Procedure>>)[namespace]?.[key];
  if (!procedure)
    return Promise.reject(
      new ArgusError(
        'invalid_input',
        `Unknown command "${path}". Use a contract path such as page.goto (see docs/SURFACE.md).`,
      ),
    );
  return procedure(input);
}

/** Runs a dispatch and captures its failure as contract error data instead of throwing. */
export async function settle(dispatch: Dispatch, path: string, input: unknown, ctx: CallContext): Promise<StepOutcome> {
  try {
    return { ok: true, output: await dispatch(path, input, ctx) };
  } catch (error) {
    return { ok: false, error: toArgusErrorData(error, path) };
  }
}
