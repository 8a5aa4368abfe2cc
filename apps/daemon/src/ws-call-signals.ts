import { AsyncLocalStorage } from 'node:async_hooks';
import type { AppRouter } from '@argus/protocol';
import type { AnyTRPCProcedure } from '@trpc/server';
import type { WebSocket } from 'ws';

type ProcedureCall = Parameters<AnyTRPCProcedure>[0];

/** A single query, mutation or stop as a client sends it: `{"id":7,"method":"query",...`. */
const CALL_HEAD =
  /^\{"id":(\d+|"(?:[^"\\]|\\.){0,64}"),(?:"jsonrpc":"2\.0",)?"method":"(query|mutation|subscription\.stop)"/;
/** An answer as tRPC's handler sends it: `{"id":7,...`. */
const ANSWER_HEAD = /^\{"id":(\d+|"(?:[^"\\]|\\.){0,64}"),/;
/** Enough of a message to read its id and method without parsing it (a frame may hold 50 MB of HTML). */
const HEAD_CHARS = 120;

/**
 * The signal of a query or mutation on a WebSocket. tRPC's handler (11.x) gives each one a signal
 * that nothing aborts: its `subscription.stop` stops subscriptions only, and a closed socket aborts
 * only them. Here the signal a call's procedure gets also fires when its caller stops it
 * (`{id, method: 'subscription.stop'}`, what the client's WsCalls sends for an abandoned call) and
 * when its socket closes, so the command is cancelled as one over HTTP is when its request closes
 * (its command scope, its place in the tab queue).
 *
 * How: `follow` runs tRPC's message listener for each call inside an AsyncLocalStorage holding
 * that call's signal, and the router `signalled` returns reads it in every query and mutation.
 * Calls are known by the head of their message; one in another form (a batch of several calls in
 * one frame) still gets the socket's own signal, which fires when the socket closes.
 */
export class WsCallSignals {
  private readonly current = new AsyncLocalStorage<AbortSignal>();

  /** `router` for the WebSocket handler: each query and mutation also ends with its call's signal. */
  signalled(router: AppRouter): AppRouter {
    const procedures = router._def.procedures as unknown as Record<string, AnyTRPCProcedure>;
    const wrapped: Record<string, AnyTRPCProcedure> = {};
    for (const [path, procedure] of Object.entries(procedures)) {
      if (procedure._def.type === 'subscription') {
        wrapped[path] = procedure;
        continue;
      }
      const call = (opts: ProcedureCall) => {
        const caller = this.current.getStore();
        if (!caller) return procedure(opts);
        return procedure({ ...opts, signal: opts.signal ? AbortSignal.any([opts.signal, caller]) : caller });
      };
      // tRPC tells a procedure by its `_def` (type, meta): the wrapper carries the same
      wrapped[path] = Object.assign(call, { _def: procedure._def }) as unknown as AnyTRPCProcedure;
    }
    // the router is a plain record: the same one with these procedures (trust boundary: tRPC's shape)
    return { ...router, _def: { ...router._def, procedures: wrapped } } as unknown as AppRouter;
  }

  /** Follows the calls on `socket`; called before tRPC's handler listens to it. */
  follow(socket: WebSocket): void {
    const calls = new Map<string, AbortController>();
    const closed = new AbortController();
    const emit = socket.emit.bind(socket) as (event: string | symbol, ...args: unknown[]) => boolean;
    const send = socket.send.bind(socket) as (data: unknown, ...rest: unknown[]) => void;
    socket.emit = ((event: string | symbol, ...args: unknown[]) => {
      if (event !== 'message') return emit(event, ...args);
      const head = CALL_HEAD.exec(headOf(args[0]));
      if (!head) return this.current.run(closed.signal, () => emit(event, ...args));
      const id = head[1]!;
      if (head[2] === 'subscription.stop') {
        // a call's id: stopped here; a subscription's: tRPC's handler stops it
        calls.get(id)?.abort();
        calls.delete(id);
        return emit(event, ...args);
      }
      const controller = new AbortController();
      calls.set(id, controller);
      return this.current.run(controller.signal, () => emit(event, ...args));
    }) as typeof socket.emit;
    // its answer ends a call (tRPC answers each query and mutation once, also when it never ran)
    socket.send = ((data: unknown, ...rest: unknown[]) => {
      if (calls.size > 0 && typeof data === 'string') {
        const id = ANSWER_HEAD.exec(data.slice(0, HEAD_CHARS))?.[1];
        if (id !== undefined) calls.delete(id);
      }
      send(data, ...rest);
    }) as typeof socket.send;
    socket.once('close', () => {
      for (const controller of calls.values()) controller.abort();
      calls.clear();
      closed.abort();
    });
  }
}

function headOf(data: unknown): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8', 0, HEAD_CHARS);
  return typeof data === 'string' ? data.slice(0, HEAD_CHARS) : '';
}
