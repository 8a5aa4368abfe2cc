import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ArgusError, type CallContext } from '@argus/protocol';
import type { Services } from './services.js';
import {
  confinePath,
  hasScope,
  openOutput,
  type PathPolicy,
  type PendingOutput,
  writeOutput,
  writeOutputSync,
} from '@argus/security';
import { makeDirs } from '@argus/protocol/make-dirs';

/** A file-name-safe timestamp, e.g. 2025-01-31T12-00-00-000Z. */
export function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Where a command writes, and how: the resolved path, the policy to re-check it against, whether it may replace a file. */
export interface OutputTarget {
  path: string;
  policy: PathPolicy | undefined;
  overwrite: boolean;
}

/**
 * Where a capture goes: the caller's path (relative to its directory) confined to its allowed area
 * (path_forbidden otherwise; an existing directory or a trailing slash gets a generated file name
 * inside it), or `<stateDir>/captures/<stem>-<time>.<ext>`. Writing to a path of the caller's
 * choosing needs write scope (a read token may capture into the state dir or as base64 only).
 * Nothing is written here: `writeTarget` / `openTarget` do that without following links.
 */
export function outputTarget(
  services: Pick<Services, 'access' | 'stateDir'>,
  ctx: Pick<CallContext, 'cwd' | 'scopes'>,
  given: string | undefined,
  name: { stem: string; ext: string; overwrite: boolean },
): OutputTarget {
  const generated = `${name.stem}-${stamp()}.${name.ext}`;
  if (given === undefined) {
    makeDirs(join(services.stateDir, 'captures'), 0o700);
    // a generated name in the daemon's own dir: replacing (never following) is safe there
    return { path: join(services.stateDir, 'captures', generated), policy: undefined, overwrite: true };
  }
  if (!hasScope(ctx.scopes, 'write')) {
    throw new ArgusError(
      'forbidden_scope',
      `Writing a file to a path you choose (${given}) needs the write scope; this token has ${ctx.scopes.join(', ') || 'none'}. Leave the path out to capture into the state dir, or use --base64.`,
    );
  }
  const policy = services.access.paths(ctx);
  let path = confinePath(given, policy);
  if (/[\\/]$/.test(given) || isDirectory(path)) path = confinePath(join(path, generated), policy);
  // early and friendly; the write itself refuses an existing file again, race-free
  if (!name.overwrite && existsSync(path))
    throw new ArgusError('file_exists', `${path} exists. Pass --overwrite to replace it, or choose another name.`, {
      details: { path },
    });
  return { path, policy, overwrite: name.overwrite };
}

export function writeTarget(target: OutputTarget, data: string | Uint8Array, mode?: number): Promise<void> {
  return writeOutput(target.path, data, {
    overwrite: target.overwrite,
    ...(target.policy ? { policy: target.policy } : {}),
    ...(mode === undefined ? {} : { mode }),
  });
}

/** The same, without the thread pool: for a small output the caller is waiting for (see writeOutputSync). */
export function writeTargetSync(target: OutputTarget, data: Uint8Array): void {
  writeOutputSync(target.path, data, {
    overwrite: target.overwrite,
    ...(target.policy ? { policy: target.policy } : {}),
  });
}

export function openTarget(target: OutputTarget, mode?: number): Promise<PendingOutput> {
  return openOutput(target.path, {
    overwrite: target.overwrite,
    ...(target.policy ? { policy: target.policy } : {}),
    ...(mode === undefined ? {} : { mode }),
  });
}
