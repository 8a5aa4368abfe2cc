import type { Transport } from '@argus/cdp';
import type { PendingPairing } from './pairing.js';
import type { RelayTransportOptions } from './relay-transport.js';
import type { RelayEventName, RelayEventParams } from './wire/index.js';

export type RelayLog = (
  level: 'debug' | 'info' | 'warn' | 'error',
  message: string,
  fields?: Record<string, unknown>,
) => void;

export interface RelayOptions {
  /** Loopback only by default; binding elsewhere exposes the relay to the network. */
  host?: string;
  /** 8787 by default; 0 picks a free port. */
  port?: number;
  /** Bearer token /ops and /cdp clients must present (the daemon's token). */
  daemonToken: string;
  /** Per-launch token: an extension presenting it to /pair is approved without operator action. */
  launchToken?: string;
  /** Where pairing-token hashes are persisted (mode 0600). Without it pairings live in memory only. */
  pairingFile?: string;
  /** Default deadline for one command sent to the extension (30 s). */
  commandTimeoutMs?: number;
  /**
   * How long commands in flight wait for a dropped extension to come back (10 s): a reconnect within
   * it re-sends them with the same key; after it they fail with `browser_not_found`.
   */
  reconnectGraceMs?: number;
  log?: RelayLog;
  /** The person asked to annotate a tab from the extension (its popup button); no command waits for it. */
  onAnnotateRequest?: (request: { tabId: number; targetId: string }) => void;
  /** The person paused or resumed the agent on a tab (side panel). */
  onPauseChange?: (change: { tabId: number; targetId: string; paused: boolean }) => void;
  /** The person pressed "Clear" under the inbox in the side panel. */
  onInboxClear?: () => void;
}

export interface RelayStatus {
  url: string;
  extensionConnected: boolean;
  /** At least one extension node holds a pairing token. */
  paired: boolean;
  nodeId: string | undefined;
  extensionVersion: string | undefined;
  wireVersion: number;
  relayVersion: string;
  tabs: number;
  pendingPairings: number;
  lastError: string | undefined;
}

export interface RelayServer {
  /** `http://host:port` of the relay. */
  readonly url: string;
  readonly port: number;
  status(): RelayStatus;
  /**
   * A CDP Transport over the connected extension (root-session Target.* emulated with tabs). Sends
   * fail with ArgusError('browser_not_found') while no extension is connected.
   */
  transport(options?: RelayTransportOptions): Transport;
  onStatus(listener: (status: RelayStatus) => void): () => void;
  /** Pushes a side-panel event to the connected extension; false (dropped) when none is connected. */
  notify<E extends RelayEventName>(event: E, params: RelayEventParams<E>): boolean;
  /** Approves a pending pairing request by the code the extension shows. */
  approvePairing(code: string): boolean;
  pendingPairings(): PendingPairing[];
  close(): Promise<void>;
}
