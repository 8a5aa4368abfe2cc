import { TRPCClientError } from '@trpc/client';
import type { AppRouter } from '@argus/protocol';
import type { ArgusError } from '@argus/protocol/errors';
import { toArgusError } from './errors.js';

/**
 * The error of a tRPC error answer (`{error: {message, code, data}}`, over HTTP or a WebSocket):
 * the one the tRPC client would have thrown (same message and data), as an ArgusError.
 */
export function errorOfAnswer(answer: unknown): ArgusError {
  return toArgusError(TRPCClientError.from<AppRouter>(answer as never));
}
