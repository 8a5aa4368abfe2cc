import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { ArgusError } from '@argus/protocol/errors';

function realish(path: string): string {
  // resolve symlinks of the longest existing prefix, so a link cannot smuggle a path outside
  let current = path;
  const rest: string[] = [];
  for (;;) {
    try {
      return resolve(realpathSync(current), ...rest.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      rest.push(current.slice(parent.length + 1));
      current = parent;
    }
  }
}

function inside(child: string, root: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Resolves a user-supplied path against the workspace and refuses anything outside the allowed
 * roots (the workspace and the temp dir by default) with `path_forbidden`.
 */
export function confinePath(path: string, options: { workspace: string; extraRoots?: readonly string[] }): string {
  const absolute = resolve(options.workspace, path);
  const real = realish(absolute);
  const roots = [options.workspace, tmpdir(), ...(options.extraRoots ?? [])].map((root) => realish(resolve(root)));
  if (roots.some((root) => inside(real, root))) return absolute;
  throw new ArgusError('path_forbidden', `Path ${path} is outside the workspace (${options.workspace}) and the temp dir. Write inside the workspace, or use a relative path.`, {
    details: { path: absolute },
  });
}
