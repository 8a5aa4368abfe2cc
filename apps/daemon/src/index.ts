export { startDaemon, VERSION, type DaemonOptions, type RunningDaemon } from './daemon.js';
