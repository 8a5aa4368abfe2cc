import { ArgusError, type ArgusErrorData, isErrorCode } from '@argus/protocol/errors';
import { DAEMON_LOST } from './node-fetch.js';

interface TrpcLikeError {
  message: string;
  data?: { argus?: ArgusErrorData } | null;
  cause?: unknown;
}

function isConnectionFailure(error: unknown): boolean {
  const text =
    String((error as { message?: string })?.message ?? '') +
    String((error as { cause?: { code?: string; message?: string } })?.cause?.code ?? '');
  return /ECONNREFUSED|ECONNRESET|fetch failed|socket hang up|EPIPE|WebSocket (closed|connection)|Closed before connection was established/i.test(
    text,
  );
}

/** A request the daemon may have received: node-fetch.ts (HTTP) and ws-link.ts (WebSocket) tag it. */
function isDaemonLost(error: unknown): boolean {
  return (
    (error as { code?: unknown } | null)?.code === DAEMON_LOST ||
    (error as { cause?: { code?: unknown } } | null)?.cause?.code === DAEMON_LOST
  );
}

/** Converts whatever a tRPC call threw into an ArgusError with a stable code. */
export function toArgusError(error: unknown): ArgusError {
  if (error instanceof ArgusError) return error;
  const trpc = error as TrpcLikeError;
  if (trpc?.cause instanceof ArgusError) return trpc.cause;
  const data = trpc?.data?.argus;
  if (data && isErrorCode(data.code)) return ArgusError.fromData(data);
  if (isDaemonLost(error) || isDaemonLost(trpc?.cause)) {
    return new ArgusError(
      'daemon_lost',
      'The Argus daemon went away while it was running the command: it may or may not have run, so it was not retried. ' +
        'Check the page (`argus url` or `argus snapshot` start a fresh daemon and show where it is) before running it again.',
      { cause: error },
    );
  }
  if (isConnectionFailure(error) || isConnectionFailure(trpc?.cause)) {
    return new ArgusError(
      'daemon_unreachable',
      `The Argus daemon is not answering (${trpc?.message ?? String(error)}). The next argus command starts a fresh one (e.g. \`argus url\`); .argus/daemon.log says why it stopped.`,
      { cause: error },
    );
  }
  return new ArgusError('internal', trpc?.message ?? String(error), { cause: error });
}

/** What a call its caller abandoned (its signal) fails with, on every path: the daemon was told to stop it. */
export function callCancelled(path: string): ArgusError {
  return new ArgusError('cancelled', `${path} was cancelled by its caller; the daemon stops it.`);
}
