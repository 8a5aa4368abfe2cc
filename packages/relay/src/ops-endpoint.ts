import type { WebSocket } from 'ws';
import type { RelayContext } from './context.js';
import { toWireError } from './wire-error.js';
import {
  COMMANDS,
  CommandFrame,
  WIRE_VERSION,
  isCommandName,
  type EventParams,
  type ResultFrame,
} from './wire/index.js';

/** How long an /ops command waits for the extension to (re)connect before failing. */
const OPS_CONNECT_GRACE_MS = 15_000;

/**
 * /ops: typed high-level commands from authenticated clients, the same command map the extension
 * speaks. Clients choose the idempotency key (`id`); retrying a frame after a relay restart returns
 * the first execution's result instead of running it again.
 */
export function acceptOps(ctx: RelayContext, socket: WebSocket): void {
  const sessions = new Set<string>();
  const reply = (frame: ResultFrame) => socket.readyState === 1 && socket.send(JSON.stringify(frame));

  const unsubscribe = ctx.link.onEvent((event, params) => {
    if (event === 'cdp.event' || event === 'session.detached') {
      const { sessionId } = params as EventParams<'cdp.event'>; // validated by the link
      if (!sessions.has(sessionId)) return;
      if (event === 'session.detached') sessions.delete(sessionId);
    }
    if (socket.readyState === 1) socket.send(JSON.stringify({ version: WIRE_VERSION, type: 'event', event, params }));
  });
  socket.on('close', unsubscribe);

  socket.on('message', (data) => {
    let frame: CommandFrame;
    try {
      frame = CommandFrame.parse(JSON.parse(data.toString()));
    } catch {
      return reply({
        version: WIRE_VERSION,
        type: 'result',
        id: '',
        ok: false,
        error: { code: 'invalid_input', message: 'Expected a command frame.' },
      });
    }
    const { id, command } = frame;
    if (!isCommandName(command)) {
      return reply({
        version: WIRE_VERSION,
        type: 'result',
        id,
        ok: false,
        error: { code: 'unsupported', message: `Unknown command ${command}.` },
      });
    }
    const params = COMMANDS[command].params.safeParse(frame.params ?? {});
    if (!params.success) {
      return reply({
        version: WIRE_VERSION,
        type: 'result',
        id,
        ok: false,
        error: {
          code: 'invalid_input',
          message: `Invalid params for ${command}.`,
          details: { issues: params.error.issues.map((issue) => issue.message) },
        },
      });
    }
    ctx.link.sendRaw(command, params.data, { key: id, connectGraceMs: OPS_CONNECT_GRACE_MS }).then(
      (result) => {
        if (command === 'debugger.attach') sessions.add((result as { sessionId: string }).sessionId);
        reply({ version: WIRE_VERSION, type: 'result', id, ok: true, result });
      },
      (error: unknown) => reply({ version: WIRE_VERSION, type: 'result', id, ok: false, error: toWireError(error) }),
    );
  });
}
