import {
  initTRPC,
  TRPCError,
  type TRPCBuiltRouter,
  type TRPCMutationProcedure,
  type TRPCQueryProcedure,
  type TRPCSubscriptionProcedure,
} from '@trpc/server';
import type { z } from 'zod';
import type { AnyCommand, CommandDef, CommandKind, Scope } from './define.js';
import { ArgusError, type ArgusErrorData, isArgusError, trpcCodeFor } from './errors.js';
import { type Manifest, manifest } from './manifest.js';

/** What every handler learns about the call besides its input. */
export interface CallContext {
  /** Scopes granted to the caller's token. */
  scopes: readonly Scope[];
  /** Aborted when the caller goes away (subscriptions) or the daemon stops. */
  signal?: AbortSignal | undefined;
  /** Contract paths this token may run; absent means every command its scopes allow (shared tokens narrow it). */
  commands?: readonly string[] | undefined;
  /** Who is calling (`cli`, `mcp`, a shared token's client name): shown in approvals and logs. */
  client?: string | undefined;
  /**
   * Set for a shared token (`argus share`, tunnel listener): its token id. The caller then sees and
   * drives only the tabs it opened. Absent for the operator, who sees every tab.
   */
  owner?: string | undefined;
  /** The caller's current directory (absolute, checked by the daemon): relative paths resolve against it. */
  cwd?: string | undefined;
  /**
   * The named session the call runs in (`--session NAME`, the `x-argus-session` header): its own
   * browser context, tabs and refs. Absent: the default session.
   */
  session?: string | undefined;
  /**
   * Lease ids the caller presents (`x-argus-lease`, ARGUS_LEASE): they prove it holds those tab
   * leases. Unknown ids grant nothing.
   */
  leases?: readonly string[] | undefined;
  /** How long a write may wait for another client's lease on its tab (`x-argus-lease-wait`); absent: fail fast. */
  leaseWaitMs?: number | undefined;
  /** The WebSocket connection a call came over (daemon-assigned): leases taken on it end when it closes. */
  connection?: string | undefined;
  /**
   * Values this call must never store or echo, whatever field they are in (daemon-set: a skill's
   * secret parameters, for the steps it dispatches). The journal and the watch feed cut them.
   */
  secrets?: readonly string[] | undefined;
}

/**
 * THE safety seam. Runs for every call (HTTP, WebSocket, batch steps) after its input is validated
 * and before its handler: it checks the token's scope and allow-list, the operator's policy, and may
 * wait for an approval. It refuses by throwing an ArgusError. The daemon composes it from
 * `@argus/security` (scopes) and its policy; there is no router without one.
 */
export type Authorize = (ctx: CallContext, command: AnyCommand, input: unknown) => void | Promise<void>;

/**
 * Sees every call that reaches the seam (HTTP, WebSocket, batch steps, the tunnel's MCP tools), before
 * `authorize`; the function it returns is called once with the call's error (undefined on success)
 * and output. The daemon's journal hooks here. It must not throw; if it does, the call goes on.
 */
export type ObserveCall = (
  ctx: CallContext,
  command: AnyCommand,
  input: unknown,
) => ((error: unknown, output?: unknown) => void) | undefined;

export type InputOf<C> = C extends CommandDef<infer I, z.ZodType, CommandKind> ? z.input<I> : never;
export type ParsedInputOf<C> = C extends CommandDef<infer I, z.ZodType, CommandKind> ? z.output<I> : never;
export type OutputOf<C> = C extends CommandDef<z.ZodObject, infer O, CommandKind> ? z.output<O> : never;

export type Handler<C> =
  C extends CommandDef<infer I, infer O, infer K>
    ? K extends 'subscription'
      ? (input: z.output<I>, ctx: CallContext) => AsyncIterable<z.input<O>>
      : (input: z.output<I>, ctx: CallContext) => Promise<z.input<O>>
    : never;

/** One handler per manifest entry; a missing one is a compile error. */
export type Handlers = { [NS in keyof Manifest]: { [K in keyof Manifest[NS]]: Handler<Manifest[NS][K]> } };

export interface ArgusErrorShape {
  message: string;
  code: number;
  data: { code: string; httpStatus: number; path?: string; argus: ArgusErrorData };
}

/** The input a caller passes: nothing at all when every field is optional (`client.tabs.list.query()`). */
type CallInput<I extends z.ZodType> = Record<never, never> extends z.input<I> ? z.input<I> | void : z.input<I>;

