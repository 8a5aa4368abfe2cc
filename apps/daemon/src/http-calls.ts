import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppRouter, CallContext } from '@argus/protocol';
import {
  type AnyTRPCProcedure,
  TRPCError,
  getTRPCErrorFromUnknown,
  getTRPCErrorShape,
  transformTRPCResponse,
} from '@trpc/server';
import { getHTTPStatusCode } from '@trpc/server/http';

/** What the tRPC HTTP adapter would have built as the call's context (it may throw a TRPCError). */
export type HttpContext = (req: IncomingMessage) => CallContext;

/** Headers tRPC's fetch adapter puts on every single-call answer; kept so both paths answer alike. */
const VARY = 'trpc-accept, accept';

/**
 * Single tRPC calls over HTTP (`GET /trpc/<path>?input=` for a query, `POST /trpc/<path>` with a JSON
 * body for a mutation), answered straight from node:http. tRPC's own adapter turns every request
 * into a web Request/Response with ReadableStreams on undici and back, about a millisecond of CPU a
 * call, more than most commands' own work. This answers the same requests with the same router
 * procedures (input and output validation, the safety seam, the journal all run inside them) and
 * tRPC's own error shaping (getTRPCErrorShape, the router's errorFormatter, getHTTPStatusCode), so
 * answers are byte for byte what the adapter sends (test/http-calls.test.ts compares the two).
 *
 * Anything else is left to the adapter (returns false before reading anything): batches, streams
 * (subscriptions), a method that does not fit the procedure, an unknown path, another content type.
 * The caller has authenticated the request first; unauthenticated requests never come here.
 */
export function createCallHandler(
  router: AppRouter,
  options: { basePath: string; maxBodySize: number; context: HttpContext },
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const config = router._def._config;
  // the built router's flat record, path -> procedure (the manifest's; no lazy routers)
  const procedures = router._def.procedures as unknown as Record<string, AnyTRPCProcedure | undefined>;

  return (req, res) => {
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const path = url.slice(options.basePath.length, query === -1 ? undefined : query);
    const params = query === -1 ? undefined : new URLSearchParams(url.slice(query + 1));
    if (params?.has('batch') || params?.has('connectionParams') || !/^[\w.]+$/.test(path)) return false;
    const procedure = Object.hasOwn(procedures, path) ? procedures[path] : undefined;
    if (!procedure) return false;
    const type = procedure._def.type;
    if (type === 'subscription' || req.method !== (type === 'query' ? 'GET' : 'POST')) return false;
    // the adapter reads a body by its content type (and needs one on a POST): other types are its to answer
    const contentType = req.headers['content-type'];
    if (contentType === undefined ? type === 'mutation' : !isJson(contentType)) return false;
    // tRPC's streaming accept header is for batches only; the adapter answers it with its error
    if (req.headers['trpc-accept'] !== undefined) return false;

    const abort = new AbortController();
    // the caller hung up before its answer: the call is told, as tRPC's adapter tells it
    const onClose = () => {
      if (!res.writableEnded) abort.abort();
    };
    res.once('close', onClose);
    req.once('aborted', onClose);
    const body = type === 'mutation' ? readBody(req, options.maxBodySize) : undefined;
    let rawInput: unknown;
    let ctx: CallContext | undefined;
    const getRawInput = async (): Promise<unknown> => {
      try {
        const text = body ? await body : (params?.get('input') ?? '');
        rawInput = text ? (JSON.parse(text) as unknown) : undefined;
        return rawInput;
      } catch (cause) {
        // as tRPC's input reader: its own errors pass, anything else (bad JSON) is BAD_REQUEST
        if (cause instanceof TRPCError) throw cause;
        throw new TRPCError({
          code: 'BAD_REQUEST',
          message: cause instanceof Error ? cause.message : 'Invalid input',
          cause,
        });
      }
    };
    void (async () => {
      let answer: { result: { data: unknown } } | { error: unknown };
      let status = 200;
      try {
        ctx = options.context(req);
        const data = await procedure({ ctx, path, type, getRawInput, signal: abort.signal, batchIndex: 0 });
        answer = { result: { data } };
      } catch (cause) {
        const error = getTRPCErrorFromUnknown(cause);
        answer = { error: getTRPCErrorShape({ config, ctx, error, input: rawInput, path, type }) };
        status = getHTTPStatusCode(answer as Parameters<typeof getHTTPStatusCode>[0], [error]);
      }
      // an unread body (the context refused the call) is drained, as the adapter leaves it
      body?.catch(() => undefined);
      const text = JSON.stringify(transformTRPCResponse(config, answer as Parameters<typeof transformTRPCResponse>[1]));
      if (res.destroyed) return;
      res
        .writeHead(status, {
          vary: VARY,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
        })
        .end(text);
    })();
    return true;
  };
}

function isJson(contentType: string): boolean {
  return contentType.split(';', 1)[0]?.trim().toLowerCase() === 'application/json';
}

/** The request body as text, refused past `maxBytes` the way tRPC's adapter refuses it (PAYLOAD_TOO_LARGE). */
function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      req.off('end', onEnd);
      chunks.length = 0;
      reject(new TRPCError({ code: 'PAYLOAD_TOO_LARGE' }));
    };
    const onEnd = () => resolve(Buffer.concat(chunks).toString('utf8'));
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', reject);
  });
}
