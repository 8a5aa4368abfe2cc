import { closeSync, existsSync, open, rmSync, statSync, writeFile, writeFileSync } from 'node:fs';
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

let lastStamp = '';
let repeats = 0;

/**
 * A file-name-safe timestamp, e.g. 2025-01-31T12-00-00-000Z, unique in this daemon: a second call
 * in the same millisecond gets `-1`, then `-2` (two screenshots of two tabs at once had the same
 * generated name, and the second replaced the first: both replies named the same file).
 */
export function stamp(): string {
  const now = new Date().toISOString().replace(/[:.]/g, '-');
  if (now !== lastStamp) {
    lastStamp = now;
    repeats = 0;
    return now;
  }
  repeats += 1;
  return `${now}-${repeats}`;
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
  /** A name generated in the daemon's own captures dir (see createEarly). */
  generated?: true;
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
    return {
      path: join(services.stateDir, 'captures', generated),
      policy: undefined,
      overwrite: true,
      generated: true,
    };
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

/** writeTargetSync for data up to `syncMax` bytes (a caller waiting on a small file), else writeTarget. */
export async function writeTargetSized(target: OutputTarget, data: Uint8Array, syncMax: number): Promise<void> {
  if (data.length <= syncMax) writeTargetSync(target, data);
  else await writeTarget(target, data);
}

export function openTarget(target: OutputTarget, mode?: number): Promise<PendingOutput> {
  return openOutput(target.path, {
    overwrite: target.overwrite,
    ...(target.policy ? { policy: target.policy } : {}),
    ...(mode === undefined ? {} : { mode }),
  });
}

/** A kept file created before its data exists (see createEarly). */
export interface EarlyFile {
  /** Fills and closes the file: synchronously up to `syncMax` bytes, else on the thread pool. */
  write(data: Uint8Array, syncMax: number): Promise<void>;
  /** Closes and removes it: the command failed before it had the data. */
  discard(): Promise<void>;
}

/**
 * Creates a generated file of the daemon's own captures dir now, on the thread pool, so that its
 * creation overlaps what the caller waits for anyway (Chrome encoding a screenshot). Creating the
 * file is most of what keeping a small image costs (issue 16, this VM's ext4: ~0.45 ms to create
 * it, ~0.05 ms to write 25 KB into it and close it; the temp file, rename and unlink of
 * writeOutputSync add ~0.2 ms). `wx` (O_CREAT|O_EXCL) refuses an existing name and a link, as
 * writeOutput's temp file does; no temp file is needed in a 0700 dir nobody else writes, under a
 * name unique in this daemon (stamp): nobody learns the name before the reply. Undefined for a path
 * of the caller's choosing, which goes through writeOutput (temp file, policy re-check, placement).
 * If the early create fails, `write` falls back to writeTargetSized, which says why.
 */
export function createEarly(target: OutputTarget): EarlyFile | undefined {
  if (!target.generated) return undefined;
  const opened = new Promise<number | undefined>((resolve) => {
    open(target.path, 'wx', 0o644, (error, fd) => resolve(error ? undefined : fd));
  });
  const remove = (fd: number) => {
    closeSync(fd);
    rmSync(target.path, { force: true });
  };
  return {
    async write(data, syncMax) {
      const fd = await opened;
      if (fd === undefined) return writeTargetSized(target, data, syncMax);
      try {
        if (data.length <= syncMax) writeFileSync(fd, data);
        else
          await new Promise<void>((resolve, reject) =>
            writeFile(fd, data, (error) => (error ? reject(error) : resolve())),
          );
      } catch (error) {
        remove(fd);
        throw error;
      }
      closeSync(fd);
    },
    async discard() {
      const fd = await opened;
      if (fd !== undefined) remove(fd);
    },
  };
}
