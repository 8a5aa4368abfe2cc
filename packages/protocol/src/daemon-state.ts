import { readFileSync } from 'node:fs';

/**
 * How clients find the daemon: the state file it writes (mode 0600) in the workspace's state dir,
 * and the line it prints on stdout once it serves. Shared by the daemon (writer) and the client
 * (reader); a lean entry (`@argus/protocol/daemon-state`) with no zod.
 */
export interface DaemonState {
  port: number;
  pid: number;
  token: string;
  version: string;
  workspace: string;
  startedAt: string;
  /** The persistent profile its browser uses (`--profile`); null or absent: a fresh temporary one. */
  profile?: string | null;
  /**
   * The agent whose MCP server started this daemon has gone while other clients used it (a hosted
   * daemon's hand-over, or a declined `daemon.stop {ifAlone}`): every agent's server that leaves now
   * asks it to stop when nobody else uses it, as its starter would have. Absent: its starter (the
   * CLI, a user, or an agent still here) decides.
   */
  agentsOwn?: boolean;
  /**
   * The daemon is stopping: it still holds its browser, profile and state dir until its process
   * exits (the file goes last). A client waits for that exit, then starts a new daemon; it never
   * starts one beside it.
   */
  stopping?: boolean;
}

/** Set (to `1`) in the environment of a daemon process started for agents (ARGUS_DAEMON_AGENTS): its state says agentsOwn. */
export const AGENTS_OWN_ENV = 'ARGUS_DAEMON_AGENTS';

export const STATE_FILE = 'daemon.json';

/** First words of the line the daemon prints when it is ready; a started client waits for it. */
export const DAEMON_READY_LINE = 'argus-daemon ready';

/**
 * A daemon started without Chromium may get a launch cue: descriptor LAUNCH_CUE_FD, named to it in
 * LAUNCH_CUE_ENV, on which its starter writes one byte when a browser command is coming while the
 * daemon still loads (cueBrowserLaunch in @argus/client/daemon-spawn, listenForLaunchCue in
 * @argus/daemon/early-launch).
 */
export const LAUNCH_CUE_ENV = 'ARGUS_LAUNCH_CUE';
export const LAUNCH_CUE_FD = 3;

/**
 * Whether a process has exited and waits to be reaped (a zombie, state Z in /proc): it still
 * answers signal 0, and an init that reaps late (a container's, or a daemon reparented once its
 * starter has gone) kept waits for it seconds after it had exited. Linux only; elsewhere false.
 */
export function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // `pid (comm) S ...`: the state follows the last `)` (comm may hold one)
    return stat.charAt(stat.lastIndexOf(')') + 2) === 'Z';
  } catch {
    return false;
  }
}
