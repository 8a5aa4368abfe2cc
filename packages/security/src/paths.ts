import { lstatSync, readlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ArgusError } from '@argus/protocol/errors';

/**
 * Where a caller may read and write files. Every path a command takes goes through one policy:
 * relative paths resolve against the caller's directory, `~` is the home directory, symlinks are
 * resolved all the way (dangling ones too) before the check, and the daemon's state dir (its token,
 * saved cookies, log) is refused even when it lies inside an allowed root.
 */
export interface PathPolicy {
  /** The caller's current directory: relative paths resolve against it. */
  cwd: string;
  /** Areas inside which paths are allowed (the caller's project, the temp dir, operator roots). */
  roots: readonly string[];
  /** Areas refused even inside a root (the daemon's state dir). */
  denied?: readonly string[];
  /** Parts of a denied area that stay usable (the state dir's captures and downloads). */
  reopened?: readonly string[];
  /** For `~`; default: os.homedir(). */
  home?: string;
}

/** How many symlinks one resolution may follow (the kernel's own limit is 40). */
const MAX_LINKS = 40;

/** Expands `~` / `~/…` and resolves a relative path against `cwd`; never touches the disk. */
export function expandPath(path: string, cwd: string, home: string = homedir()): string {
  if (path.includes('\0')) throw new ArgusError('invalid_input', 'A path cannot contain a NUL byte.');
  if (path === '~') return resolve(home);
  if (path.startsWith('~/')) return resolve(home, path.slice(2));
  return resolve(cwd, path);
}

/**
 * The path a file operation would really reach: every existing component is looked at with lstat
 * and symlinks are followed by hand, dangling ones included (realpath gives up on those, which is
 * how `ln -s /outside/x.png d` used to slip through). Components that do not exist yet are kept as
 * written.
 */
export function resolveReal(path: string): string {
  let done: string = sep;
  let pending = resolve(path).split(sep).filter(Boolean);
  let links = 0;
  while (pending.length > 0) {
    const part = pending.shift() as string;
    if (part === '.') continue;
    if (part === '..') {
      done = dirname(done);
      continue;
    }
    const next = join(done, part);
    let isLink: boolean;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch {
      // nothing there (or not a directory): the rest cannot be a link yet
      return resolve(next, ...pending);
    }
    if (!isLink) {
      done = next;
      continue;
    }
    if (++links > MAX_LINKS)
      throw new ArgusError('path_forbidden', `${path} goes through more than ${MAX_LINKS} symbolic links.`);
    const target = readlinkSync(next);
    if (isAbsolute(target)) done = sep;
    pending = [...target.split(sep).filter(Boolean), ...pending];
  }
  return done;
}

export function isInside(child: string, root: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** Why a resolved path is refused, or undefined when the policy allows it. */
export function pathRefusal(real: string, policy: PathPolicy): string | undefined {
  const roots = policy.roots.map((root) => resolveReal(root));
  if (!roots.some((root) => isInside(real, root))) return `outside the allowed area (${outermost(roots).join(', ')})`;
  const denied = (policy.denied ?? []).map((area) => resolveReal(area)).find((area) => isInside(real, area));
  if (denied !== undefined && !(policy.reopened ?? []).some((area) => isInside(real, resolveReal(area)))) {
    return `inside the daemon's state dir (${denied}), which holds its token and saved sessions`;
  }
  return undefined;
}

/** Each area once: a root equal to, or inside, another (a project in the temp dir) adds nothing to say. */
function outermost(roots: readonly string[]): string[] {
  return roots.filter(
    (root, index) => !roots.some((other, at) => (other === root ? at < index : isInside(root, other))),
  );
}

/**
 * Resolves a caller's path (relative to its directory, `~` expanded, symlinks followed) and refuses
 * anything outside the policy with `path_forbidden`. Returns the resolved real path: callers use
 * that, never the path as given, so a link swapped in later is not followed by the operation.
 */
export function confinePath(path: string, policy: PathPolicy): string {
  const absolute = expandPath(path, policy.cwd, policy.home);
  const real = resolveReal(absolute);
  const refusal = pathRefusal(real, policy);
  if (refusal === undefined) return real;
  throw new ArgusError(
    'path_forbidden',
    `Path ${path} (resolved to ${real}) is ${refusal}. Use a path inside your project or the temp dir; an operator can allow more with ARGUS_ALLOWED_ROOTS.`,
    { details: { path: absolute, resolved: real } },
  );
}

/** The default allowed area: the caller's project, the temp dir and operator roots. */
export function defaultRoots(project: string, extraRoots: readonly string[] = []): string[] {
  return [project, tmpdir(), ...extraRoots];
}

/** `ARGUS_ALLOWED_ROOTS`: directories separated by `:` (`;` on Windows), `~` expanded. */
export function parseRoots(value: string | undefined, home: string = homedir()): string[] {
  if (!value) return [];
  const delimiter = process.platform === 'win32' ? ';' : ':';
  return value
    .split(delimiter)
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => expandPath(entry, home, home));
}

/** A directory's project: the nearest ancestor holding `.git` (the git top-level), else the directory itself. */
export function projectRoot(cwd: string): string {
  let dir = resolve(cwd);
  for (;;) {
    try {
      lstatSync(join(dir, '.git'));
      return dir;
    } catch {
      const parent = dirname(dir);
      if (parent === dir) return resolve(cwd);
      dir = parent;
    }
  }
}
