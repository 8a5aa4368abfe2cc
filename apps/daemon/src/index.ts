export { startDaemon, VERSION, type DaemonOptions, type RunningDaemon } from './daemon.js';
export { runDaemonProcess, type DaemonProcessOptions } from './process.js';
export type { McpHttpEndpoint, TunnelSession } from './tunnel-server.js';
