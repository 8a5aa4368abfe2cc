import type { BrowserManager } from './browser-manager.js';
import type { Logger } from './logger.js';

/** What command handlers may use. Built once by the daemon; handlers never reach further. */
export interface Services {
  manager: BrowserManager;
  log: Logger;
  version: string;
  workspace: string;
  stateDir: string;
  logFile: string;
  startedAt: number;
  idleTimeoutMs: number;
  /** Stops the daemon after the current response is sent. */
  requestStop(): void;
}
