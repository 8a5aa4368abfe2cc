import { join } from 'node:path';
import type { Transport } from '@argus/cdp';
import { ProtocolError } from '@argus/cdp';
import { ArgusError } from '@argus/protocol';
import { type RelayServer, type RelayStatus, startRelay } from '@argus/relay';
import type { RelayEventName, RelayEventParams } from '@argus/relay/wire';
import type { Logger } from './logger.js';

export interface RelayHostOptions {
  log: Logger;
  /** The daemon's root token: /ops and /cdp clients of the relay present it. */
  daemonToken: string;
  stateDir: string;
  /**
   * The configured port, read at each ensure() so a `config set relay.port` reaches a running daemon.
   * 8787 by default; 0 picks a free port (and keeps whichever port the relay already has).
   */
  port: () => number;
  launchToken: string | undefined;
  /** The extension's "Annotate this page" button (see RelayOptions.onAnnotateRequest). */
  onAnnotateRequest?: (request: { tabId: number; targetId: string }) => void;
  /** The side panel's Pause / Resume for a tab. */
  onPauseChange?: (change: { tabId: number; targetId: string; paused: boolean }) => void;
  /** The side panel's "Clear" under the inbox. */
  onInboxClear?: () => void;
  /** An extension connected (true) or its connection dropped (false). */
  onExtensionConnection?: (connected: boolean) => void;
}

export interface ExtensionStateView {
  state: 'relay_stopped' | 'waiting_for_extension' | 'waiting_for_pair_approval' | 'connected';
  relayUrl: string | null;
  connected: boolean;
  paired: boolean;
  nodeId: string | null;
  extensionVersion: string | null;
  tabs: number;
  pendingPairings: number;
  lastError: string | null;
}

/**
 * The daemon's relay for the Chrome extension. Started lazily (by `connect --extension` or `pair`),
 * not at daemon start: every workspace runs its own daemon, and they cannot all own port 8787.
 */
export class RelayHost {
  private server: RelayServer | undefined;
  /** ensure() calls run one after another: a port change closes one server and opens another. */
  private queue: Promise<unknown> = Promise.resolve();
  /** `connect --extension --relay-port N`: beats the configured port for the rest of this daemon's life. */
  private requestedPort: number | undefined;
  private closed = false;

  constructor(private readonly options: RelayHostOptions) {}

  get running(): RelayServer | undefined {
    return this.server;
  }

