import { join } from 'node:path';
import type { Transport } from '@argus/cdp';
import { ProtocolError } from '@argus/cdp';
import { ArgusError } from '@argus/protocol';
import { type RelayServer, type RelayStatus, startRelay } from '@argus/relay';
import type { Logger } from './logger.js';

export interface RelayHostOptions {
  log: Logger;
  /** The daemon's root token: /ops and /cdp clients of the relay present it. */
  daemonToken: string;
  stateDir: string;
  /** 8787 by default; 0 picks a free port (kept across restarts of the relay within one daemon). */
  port: number;
  launchToken: string | undefined;
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
  private starting: Promise<RelayServer> | undefined;
  private closed = false;

  constructor(private readonly options: RelayHostOptions) {}

  get running(): RelayServer | undefined {
    return this.server;
  }

  async ensure(): Promise<RelayServer> {
    if (this.closed) throw new ArgusError('browser_not_found', 'The daemon is stopping; the extension relay is closed.');
    if (this.server) return this.server;
    this.starting ??= this.start().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async start(): Promise<RelayServer> {
    const { log, port } = this.options;
    try {
      const server = await startRelay({
        port,
        daemonToken: this.options.daemonToken,
        ...(this.options.launchToken ? { launchToken: this.options.launchToken } : {}),
        pairingFile: join(this.options.stateDir, 'relay-pairings.json'),
        log: (level, message, fields) => {
          if (level !== 'debug') log.log(level, 'relay', { message, ...fields });
        },
      });
      this.server = server;
      log.info('relay.started', { url: server.url });
      return server;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') {
        throw new ArgusError('browser_not_found', `Port ${port} for the extension relay is in use (another Argus daemon?). Stop it, or set ARGUS_RELAY_PORT to a free port and point the extension at it.`, { cause: error });
      }
      throw error;
    }
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
      return { state: 'relay_stopped', relayUrl: null, connected: false, paired: false, nodeId: null, extensionVersion: null, tabs: 0, pendingPairings: 0, lastError: null };
    }
    const status: RelayStatus = server.status();
    return {
      state: status.extensionConnected ? 'connected' : status.pendingPairings > 0 ? 'waiting_for_pair_approval' : 'waiting_for_extension',
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
    const server = this.server ?? (await this.starting?.catch(() => undefined));
    this.server = undefined;
    await server?.close();
  }
}