type ProcedureOf<C> =
  C extends CommandDef<infer I, infer O, infer K>
    ? K extends 'query'
      ? TRPCQueryProcedure<{ input: CallInput<I>; output: z.output<O>; meta: object }>
      : K extends 'mutation'
        ? TRPCMutationProcedure<{ input: CallInput<I>; output: z.output<O>; meta: object }>
        : TRPCSubscriptionProcedure<{
            input: CallInput<I>;
            output: AsyncIterable<z.output<O>, void, unknown>;
            meta: object;
          }>
    : never;

type RouterRecordOf<M> = { [NS in keyof M]: { [K in keyof M[NS]]: ProcedureOf<M[NS][K]> } };

export type AppRouter = TRPCBuiltRouter<
  { ctx: CallContext; meta: object; errorShape: ArgusErrorShape; transformer: false },
  RouterRecordOf<Manifest>
>;

interface ZodLikeError {
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>;
}

function isZodLikeError(value: unknown): value is ZodLikeError {
  return typeof value === 'object' && value !== null && Array.isArray((value as { issues?: unknown }).issues);
}

/** The CLI verb of the command at `path`, when it has one. */
function verbOf(path: string | undefined): string | undefined {
  const command = path ? commandByPath.get(path) : undefined;
  return command && command.cli !== false ? command.cli.verb : undefined;
}

/** Where a command's arguments are explained: its own `--help`, or the list of commands. */
function helpFor(path: string | undefined): string {
  const verb = verbOf(path);
  return verb === undefined ? '`argus help`' : `\`argus ${verb} --help\``;
}

function commandLabel(path: string | undefined): string {
  const verb = verbOf(path);
  return verb === undefined ? (path ?? 'the command') : `\`argus ${verb}\``;
}

const commandByPath = new Map<string, AnyCommand>();
for (const group of Object.values(manifest)) {
  for (const command of Object.values(group) as AnyCommand[]) commandByPath.set(command.name, command);
}

/** Turns any failure into the contract's error data. Exported so in-process callers (batch) share it. */
export function toArgusErrorData(error: unknown, path?: string): ArgusErrorData {
  const cause = error instanceof TRPCError ? error.cause : error;
  if (isArgusError(cause)) return cause.toData();
  if (isArgusError(error)) return error.toData();
  if (isZodLikeError(cause)) {
    const problems = cause.issues.map(
      (issue) => `${issue.path.length ? issue.path.join('.') : 'input'}: ${issue.message}`,
    );
    return {
      code: 'invalid_input',
      message: `Invalid input for ${commandLabel(path)}: ${problems.join('; ')}. See ${helpFor(path)} for the expected arguments.`,
      details: { issues: problems },
    };
  }
  if (error instanceof TRPCError) {
    // a known command not found was called as another kind (tRPC's WebSocket handler says NOT_FOUND
    // where its HTTP handler says METHOD_NOT_SUPPORTED)
    const known = error.code === 'NOT_FOUND' && path !== undefined && commandByPath.has(path);
    if (error.code === 'NOT_FOUND' && !known)
      return { code: 'invalid_input', message: `Unknown command ${path ?? ''}. Run \`argus help\` for the list.` };
    if (error.code === 'BAD_REQUEST' || error.code === 'PARSE_ERROR')
      return { code: 'invalid_input', message: error.message };
    if (error.code === 'METHOD_NOT_SUPPORTED' || known) {
      const command = path ? commandByPath.get(path) : undefined;
      const call = command
        ? { query: '.query()', mutation: '.mutate()', subscription: '.subscribe()' }[command.kind]
        : '';
      return {
        code: 'invalid_input',
        message: command
          ? `${path} is a ${command.kind}: call it with ${call} (tRPC client) or ${command.kind === 'query' ? 'GET' : 'POST'} over HTTP.`
          : error.message,
      };
    }
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    code: 'internal',
    message: `Internal error: ${message}. This is a bug in Argus; the daemon is still running.`,
  };
}

function toTrpcError(error: unknown): TRPCError {
  if (error instanceof TRPCError) return error;
  if (isArgusError(error))
    return new TRPCError({ code: trpcCodeFor(error.code), message: error.message, cause: error });
  const wrapped = new ArgusError('internal', error instanceof Error ? error.message : String(error), { cause: error });
  return new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: wrapped.message, cause: wrapped });
}

