#!/usr/bin/env node
import { startDaemonEarly } from '@argus/client/daemon-spawn';
import { chromeForDaemon } from '@argus/daemon/early-launch';
import { daemonEntry } from './daemon-entry.js';
import { prestartDaemonEnv, prestartMode } from './prestart.js';

// The daemon starts before the MCP SDK and the manifest's schemas load (most of this process's own
// start-up), so it is up when the agent's first call comes; the server's daemon link adopts it.
// Bad options stop it again (runMcpServer, abandonEarlyStart); the options module is not read here
// because its tool profiles load the manifest. With ARGUS_PRELAUNCH=browser, Chromium is launched here
// first and handed to the daemon, as the CLI does (chromeForDaemon); by default the daemon starts
// without it and gets a launch cue, for an agent whose first browser call comes while it still loads.
const mode = prestartMode();
if (mode !== 'off' && !process.argv.slice(2).some((arg) => arg === '-h' || arg === '--help')) {
  const env = { ...process.env, ...prestartDaemonEnv(mode) };
  startDaemonEarly({
    daemonEntry: daemonEntry(),
    env,
    ...(mode === 'browser' ? { handOver: () => chromeForDaemon(env) } : { launchCue: true }),
  });
}
const { runMcpServer } = await import('./server.js');
void runMcpServer(process.argv.slice(2));
