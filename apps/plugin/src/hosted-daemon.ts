import { isProcessAlive, readState, stateDirFor } from '@argus/client/daemon-spawn';
import type { RunningDaemon } from '@argus/daemon';
import { daemonWorkspace, launchBrowserNow } from '@argus/daemon/early-launch';
import { YES } from './flag-values.js';

/**
 * Whether argus-mcp runs the workspace daemon inside its own process when none runs: the default.
 * Each tool call then goes to the daemon's router directly instead of over a WebSocket to another
 * process (measured on the small form page: ~1.2 ms less per snapshot or eval, a fifth to a third of
 * the call, and one Node process less). Not with --keep-browser, whose daemon must outlive this
 * process, nor with ARGUS_MCP_DAEMON=process (the daemon in a process of its own, as the CLI starts it).
 */
export function hostsDaemon(keepBrowser: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  return !keepBrowser && env.ARGUS_MCP_DAEMON?.trim() !== 'process';
}

/** The same decision from raw arguments, for argus-mcp's entry (before its options module loads). */
export function hostsDaemonFromArgv(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): boolean {
  const keep = argv.includes('--keep-browser') || YES.test(env.ARGUS_MCP_KEEP_BROWSER?.trim() ?? '');
  return hostsDaemon(keep, env);
}

/** Whether a daemon of another process runs for the workspace of `stateDir` (then it is shared, not hosted). */
export function otherDaemonRuns(stateDir: string = stateDirFor()): boolean {
  const state = readState(stateDir);
  return state !== undefined && state.pid !== process.pid && isProcessAlive(state.pid);
}

/**
 * The workspace daemon in this process. Its port, token and state file are a daemon's like any
 * other, so the CLI, the extension and other agents reach it as usual; this process's own calls go
 * to its router (RunningDaemon.call). It starts when first wanted and again after it stopped (idle,
 * `argus stop`). The daemon's modules load on the first start, not with the MCP server's.
 */
export class HostedDaemon {
  private running: Promise<RunningDaemon> | undefined;
  private up = false;
  private cued = false;

  /** The workspace's state dir: where the daemon writes its state file, and another one's is found. */
  readonly stateDir: string;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly cwd: string,
  ) {
    this.stateDir = stateDirFor(cwd, env);
  }

  /** Whether a daemon of another process runs for the workspace (then it is shared, not hosted). */
  otherRunning(): boolean {
    return otherDaemonRuns(this.stateDir);
  }

  /** The daemon, started now when none runs here (`prelaunch`: Chromium at once). */
  start(prelaunch: boolean): Promise<RunningDaemon> {
    if (this.running) return this.running;
    const { stateDir } = this;
    // a daemon that launches its browser at once (adopting the entry's early one) needs no cue
    if (prelaunch) this.cued = true;
    const starting = (async () => {
      const { startDaemon } = await import('@argus/daemon');
      const workspace = daemonWorkspace(this.env, this.cwd);
      const daemon = await startDaemon({ stateDir, workspace, env: this.env, prelaunch: this.cued });
      this.up = true;
      void daemon.stopped.then(() => {
        if (this.running !== starting) return;
        this.running = undefined;
        this.up = false;
        this.cued = false;
      });
      return daemon;
    })();
    starting.catch(() => {
      if (this.running === starting) this.running = undefined;
    });
    this.running = starting;
    return starting;
  }

  /**
   * A browser command is coming: while the daemon is not up yet (its modules still load), Chromium
   * is launched now, as an early launch its first command adopts, as a launch cue does for a daemon
   * process. Once it is up, its commands launch the browser themselves.
   */
  cue(): void {
    // a daemon of another process is shared: its commands launch its browser
    if (this.up || this.cued || (!this.running && this.otherRunning())) return;
    this.cued = true;
    launchBrowserNow(this.env);
  }
}
