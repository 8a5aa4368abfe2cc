import type { Scope } from '@argus/protocol';
import type { Access } from './access.js';
import type { BrowserManager } from './browser-manager.js';
import type { CallerLog } from './caller-log.js';
import type { Dispatch } from './dispatch.js';
import type { Logger } from './logger.js';
import type { RelayHost } from './relay-host.js';
import type { ShareStore } from './share-store.js';
import type { Tunnel } from './tunnel-server.js';
import type { ApprovalQueue } from './policy/approvals.js';
import type { ConfigStore } from './policy/config-store.js';
import type { WebProviders } from './web-providers.js';
import type { Journal } from './journal/journal.js';
import type { ProfileStore } from './profile-store.js';
import type { WatchService } from './watch/watch-service.js';
import type { HandoffService } from './handoff/handoff-service.js';
import type { LocateTab } from './journal/journal.js';
import type { SkillRecorder } from './skills/skill-recorder.js';
import type { SkillStore } from './skills/skill-store.js';
import type { InboxStore } from './inbox/inbox-store.js';
import type { CanvasSync } from './canvas-sync.js';

/** What command handlers may use. Built once by the daemon; handlers never reach further. */
export interface Services {
  manager: BrowserManager;
  /** The extension relay (started lazily). */
  relay: RelayHost;
  log: Logger;
  version: string;
  workspace: string;
  stateDir: string;
  /** Which files and URLs each caller may reach (paths relative to the caller, the allowed area, file: policy). */
  access: Access;
  logFile: string;
  startedAt: number;
  idleTimeoutMs: number;
  /** Bearer tokens the server accepts and the scopes each grants (root token: admin). */
  tokens: Map<string, readonly Scope[]>;
  /** Shared tokens (`argus share`), hashed in <state dir>/shares.json; served only by the tunnel. */
  shares: ShareStore;
  /** The tunnel listener for remote agents (opened by `argus share`, or at start when live shares exist). */
  tunnel: Tunnel;
  /** The layered configuration (files re-read when they change; policy keys apply at once). */
  config: ConfigStore;
  /** Commands and form submits waiting for the operator. */
  approvals: ApprovalQueue;
  /** Runs a command through the router (same validation and scope checks as a request): batch, chain, tab-each. */
  dispatch: Dispatch;
  /** Fetch (and later crawl, search, research) without a tab: packages/providers composed with the browser. */
  web: WebProviders;
  /** Which clients used the daemon lately (daemon.stop with ifAlone). */
  callers: CallerLog;
  /** The command journal (<state dir>/journal.db): written from the router's observe seam. */
  journal: Journal;
  /** Persistent browser profiles (<state dir>/profiles). */
  profiles: ProfileStore;
  /** Live watch links, the shared screencasts and recordings of tabs. */
  watch: WatchService;
  /** Browser skills: the files of each tier, the recordings per session, where a caller's tab is. */
  skills: { store: SkillStore; recorder: SkillRecorder; locate: LocateTab };
  /** The agent inbox (<state dir>/inbox.json): annotations the person sent. */
  inbox: InboxStore;
  /** Several clients on a design document: edit leases and the Yjs update feed. */
  canvasSync: CanvasSync;
  /** The tab handed to a person (`argus handoff`), if any. */
  handoff: HandoffService;
  /** Stops the daemon after the current response is sent. */
  requestStop(): void;
  /**
   * Its starter (an agent's MCP server) left while others use it: from now on any agent's server
   * that leaves asks it to stop when alone (the state file says agentsOwn).
   */
  leftToAgents(): void;
}
