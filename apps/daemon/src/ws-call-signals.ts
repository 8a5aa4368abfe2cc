import { asyncSlot } from '@argus/cdp';
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
 * (`{id, method: 'subscription.stop'}`, what the client's WsCalls and its tRPC link send for an
 * abandoned call) and when its socket closes, so the command is cancelled as one over HTTP is when
 * its request closes (its command scope, its place in the tab queue).
 *
 * How: `follow` runs tRPC's message listener for each frame inside an async slot (`asyncSlot`) holding
 * the signals of that frame's calls, and the router `signalled` returns reads it in every query and
 * mutation, by the call's place in the frame (tRPC's `batchIndex`: 0 for a lone call). A lone call
 * is known by the head of its message, unparsed (a frame may hold 50 MB of HTML); a batch (several
 * calls in one frame, as tRPC's wsLink sends the calls of one tick) is parsed for its ids, so each
 * of its calls is stopped on its own. A frame neither reads as gets the socket's own signal, which
 * fires when the socket closes.
 */
export class WsCallSignals {
  /** The signals of the frame being handled, by the call's index in it. */
  private readonly current = asyncSlot<FrameSignals>('WebSocket frame signals');

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
        const frame = this.current.get();
        if (!frame) return procedure(opts);
        const caller = frame.signals[opts.batchIndex ?? 0] ?? frame.closed;
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
    /** Stops the call `id` (a subscription's id: tRPC's handler stops it). */
    const stop = (id: string) => {
      calls.get(id)?.abort();
      calls.delete(id);
    };
    /** A signal for the query or mutation `id`, aborted by its stop or the socket's close. */
    const start = (id: string) => {
      const controller = new AbortController();
      calls.set(id, controller);
      return controller.signal;
    };
    const emit = socket.emit.bind(socket) as (event: string | symbol, ...args: unknown[]) => boolean;
    const send = socket.send.bind(socket) as (data: unknown, ...rest: unknown[]) => void;
    socket.emit = ((event: string | symbol, ...args: unknown[]) => {
      if (event !== 'message') return emit(event, ...args);
      const head = headOf(args[0]);
      const call = CALL_HEAD.exec(head);
      let signals: (AbortSignal | undefined)[] = [];
      if (call?.[2] === 'subscription.stop') stop(call[1]!);
      else if (call) signals = [start(call[1]!)];
      else if (head.startsWith('[')) {
        // one entry per message of the batch, in its order (tRPC's batchIndex)
        signals = batchOf(args[0]).map((message) => {
          if (message?.method === 'query' || message?.method === 'mutation') return start(message.id);
          if (message?.method === 'subscription.stop') stop(message.id);
          return undefined;
        });
      }
      return this.current.run({ signals, closed: closed.signal }, () => emit(event, ...args));
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

/** The signals of one frame's calls, by index; `closed` for any other (it fires when the socket closes). */
interface FrameSignals {
  signals: readonly (AbortSignal | undefined)[];
  closed: AbortSignal;
}

/** A message of a batch as far as its signal goes: its id as the answer's head shows it, and its method. */
interface BatchMessage {
  id: string;
  method: unknown;
}

/**
 * The messages of a batch frame (a JSON array), each with its id in the form the answer's head
 * shows it (`7`, `"a"`); an entry with no usable id is undefined. Not a JSON array: no messages
 * (tRPC's handler answers it with a parse error).
 */
function batchOf(data: unknown): (BatchMessage | undefined)[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : typeof data === 'string' ? data : '');
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.map((message: unknown) => {
    if (typeof message !== 'object' || message === null) return undefined;
    const { id, method } = message as { id?: unknown; method?: unknown };
    return typeof id === 'number' || typeof id === 'string' ? { id: JSON.stringify(id), method } : undefined;
  });
}

function headOf(data: unknown): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8', 0, HEAD_CHARS);
  return typeof data === 'string' ? data.slice(0, HEAD_CHARS) : '';
}
