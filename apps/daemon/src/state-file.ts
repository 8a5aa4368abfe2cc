import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DaemonState, STATE_FILE } from '@argus/protocol/daemon-state';
import { makeDirs } from '@argus/protocol/make-dirs';

/** Creates the state dir (0700) with a .gitignore so nothing in it is ever committed. */
export function prepareStateDir(dir: string): void {
  makeDirs(dir, 0o700);
  chmodSync(dir, 0o700);
  const ignore = join(dir, '.gitignore');
  if (!existsSync(ignore)) writeFileSync(ignore, '*\n', { mode: 0o600 });
}

/** Writes the state file atomically with mode 0600 (never world- or group-readable, even briefly). */
export function writeStateFile(dir: string, record: DaemonState): string {
  const path = join(dir, STATE_FILE);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, path);
  return path;
}

/** Rewrites this daemon's state file with the stopping marker (another daemon's file is left alone). */
export function markStateFileStopping(dir: string, record: DaemonState): void {
  if (ownerOf(dir) !== record.pid) return;
  writeStateFile(dir, { ...record, stopping: true });
}

function ownerOf(dir: string): number | undefined {
  try {
    return (JSON.parse(readFileSync(join(dir, STATE_FILE), 'utf8')) as { pid?: number }).pid;
  } catch {
    return undefined;
  }
}

export function removeStateFile(dir: string, pid: number): void {
  const path = join(dir, STATE_FILE);
  try {
    const current = JSON.parse(readFileSync(path, 'utf8')) as { pid?: number };
    if (current.pid !== pid) return; // another daemon took over: leave its file alone
  } catch {
    return;
  }
  rmSync(path, { force: true });
}
