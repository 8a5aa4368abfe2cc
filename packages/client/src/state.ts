import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { projectRoot } from '@argus/security/paths';
import { type DaemonState, STATE_FILE, isZombie } from '@argus/protocol/daemon-state';
import { quickStateDir } from '@argus/protocol/config-files';

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

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}
