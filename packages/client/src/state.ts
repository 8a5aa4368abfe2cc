import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { projectRoot } from '@argus/security/paths';
import { type DaemonState, STATE_FILE, isZombie } from '@argus/protocol/daemon-state';
import { quickStateDir } from '@argus/protocol/config-files';
import { ArgusError } from '@argus/protocol/errors';

export type { DaemonState } from '@argus/protocol/daemon-state';
export { STATE_FILE } from '@argus/protocol/daemon-state';

/** The workspace: the git top-level of cwd (the nearest `.git`), else cwd itself. One definition, in @argus/security. */
export function findWorkspace(cwd: string = process.cwd()): string {
  return projectRoot(cwd);
}

/**
 * The per-workspace state dir: `ARGUS_STATE_DIR`, else `stateDir` from the project or user config
 * file (relative to the workspace, `~` expanded), else `<workspace>/.argus`.
 */
export function stateDirFor(cwd: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): string {
  const override = env.ARGUS_STATE_DIR?.trim();
  if (override) return resolve(override);
  const workspace = findWorkspace(cwd);
  const fromFile = quickStateDir(workspace, env);
  if (!fromFile) return join(workspace, '.argus');
  return resolve(workspace, fromFile.startsWith('~/') ? join(env.HOME || homedir(), fromFile.slice(2)) : fromFile);
}

export function readState(stateDir: string): DaemonState | undefined {
  try {
    const parsed = JSON.parse(readFileSync(join(stateDir, STATE_FILE), 'utf8')) as Partial<DaemonState>;
    if (typeof parsed.port !== 'number' || typeof parsed.token !== 'string' || typeof parsed.pid !== 'number')
      return undefined;
    return parsed as DaemonState;
  } catch {
    return undefined;
  }
}

/**
 * Resolves true once the process has exited, false if it is still alive after `timeoutMs`. Another
 * process's exit gives no event to wait on, so this checks every 25 ms (bounded).
 */
export async function waitForExit(pid: number, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isProcessAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

/** How long a client waits for a stopping daemon to exit before it gives up (its browser closes first). */
export const STOPPING_WAIT_MS = 20_000;

/**
 * The state file once no daemon is stopping in `stateDir`: a daemon whose file says `stopping` still
 * holds its browser, profile and state dir, so a client waits for its process to exit (bounded) rather
 * than start a second daemon beside it. Resolves with the state file then (absent, or a daemon another
 * client started meanwhile); a daemon still stopping after `timeoutMs` is daemon_unreachable.
 */
export async function afterStoppingDaemon(
  stateDir: string,
  timeoutMs = STOPPING_WAIT_MS,
): Promise<DaemonState | undefined> {
  const state = readState(stateDir);
  if (!state?.stopping || !isProcessAlive(state.pid)) return state;
  if (!(await waitForExit(state.pid, timeoutMs)))
    throw new ArgusError(
      'daemon_unreachable',
      `The Argus daemon (pid ${state.pid}, state dir ${stateDir}) is stopping and has not exited within ${Math.round(timeoutMs / 1000)} s. Run the command again once it has; if it hangs, end it with \`kill ${state.pid}\`.`,
      { details: { pid: state.pid, stateDir } },
    );
  return readState(stateDir);
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}
