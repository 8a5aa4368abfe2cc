import { chmodSync, existsSync, readdirSync, readlinkSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import { join } from 'node:path';
import { ArgusError } from '@argus/protocol';
import { makeDirs } from '@argus/protocol/make-dirs';

/** What `ProfileName` in the manifest allows: also a safe directory name (no `/`, no `..`). */
const NAME = /^[A-Za-z0-9][\w.-]{0,63}$/;
/** Touched at each launch with the profile: its mtime is "last used". */
const STAMP = '.argus-last-used';

function sizeOf(dir: string): number {
  let total = 0;
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    // links are not followed: Chrome's SingletonLock is a symlink to nowhere
    if (entry.isDirectory()) total += sizeOf(path);
    else if (entry.isFile()) total += statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  }
  return total;
}

/**
 * Persistent browser profiles: `<state dir>/profiles/<name>` (0700), a Chrome user-data dir that is
 * kept between launches, so logins (cookies, storage) survive daemon restarts. The default launch
 * still uses a fresh temporary profile.
 */
export class ProfileStore {
  readonly dir: string;

  constructor(
    stateDir: string,
    /** The profile the daemon's browser runs with (from `chrome.profile` / ARGUS_PROFILE / --profile). */
    readonly current: string | undefined,
  ) {
    this.dir = join(stateDir, 'profiles');
  }

  static checkName(name: string): string {
    if (!NAME.test(name))
      throw new ArgusError(
        'invalid_input',
        `"${name.slice(0, 80)}" is not a profile name: use letters, digits, ".", "_" and "-", starting with a letter or digit.`,
      );
    return name;
  }

  /** The user-data dir of `name`, created 0700 (and made 0700 if it was not), stamped as used now. */
  prepare(name: string): string {
    const path = join(this.dir, ProfileStore.checkName(name));
    makeDirs(path, 0o700);
    chmodSync(this.dir, 0o700);
    chmodSync(path, 0o700);
    const stamp = join(path, STAMP);
    if (existsSync(stamp)) {
      const now = new Date();
      utimesSync(stamp, now, now);
    } else writeFileSync(stamp, '', { mode: 0o600 });
    return path;
  }

  list(): Array<{ name: string; path: string; bytes: number; lastUsed: string | null; inUse: boolean }> {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && NAME.test(entry.name))
      .map((entry) => {
        const path = join(this.dir, entry.name);
        const stamp = statSync(join(path, STAMP), { throwIfNoEntry: false });
        return {
          name: entry.name,
          path,
          bytes: sizeOf(path),
          lastUsed: stamp ? stamp.mtime.toISOString() : null,
          inUse: entry.name === this.current,
        };
      })
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Deletes a profile; refused for the one this daemon's browser runs with. */
  remove(name: string): { removed: string; bytes: number } {
    const path = join(this.dir, ProfileStore.checkName(name));
    if (!existsSync(path))
      throw new ArgusError('profile_not_found', `No profile "${name}" in ${this.dir}. \`argus profiles\` lists them.`);
    if (name === this.current)
      throw new ArgusError(
        'profile_in_use',
        `Profile "${name}" is in use by this daemon's browser. Run \`argus stop\`, then \`argus profile rm ${name}\` (a daemon started without --profile).`,
      );
    const holder = lockHolder(path);
    if (holder !== undefined)
      throw new ArgusError(
        'profile_in_use',
        `Profile "${name}" is in use by a running browser (pid ${holder}). Stop the daemon or browser using it first.`,
      );
    const bytes = sizeOf(path);
    rmSync(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    return { removed: name, bytes };
  }
}

/**
 * The pid of a live Chrome holding the profile: its SingletonLock is a symlink to `<host>-<pid>`
 * (left behind by a crash, it names a dead pid and does not count).
 */
function lockHolder(path: string): number | undefined {
  let target: string;
  try {
    target = readlinkSync(join(path, 'SingletonLock'));
  } catch {
    return undefined;
  }
  const pid = Number(/-(\d+)$/.exec(target)?.[1]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}
