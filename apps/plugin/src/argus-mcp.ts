#!/usr/bin/env node
import { startDaemonEarly } from '@argus/client/daemon-spawn';
import { daemonEntry } from './daemon-entry.js';
import { prestartDaemonEnv, prestartMode } from './prestart.js';

// The daemon starts before the MCP SDK and the manifest's schemas load (most of this process's own
// start-up), so it is up when the agent's first call comes; the server's daemon link adopts it.
// Bad options stop it again (runMcpServer, abandonEarlyStart); the options module is not read here
// because its tool profiles load the manifest.
const mode = prestartMode();
if (mode !== 'off' && !process.argv.slice(2).some((arg) => arg === '-h' || arg === '--help'))
  startDaemonEarly({ daemonEntry: daemonEntry(), env: { ...process.env, ...prestartDaemonEnv(mode) } });
const { runMcpServer } = await import('./server.js');
void runMcpServer(process.argv.slice(2));
