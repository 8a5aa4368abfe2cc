import {
  CLOSE_CODES,
  PairResponse,
  RelayFrame,
  WIRE_VERSION,
  type CommandFrame,
  type ResultFrame,
} from '@argus/relay/wire';
import type { NodeState, NodeStatus, RelayConfig } from '../shared/messages.js';
import { backoffDelay } from './backoff.js';
import { OutboundQueue } from './outbound-queue.js';

export interface ConnectionHooks {
  onCommand(frame: CommandFrame): void;
  onStatus(status: NodeStatus): void;
  onPaired(pairingToken: string): void;
  onUnpaired(): void;
  /** The relay pushed an event (the side panel's feed and inbox). */
  onEvent(event: string, params: unknown): void;
}

const PAIR_POLL_MS = 2000;
/** The relay accepts this many ended sessions in a hello (it caps the hello's size before it is trusted). */
const ENDED_MAX = 100;
const PING_EVERY_MS = 20_000;

/**
 * The extension's side of the relay: pair over HTTP, then hold one authenticated WebSocket. Every
 * loop iteration carries a generation number so a config change cancels stale timers and sockets.
 */
export class RelayConnection {
  private config: RelayConfig | undefined;
  private socket: WebSocket | undefined;
  private authenticated = false;
  private attempt = 0;
  /** consecutive 4401 refusals: the first re-pairs at once (a restarted relay), repeats back off */
  private refusals = 0;
  private generation = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private awaitingPong = false;
  private requestId: string | undefined;
  private readonly queue = new OutboundQueue();
  /** Sessions detached while disconnected, named in every hello until one is welcomed. */
  private ended: string[] = [];
  private endedReason = '';
  /** What the current socket's hello named: a welcome clears those, not ones ended since. */
  private endedTold: string[] = [];

  constructor(private readonly hooks: ConnectionHooks) {}

  configure(config: RelayConfig): void {
    const before = this.config;
    this.config = config;
    const same =
      before &&
      before.enabled === config.enabled &&
      before.relayUrl === config.relayUrl &&
      before.pairingToken === config.pairingToken &&
      before.launchToken === config.launchToken;
    if (!same) this.restart();
  }

  sendResult(frame: ResultFrame): void {
    const data = JSON.stringify(frame);
    if (this.authenticated && this.socket?.readyState === WebSocket.OPEN) this.socket.send(data);
    else this.queue.push('result', data); // flushed after the next welcome
  }

  sendEvent(event: string, params: unknown): void {
    // events from before a connection are stale for whoever connects next; only results are kept
    if (!this.authenticated || this.socket?.readyState !== WebSocket.OPEN) return;
    this.socket.send(JSON.stringify({ version: WIRE_VERSION, type: 'event', event, params }));
  }

  /**
   * The worker let go of these sessions while no relay was connected. The next relay hears it in the
   * hello, so its clients' sessions end before it replays or sends anything on them.
   */
  sessionsEnded(sessionIds: string[], reason: string): void {
    if (this.authenticated && this.socket?.readyState === WebSocket.OPEN) {
      // connected again before the worker finished letting go: this relay can hear it now
      for (const sessionId of sessionIds) this.sendEvent('session.detached', { sessionId, reason });
      return;
    }
    this.ended = [...this.ended, ...sessionIds].slice(-ENDED_MAX);
    this.endedReason = reason;
  }

  private restart(): void {
    this.generation += 1;
    this.attempt = 0;
    this.requestId = undefined;
    this.teardown();
    void this.run(this.generation);
  }

  private teardown(): void {
    clearTimeout(this.timer);
    clearInterval(this.pingTimer);
    this.authenticated = false;
    const socket = this.socket;
    this.socket = undefined;
    socket?.close(1000, 'reconfigured');
  }

  private status(state: NodeState, extra: Partial<NodeStatus> = {}): void {
    this.hooks.onStatus({ state, relayUrl: this.config?.relayUrl, since: Date.now(), ...extra });
  }