  /**
   * The relay on the port asked for now: `requestedPort` (a later command's `--relay-port`), else the
   * configured `relay.port` as it reads at this call (a `config set` while the daemon runs counts).
   * A running relay on another port moves there while no extension is connected to it; with one
   * connected, moving would strand it on the old URL, so the call is refused with what to do.
   */
  ensure(requestedPort?: number): Promise<RelayServer> {
    const run = this.queue.then(() => this.settle(requestedPort));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async settle(requestedPort: number | undefined): Promise<RelayServer> {
    if (this.closed)
      throw new ArgusError('browser_not_found', 'The daemon is stopping; the extension relay is closed.');
    const wanted = requestedPort ?? this.requestedPort ?? this.options.port();
    const current = this.server;
    // 0 means "any free port": whatever the relay already listens on will do
    if (current && (wanted === 0 || current.port === wanted)) {
      if (requestedPort !== undefined) this.requestedPort = requestedPort;
      return current;
    }
    if (current?.status().extensionConnected) {
      throw new ArgusError(
        'invalid_input',
        `The extension relay listens on port ${current.port} and an extension is connected to it, so it cannot move to port ${wanted} while this daemon runs. Run \`argus stop\`, then \`argus connect --extension --relay-port ${wanted}\` (or keep using ${current.url}), and enter http://127.0.0.1:${wanted} in the extension popup.`,
        { details: { port: current.port, wanted } },
      );
    }
    // open the new port first: if it is taken, the relay stays where it was
    const next = await this.start(wanted);
    if (requestedPort !== undefined) this.requestedPort = requestedPort;
    this.server = next;
    if (current) {
      this.options.log.info('relay.moved', { from: current.url, to: next.url });
      await current.close();
    }
    return next;
  }

  private async start(port: number): Promise<RelayServer> {
    const { log } = this.options;
    try {
      const server = await startRelay({
        port,
        daemonToken: this.options.daemonToken,
        ...(this.options.launchToken ? { launchToken: this.options.launchToken } : {}),
        pairingFile: join(this.options.stateDir, 'relay-pairings.json'),
        ...(this.options.onAnnotateRequest ? { onAnnotateRequest: this.options.onAnnotateRequest } : {}),
        ...(this.options.onPauseChange ? { onPauseChange: this.options.onPauseChange } : {}),
        ...(this.options.onInboxClear ? { onInboxClear: this.options.onInboxClear } : {}),
        log: (level, message, fields) => {
          if (level !== 'debug') log.log(level, 'relay', { message, ...fields });
        },
      });
      log.info('relay.started', { url: server.url });
      let connected = false;
      server.onStatus((status) => {
        if (status.extensionConnected === connected) return;
        connected = status.extensionConnected;
        // (a relay is only replaced while no extension is connected to it, so this is the live one)
        this.options.onExtensionConnection?.(connected);
      });
      return server;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') {
        const where = this.server ? ` The relay stays on ${this.server.url}.` : '';
        throw new ArgusError(
          'browser_not_found',
          `Port ${port} for the extension relay is in use (another Argus daemon?). Stop it, or pick a free port: \`argus connect --extension --relay-port <port>\` (or relay.port / ARGUS_RELAY_PORT), and point the extension at it.${where}`,
          { cause: error, details: { port } },
        );
      }
      throw error;
    }
  }

  /** Pushes a side-panel event to the connected extension, if a relay runs and one is connected. */
  notify<E extends RelayEventName>(event: E, params: RelayEventParams<E>): boolean {
    return this.server?.notify(event, params) ?? false;
  }

  /** A CDP transport over the connected extension; BrowserManager builds its Browser on it. */
  async transport(): Promise<Transport> {
    const server = await this.ensure();
    if (!server.status().extensionConnected) {
      throw new ArgusError(
        'browser_not_found',
        `No Argus extension is connected to the relay at ${server.url}. Open the extension's popup, enter this URL and press Connect; if it shows a pairing code, run \`argus pair <code>\`.`,
      );
    }
    return server.transport({ protocolError: (method, code, message) => new ProtocolError(method, code, message) });
  }

  /** Resolves once an extension is connected, or after timeoutMs (whichever first). */
  async waitForExtension(timeoutMs: number): Promise<void> {
    const server = await this.ensure();
    if (server.status().extensionConnected || timeoutMs <= 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      const off = server.onStatus((status) => {
        if (status.extensionConnected) done();
      });
      function done() {
        clearTimeout(timer);
        off();
        resolve();
      }
    });
  }

  view(): ExtensionStateView {
    const server = this.server;
    if (!server) {
      return {
        state: 'relay_stopped',
        relayUrl: null,
        connected: false,
        paired: false,
        nodeId: null,
        extensionVersion: null,
        tabs: 0,
        pendingPairings: 0,
        lastError: null,
      };
    }
    const status: RelayStatus = server.status();
    return {
      state: status.extensionConnected
        ? 'connected'
        : status.pendingPairings > 0
          ? 'waiting_for_pair_approval'
          : 'waiting_for_extension',
      relayUrl: status.url,
      connected: status.extensionConnected,
      paired: status.paired,
      nodeId: status.nodeId ?? null,
      extensionVersion: status.extensionVersion ?? null,
      tabs: status.tabs,
      pendingPairings: status.pendingPairings,
      lastError: status.lastError ?? null,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    const server = this.server;
    this.server = undefined;
    await server?.close();
  }
}
