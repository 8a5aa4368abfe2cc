export { startRelay } from './server.js';
export type { RelayLog, RelayOptions, RelayServer, RelayStatus } from './types.js';
export type { RelayTransportOptions } from './relay-transport.js';
export type { PendingPairing } from './pairing.js';
export * from './wire/index.js';
