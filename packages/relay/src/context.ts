import type { RateLimiter } from '@argus/security';
import type { ExtensionLink } from './extension-link.js';
import type { PairingRegistry } from './pairing.js';
import type { RelayLog, RelayStatus } from './types.js';

/** What the endpoints share; built once by startRelay. */
export interface RelayContext {
  readonly link: ExtensionLink;
  readonly pairing: PairingRegistry;
  readonly daemonToken: string;
  readonly httpLimiter: RateLimiter;
  readonly pairLimiter: RateLimiter;
  readonly log: RelayLog;
  readonly relayVersion: string;
  /** Host-header check (DNS rebinding): loopback names with our port when bound to loopback. */
  hostAllowed(host: string | undefined, localPort: number | undefined): boolean;
  status(): RelayStatus;
  setLastError(message: string): void;
}

export const RELAY_VERSION = '0.1.0';
