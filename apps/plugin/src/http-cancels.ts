import type { ServerResponse } from 'node:http';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CancelledNotificationSchema,
  type JSONRPCMessage,
  type RequestId,
  isJSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';

/** One POST's requests as cancellations find them. */
interface PendingPost {
  /** `notification` is the client's `notifications/cancelled` for `requestId`, as it came. */
  cancel(notification: JSONRPCMessage, requestId: RequestId): void;
}

/**
 * Routes a client's `notifications/cancelled` on the tunnel's stateless MCP endpoint to the POST
 * that carries the request. Every POST gets its own server there (http-endpoint.ts), and the SDK
 * client sends the cancel in a POST of its own, so left alone it reaches a server that never saw the
 * request, and the command ran on.
 *
 * With no MCP session, a request is known by its JSON-RPC id within its caller's shared token (a
 * token can cancel its own calls only). Two clients on one token may have the same id pending at
 * once: such a cancel is ambiguous and stops neither (the caller can still drop its request).
 *
 * The cancel is handed to the request's own server, which aborts the handler's signal (the command
 * is cancelled at the daemon, as on stdio) and sends no answer for it. A POST left with nothing to
 * answer is then ended at once with 202 and no body, as a POST of notifications is: the SDK client
 * takes that silently, and a pending JSON answer would otherwise hold the request open until the
 * client goes. (A JSON-RPC batch, gone from MCP since 2025-06-18, whose other calls go on is left to
 * the SDK transport, which answers it once every call has been answered.)
 */
export class HttpCancels {
  private readonly pending = new Map<string, Set<PendingPost>>();

  /**
   * Follows one POST: `transport` is connected to the POST's server (its `onmessage` is the
   * server's), `owner` the token it runs as; until `res` closes.
   */
  follow(owner: string, transport: Transport, res: ServerResponse): void {
    const deliver = transport.onmessage;
    if (!deliver) return;
    const keys = new Set<string>();
    const cancelled = new Set<string>();
    const post: PendingPost = {
      cancel: (notification, requestId) => {
        deliver(notification);
        cancelled.add(keyOf(owner, requestId));
        // nothing left to answer: the POST ends (closing it closes its server, see http-endpoint.ts)
        if (cancelled.size === keys.size && !res.headersSent) res.writeHead(202).end();
      },
    };
    const onMessage = (message: JSONRPCMessage, extra?: Parameters<typeof deliver>[1]) => {
      if (isJSONRPCRequest(message)) {
        const key = keyOf(owner, message.id);
        keys.add(key);
        const posts = this.pending.get(key) ?? new Set();
        posts.add(post);
        this.pending.set(key, posts);
      } else {
        const requestId = CancelledNotificationSchema.safeParse(message).data?.params.requestId;
        if (requestId !== undefined) {
          const posts = this.pending.get(keyOf(owner, requestId));
          const [target] = posts?.size === 1 ? posts : [];
          if (target && target !== post) target.cancel(message, requestId);
        }
      }
      deliver(message, extra);
    };
    // the transport's handler type is generic in the message; this one takes any message
    transport.onmessage = onMessage as Transport['onmessage'];
    res.once('close', () => {
      for (const key of keys) {
        const posts = this.pending.get(key);
        posts?.delete(post);
        if (posts?.size === 0) this.pending.delete(key);
      }
    });
  }
}

function keyOf(owner: string, id: RequestId): string {
  return `${owner}\n${typeof id}:${id}`;
}