  private schedule(gen: number, delayMs: number, state: NodeState, lastError?: string): void {
    this.status(state, { retryInMs: delayMs, ...(lastError ? { lastError } : {}) });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => gen === this.generation && void this.run(gen), delayMs);
  }

  private async run(gen: number): Promise<void> {
    const config = this.config;
    if (!config?.enabled) return this.status('disabled');
    if (!config.relayUrl) return this.status('needs_relay_url');
    if (!config.pairingToken) return this.pair(gen, config);
    this.connect(gen, config, config.pairingToken);
  }

  private async pair(gen: number, config: RelayConfig): Promise<void> {
    this.status('pairing');
    let response: Response;
    try {
      response = await fetch(`${config.relayUrl}/pair`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          version: WIRE_VERSION,
          nodeId: config.nodeId,
          name: 'Argus extension',
          launchToken: config.launchToken,
          requestId: this.requestId,
        }),
      });
    } catch (error) {
      return this.schedule(gen, backoffDelay(this.attempt++), 'reconnecting', `relay unreachable: ${String(error)}`);
    }
    if (gen !== this.generation) return;
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const message =
        (body as { error?: { message?: string } } | undefined)?.error?.message ?? `HTTP ${response.status}`;
      return this.schedule(
        gen,
        backoffDelay(this.attempt++, { maxMs: 30_000 }),
        'error',
        `pairing refused: ${message}`,
      );
    }
    const parsed = PairResponse.safeParse(body);
    if (!parsed.success) return this.schedule(gen, backoffDelay(this.attempt++), 'error', 'unexpected /pair response');
    if (parsed.data.status === 'pending') {
      this.requestId = parsed.data.requestId;
      this.status('waiting_for_pair_approval', { pairingCode: parsed.data.code });
      this.timer = setTimeout(() => gen === this.generation && void this.pair(gen, config), PAIR_POLL_MS);
      return;
    }
    this.requestId = undefined;
    config.pairingToken = parsed.data.pairingToken; // keep going now; the worker persists it
    this.hooks.onPaired(parsed.data.pairingToken);
    this.connect(gen, config, parsed.data.pairingToken);
  }

  private connect(gen: number, config: RelayConfig, pairingToken: string): void {
    this.status(this.attempt === 0 ? 'connecting' : 'reconnecting');
    const url = new URL('/extension', config.relayUrl);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      this.endedTold = this.ended;
      socket.send(
        JSON.stringify({
          version: WIRE_VERSION,
          type: 'hello',
          nodeId: config.nodeId,
          pairingToken,
          extensionVersion: config.extensionVersion,
          ...(this.ended.length > 0 ? { endedSessions: this.ended, endedReason: this.endedReason } : {}),
        }),
      );
    };
    socket.onmessage = (message) => this.onFrame(socket, String(message.data));
    socket.onclose = (event) => {
      if (gen !== this.generation || this.socket !== socket) return;
      this.socket = undefined;
      this.authenticated = false;
      clearInterval(this.pingTimer);
      this.queue.dropEvents();
      if (event.code === CLOSE_CODES.unauthorized) {
        // the relay does not know our token (new relay, revoked): forget it and pair again
        config.pairingToken = undefined;
        this.hooks.onUnpaired();
        const delay = this.refusals++ === 0 ? 50 : backoffDelay(this.refusals);
        return this.schedule(gen, delay, 'pairing', 'pairing token refused; pairing again');
      }
      if (event.code === CLOSE_CODES.badVersion)
        return this.status('error', { lastError: event.reason || 'wire version mismatch; update the extension' });
      this.schedule(gen, backoffDelay(this.attempt++), 'reconnecting', event.reason || `socket closed (${event.code})`);
    };
  }

  private onFrame(socket: WebSocket, text: string): void {
    let frame: RelayFrame;
    try {
      frame = RelayFrame.parse(JSON.parse(text));
    } catch {
      return; // a frame we cannot read cannot be answered either; the relay times it out
    }
    switch (frame.type) {
      case 'welcome':
        this.authenticated = true;
        this.ended = this.ended.filter((sessionId) => !this.endedTold.includes(sessionId));
        this.attempt = 0;
        this.refusals = 0;
        this.status('authenticated_connected');
        for (const data of this.queue.drain()) socket.send(data);
        this.startPing(socket);
        return;
      case 'command':
        return this.hooks.onCommand(frame);
      case 'event':
        return this.hooks.onEvent(frame.event, frame.params);
      case 'ping':
        return socket.send(JSON.stringify({ version: WIRE_VERSION, type: 'pong', t: frame.t }));
      case 'pong':
        this.awaitingPong = false;
        return;
      case 'error':
        this.status('error', { lastError: frame.error.message });
        return;
    }
  }

  /** Detects a half-open connection (relay process frozen or gone without a FIN). */
  private startPing(socket: WebSocket): void {
    clearInterval(this.pingTimer);
    this.awaitingPong = false;
    this.pingTimer = setInterval(() => {
      if (this.awaitingPong) return socket.close(4000, 'relay stopped answering');
      this.awaitingPong = true;
      socket.send(JSON.stringify({ version: WIRE_VERSION, type: 'ping', t: Date.now() }));
    }, PING_EVERY_MS);
  }
}
