import { WIRE_VERSION } from '@argus/relay/wire';
import { RELAY_PORT, type ToOffscreen, type ToWorker } from '../shared/messages.js';
import { IdempotencyCache } from './idempotency.js';
import { RelayConnection } from './relay-connection.js';

/**
 * Offscreen document: owns the relay WebSocket so MV3 service-worker suspension cannot drop it.
 * It de-duplicates replayed commands by idempotency key and forwards the rest to the worker.
 */
const KEEPALIVE_MS = 20_000;
const cache = new IdempotencyCache();
let port: chrome.runtime.Port | undefined;

const toWorker = (message: ToWorker) => port?.postMessage(message);

const connection = new RelayConnection({
  onCommand(frame) {
    const admitted = cache.admit(frame.id);
    if (admitted.action === 'replay') return connection.sendResult(admitted.frame);
    if (admitted.action === 'wait') return; // still running: its result goes out when it completes
    if (!port) {
      return finish({
        version: WIRE_VERSION,
        type: 'result',
        id: frame.id,
        ok: false,
        error: { code: 'internal', message: 'The extension worker is restarting; retry with a new key.' },
      });
    }
    toWorker({ type: 'command', frame });
  },
  onStatus: (status) => toWorker({ type: 'status', status }),
  onPaired: (pairingToken) => toWorker({ type: 'paired', pairingToken }),
  onUnpaired: () => toWorker({ type: 'unpaired' }),
  onEvent: (event, params) => toWorker({ type: 'relay-event', event, params }),
});

function finish(frame: Parameters<typeof connection.sendResult>[0]): void {
  cache.complete(frame);
  connection.sendResult(frame);
}

function connectPort(): void {
  const current = chrome.runtime.connect({ name: RELAY_PORT });
  port = current;
  current.onMessage.addListener((message: ToOffscreen) => {
    if (message.type === 'config') connection.configure(message.config);
    else if (message.type === 'result') finish(message.frame);
    else if (message.type === 'event') connection.sendEvent(message.event, message.params);
    else if (message.type === 'sessions-ended') connection.sessionsEnded(message.sessionIds, message.reason);
  });
  current.onDisconnect.addListener(() => {
    port = undefined;
    // commands the old worker was running will never answer: fail them so replays do not hang
    for (const id of cache.abandonRunning()) {
      finish({
        version: WIRE_VERSION,
        type: 'result',
        id,
        ok: false,
        error: { code: 'internal', message: 'The extension worker restarted while running this command.' },
      });
    }
    setTimeout(connectPort, 100); // wakes the worker again
  });
}

connectPort();
// port messages count as extension activity and keep the worker from being suspended
setInterval(() => toWorker({ type: 'keepalive' }), KEEPALIVE_MS);