export interface BuildRouterOptions {
  /** The safety seam (scope, allow-list, policy, approvals), run before every handler. */
  authorize: Authorize;
  /** Called for every failed call; the daemon logs here. `stack` is set for internal errors only (it stays in the log, never in a response). */
  onError?: (info: { path: string | undefined; error: ArgusErrorData; stack?: string | undefined }) => void;
  /** Sees every call and its outcome (the command journal). */
  observe?: ObserveCall;
}

/** An observer's failure never reaches the call it observes. */
function observeSafely(
  observe: ObserveCall | undefined,
  ctx: CallContext,
  command: AnyCommand,
  input: unknown,
): (error: unknown, output?: unknown) => void {
  let done: ((error: unknown, output?: unknown) => void) | undefined;
  try {
    done = observe?.(ctx, command, input);
  } catch {
    return () => {};
  }
  return (error, output) => {
    try {
      done?.(error, output);
    } catch {
      // the journal reports its own failures in `status`; the command's outcome stands
    }
  };
}

/** Builds the tRPC router from the manifest and one handler per command. */
export function buildRouter(handlers: Handlers, options: BuildRouterOptions): AppRouter {
  const t = initTRPC.context<CallContext>().create({
    isServer: true,
    // production mode: error bodies never carry a server stack (install paths, code layout)
    isDev: false,
    errorFormatter({ shape, error, path }) {
      const argus = toArgusErrorData(error, path);
      const original =
        error.cause instanceof ArgusError && error.cause.cause !== undefined
          ? error.cause.cause
          : (error.cause ?? error);
      options.onError?.({
        path,
        error: argus,
        stack: argus.code === 'internal' && original instanceof Error ? original.stack : undefined,
      });
      return { ...shape, message: argus.message, data: { ...shape.data, argus } };
    },
  });
  const record: Record<string, ReturnType<typeof t.router>> = {};
  for (const [namespace, group] of Object.entries(manifest)) {
    const procedures: Record<string, unknown> = {};
    const groupHandlers = (
      handlers as unknown as Record<string, Record<string, (input: unknown, ctx: CallContext) => unknown>>
    )[namespace];
    for (const [key, command] of Object.entries(group) as Array<[string, AnyCommand]>) {
      const handler = groupHandlers?.[key];
      if (!handler) throw new Error(`No handler for ${command.name}`);
      // strict: an unknown field (a typo such as `tab` for `id`) is an error, never silently ignored
      // and a command whose fields are all optional may be called with no input at all. Made at the
      // command's first call: a daemon starts without cloning every input schema (issue 16).
      let strict: z.ZodObject | undefined;
      const base = t.procedure.input((raw: unknown) => (strict ??= command.input.strict()).parse(raw ?? {}));
      if (command.kind === 'subscription') {
        procedures[key] = base.subscription(async function* ({ input, ctx, signal }) {
          const call = { ...ctx, signal };
          const done = observeSafely(options.observe, call, command, input);
          try {
            await options.authorize(call, command, input);
            yield* handler(input, call) as AsyncIterable<unknown>;
            done(undefined);
          } catch (error) {
            done(error);
            throw toTrpcError(error);
          }
        });
        continue;
      }
      // the output schema too is made at the first call (defineCommand); tRPC's own handling of a zod
      // parser: a synchronous parse, asynchronous only for a schema that needs it
      const withOutput = base.output(lazyParser(() => command.output));
      const resolve = async ({
        input,
        ctx,
        signal,
      }: {
        input: unknown;
        ctx: CallContext;
        signal: AbortSignal | undefined;
      }) => {
        const call = { ...ctx, signal };
        const done = observeSafely(options.observe, call, command, input);
        try {
          await options.authorize(call, command, input);
          const output = await (handler(input, call) as Promise<unknown>);
          done(undefined, output);
          return output;
        } catch (error) {
          done(error);
          throw toTrpcError(error);
        }
      };
      procedures[key] = command.kind === 'query' ? withOutput.query(resolve) : withOutput.mutation(resolve);
    }
    record[namespace] = t.router(procedures as Parameters<typeof t.router>[0]);
  }
  // The runtime record is built from the same manifest the AppRouter type is mapped from.
  return t.router(record) as unknown as AppRouter;
}

/** A tRPC parser for a schema made at its first use: what tRPC does with a zod schema given directly. */
function lazyParser(schema: () => z.ZodType): (value: unknown) => unknown {
  let async = false;
  return (value) => {
    if (!async) {
      try {
        return schema().parse(value);
      } catch (cause) {
        if (Array.isArray((cause as { issues?: unknown } | null)?.issues)) throw cause;
        async = true;
      }
    }
    return schema().parseAsync(value);
  };
}
