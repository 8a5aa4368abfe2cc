import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { RelayContext } from './context.js';
import { CLOSE_CODES, HelloFrame, WIRE_VERSION } from './wire/index.js';

/** The extension sends its hello as soon as the socket opens: a socket silent this long is closed. */
export const HELLO_TIMEOUT_MS = 2000;
/** A hello is a few hundred bytes; a socket that sends more before it is known is cut off at once. */
export const PRE_HELLO_MAX_BYTES = 16 * 1024;

/**
 * /extension: the Origin was already checked at upgrade time, but any local process can forge it,
 * so the socket is not trusted until its first frame, a hello with a pairing token the registry
 * knows for that node id. Until then it may send at most PRE_HELLO_MAX_BYTES (counted on the raw
 * TCP stream, before `ws` assembles a frame, so a 60 MB frame is never buffered) and must do so
 * within HELLO_TIMEOUT_MS. Anything else closes the socket with a code that tells the extension
 * whether to re-pair (4401) or give up (4426).
 */
export function acceptExtension(ctx: RelayContext, socket: WebSocket, tcp?: Duplex): void {
  let received = 0;
  const count = (chunk: Buffer) => {
    received += chunk.length;
    if (received <= PRE_HELLO_MAX_BYTES) return;
    tcp?.off('data', count);
    clearTimeout(timer);
    ctx.log('warn', 'extension refused', { reason: `more than ${PRE_HELLO_MAX_BYTES} bytes before the hello` });
    socket.terminate();
  };
  tcp?.on('data', count);
  const timer = setTimeout(
    () => refuse(CLOSE_CODES.unauthorized, 'unauthorized', 'No hello received.'),
    HELLO_TIMEOUT_MS,
  );

  function refuse(code: number, errorCode: string, message: string): void {
    clearTimeout(timer);
    tcp?.off('data', count);
    ctx.setLastError(`extension refused: ${message}`);
    ctx.log('warn', 'extension refused', { reason: message });
    socket.send(JSON.stringify({ version: WIRE_VERSION, type: 'error', error: { code: errorCode, message } }));
    socket.close(code, errorCode);
  }

  socket.once('message', (data) => {
    clearTimeout(timer);
    tcp?.off('data', count);
    let raw: unknown;
    try {
      raw = JSON.parse(data.toString());
    } catch {
      return refuse(CLOSE_CODES.protocolError, 'invalid_input', 'The hello frame is not JSON.');
    }
    const version = (raw as { version?: unknown } | null)?.version;
    if (version !== WIRE_VERSION) {
      return refuse(
        CLOSE_CODES.badVersion,
        'unsupported',
        `Wire version ${String(version)} is not supported; this relay speaks ${WIRE_VERSION}. Update the extension.`,
      );
    }
    const hello = HelloFrame.safeParse(raw);
    if (!hello.success) return refuse(CLOSE_CODES.protocolError, 'invalid_input', 'Malformed hello frame.');
    if (!ctx.pairing.verify(hello.data.nodeId, hello.data.pairingToken)) {
      return refuse(CLOSE_CODES.unauthorized, 'unauthorized', 'Unknown or revoked pairing token: pair again.');
    }
    socket.send(
      JSON.stringify({
        version: WIRE_VERSION,
        type: 'welcome',
        nodeId: hello.data.nodeId,
        relayVersion: ctx.relayVersion,
      }),
    );
    ctx.log('info', 'extension connected', {
      nodeId: hello.data.nodeId,
      extensionVersion: hello.data.extensionVersion,
    });
    ctx.link.adopt(
      socket,
      { nodeId: hello.data.nodeId, extensionVersion: hello.data.extensionVersion },
      { sessionIds: hello.data.endedSessions ?? [], reason: hello.data.endedReason ?? 'the extension detached' },
    );
  });
}
