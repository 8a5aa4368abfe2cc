import type { CommandFrame, ResultFrame } from '@argus/relay/wire';

/**
 * Messages between the service worker (which owns chrome.debugger and storage) and the offscreen
 * document (which owns the relay WebSocket), over one long-lived runtime port.
 */
export const RELAY_PORT = 'argus-relay';

export interface RelayConfig {
  enabled: boolean;
  /** http(s) base URL of the relay, e.g. http://127.0.0.1:8787 */
  relayUrl: string | undefined;
  nodeId: string;
  pairingToken: string | undefined;
  launchToken: string | undefined;
  extensionVersion: string;
}

export type NodeState =
  | 'disabled'
  | 'needs_relay_url'
  | 'pairing'
  | 'waiting_for_pair_approval'
  | 'connecting'
  | 'authenticated_connected'
  | 'reconnecting'
  | 'error';

export interface NodeStatus {
  state: NodeState;
  relayUrl?: string | undefined;
  pairingCode?: string | undefined;
  lastError?: string | undefined;
  retryInMs?: number | undefined;
  since: number;
}

export type ToOffscreen =
  | { type: 'config'; config: RelayConfig }
  | { type: 'result'; frame: ResultFrame }
  | { type: 'event'; event: string; params: unknown }
  /** The worker detached these sessions while no relay could hear it: the next hello names them. */
  | { type: 'sessions-ended'; sessionIds: string[]; reason: string };

export type ToWorker =
  | { type: 'command'; frame: CommandFrame }
  | { type: 'status'; status: NodeStatus }
  | { type: 'paired'; pairingToken: string }
  | { type: 'unpaired' }
  | { type: 'keepalive' }
  /** An event the relay pushed (RELAY_EVENTS: the side panel's feed and inbox); the worker validates it. */
  | { type: 'relay-event'; event: string; params: unknown };

/** Keys in chrome.storage.local (configuration) and chrome.storage.session (runtime state). */
export const LOCAL_KEYS = {
  relayUrl: 'relayUrl',
  launchToken: 'launchToken',
  enabled: 'enabled',
  nodeId: 'nodeId',
  pairingToken: 'pairingToken',
} as const;
export const SESSION_KEYS = {
  status: 'status',
  sessions: 'debuggerSessions',
  agentTabs: 'agentTabs',
  /** tab id -> target id of the tabs the person paused the agent on (side panel) */
  paused: 'pausedTabs',
  /** PanelFeedEntry[]: the agent's last commands on the user's tabs, newest first (side panel) */
  feed: 'panelFeed',
  /** RelayEventParams<'panel.inbox'>: the unread inbox as the daemon last sent it (side panel) */
  inbox: 'panelInbox',
} as const;

/** Commands kept for the side panel's feed. */
export const FEED_KEEP = 100;
