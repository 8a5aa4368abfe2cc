import { resolve } from 'node:path';
import { AGENTS_OWN_ENV, DAEMON_READY_LINE } from '@argus/protocol/daemon-state';
import { startDaemon } from './daemon.js';
import { daemonWorkspace, endLaunchCue, prelaunchWanted } from './early-launch.js';
import type { McpHttpEndpoint } from './tunnel-server.js';

export interface DaemonProcessOptions {
  /** MCP over Streamable HTTP on the tunnel listener; the plugin's daemon entry provides it. */
  mcp?: McpHttpEndpoint;
}

/**
 * Runs this process as the daemon (started detached by clients): state dir from the environment,
 * signals, the ready line on stdout, exit when stopped.
 */
export async function runDaemonProcess(options: DaemonProcessOptions = {}): Promise<void> {
  try {
    const stateDir = resolve(process.env.ARGUS_STATE_DIR ?? resolve(process.cwd(), '.argus'));
    // ARGUS_STATE_DIR only moves the state: the workspace is the project the daemon was started in
    const workspace = daemonWorkspace();
    // a client starts this process for a command that will want the browser: launch it meanwhile
    // (the entry may have started it already: launchBrowserEarly), or was cued to while loading. A
    // cue that came while the modules were evaluated (one synchronous stretch) waits in its socket:
    // one turn of the event loop reads it, before the cue is closed.
    await new Promise((resolve) => setImmediate(resolve));
    const prelaunch = endLaunchCue() || prelaunchWanted();
    const agentsOwn = process.env[AGENTS_OWN_ENV] === '1';
    // not inherited by the browser, nor by a daemon this one's restart starts
    delete process.env[AGENTS_OWN_ENV];
    const daemon = await startDaemon({
      stateDir,
      workspace,
      prelaunch,
      agentsOwn,
      ...(options.mcp ? { mcp: options.mcp } : {}),
    });
    const shutdown = (signal: string) => void daemon.stop(signal);
    process.on('SIGTERM', () => shutdown('SIGTERM'));
    process.on('SIGINT', () => shutdown('SIGINT'));
    process.on('SIGHUP', () => shutdown('SIGHUP'));
    // the client that started the daemon closes its ends of stdout and stderr once it is ready:
    // a later write (a Node warning) fails with EPIPE, which is nothing to report; warnings go to the log
    for (const stream of [process.stdout, process.stderr])
      stream.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EPIPE') daemon.services.log.error('stdio_error', { message: error.message });
      });
    process.on('warning', (warning) =>
      daemon.services.log.warn('node_warning', { name: warning.name, message: warning.message }),
    );
    process.on('uncaughtException', (error) => {
      daemon.services.log.error('uncaught_exception', { message: error.message, stack: error.stack });
    });
    process.on('unhandledRejection', (reason) => {
      daemon.services.log.error('unhandled_rejection', { message: String((reason as Error)?.message ?? reason) });
    });
    process.stdout.write(`${DAEMON_READY_LINE} port=${daemon.port} pid=${process.pid}\n`);
    await daemon.stopped;
    process.exit(0);
  } catch (error) {
    process.stderr.write(`argus-daemon failed to start: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  }
}
