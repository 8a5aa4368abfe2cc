import { startDaemonEarly } from '@argus/client/daemon-spawn';
import { chromeForDaemon, launchBrowserNow } from '@argus/daemon/early-launch';
import { daemonEntry } from './daemon-entry.js';
import { hostsDaemonFromArgv, otherDaemonRuns } from './hosted-daemon.js';
import { prestartDaemonEnv, prestartMode } from './prestart.js';

// The stdio MCP server's process (argus-mcp), built as a CommonJS bundle
// (`dist/daemon/argus-mcp.cjs`) that `argus-mcp.js` runs with V8's code cache. By default this
// process hosts the workspace daemon (hostsDaemon): nothing is spawned here, and the daemon's
// modules load once the agent is connected (server.ts); with ARGUS_PRELAUNCH=browser, Chromium
// starts right now as an early launch the hosted daemon adopts, unless a daemon already runs (the
// server shares that one instead). With --keep-browser or ARGUS_MCP_DAEMON=process the daemon is a
// process of its own, started here before the MCP SDK and the manifest's schemas load (most of this
// process's start-up), so it is up when the agent's first call comes; the server's daemon link
// adopts it, and bad options stop it again (runMcpServer, abandonEarlyStart). The options module is
// not read here because its tool profiles load the manifest. With ARGUS_PRELAUNCH=browser, Chromium
// is launched here first and handed to that daemon, as the CLI does (chromeForDaemon); by default
// it starts without one and gets a launch cue.
const mode = prestartMode();
const argv = process.argv.slice(2);
const help = argv.some((arg) => arg === '-h' || arg === '--help');
if (help || mode === 'off') {
  // nothing to start
} else if (hostsDaemonFromArgv(argv)) {
  if (mode === 'browser' && !otherDaemonRuns()) launchBrowserNow();
} else {
  const env = { ...process.env, ...prestartDaemonEnv(mode) };
  startDaemonEarly({
    daemonEntry: daemonEntry(),
    env,
    ...(mode === 'browser' ? { handOver: () => chromeForDaemon(env) } : { launchCue: true }),
  });
}
void import('./server.js').then(({ runMcpServer }) => runMcpServer(argv));
