import { randomBytes } from 'node:crypto';
import { linkSync, lstatSync, mkdirSync, readlinkSync, renameSync, rmSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ArgusError } from '@argus/protocol/errors';
import { type PathPolicy, pathRefusal, resolveReal } from './paths.js';

export interface OutputOptions {
  /** Replace an existing file (else `file_exists`). */
  overwrite?: boolean;
  /** File mode of a new file (default 0o644). */
  mode?: number;
  /** When set, the file's real location is checked against it again after it is opened. */
  policy?: PathPolicy;
}

/** A file being written: data goes to a temp file beside the target, `commit` puts it in place. */
export interface PendingOutput {
  readonly path: string;
  readonly handle: FileHandle;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function fileExists(path: string): ArgusError {
  return new ArgusError(
    'file_exists',
    `${path} exists. Pass --overwrite (overwrite: true) to replace it, or choose another name.`,
    { details: { path } },
  );
}

/** Where an open descriptor really is (Linux: /proc/self/fd), so a swapped directory is noticed. */
function openedPath(handle: FileHandle, fallback: string): string {
  try {
    return readlinkSync(`/proc/self/fd/${handle.fd}`);
  } catch {
    return resolveReal(fallback);
  }
}

/**
 * Opens `target` (already confined) for writing without ever following a link at it: the data goes
 * to a new temp file created with O_CREAT|O_EXCL ('wx', which refuses an existing name and any
 * symlink) in the target's directory; its real location is checked again against the policy; then
 * `commit` hard-links it to the target (fails if the target appeared meanwhile) or, with
 * `overwrite`, renames it over the target (which replaces a link rather than writing through it).
 */
export async function openOutput(target: string, options: OutputOptions = {}): Promise<PendingOutput> {
  const overwrite = options.overwrite ?? false;
  if (!overwrite && exists(target)) throw fileExists(target);
  const dir = dirname(target);
  mkdirSync(dir, { recursive: true });
  const temp = join(dir, `.${basename(target)}.${randomBytes(6).toString('hex')}.argus-tmp`);
  const handle = await open(temp, 'wx', options.mode ?? 0o644);
  const discard = async () => {
    await handle.close().catch(() => undefined);
    rmSync(temp, { force: true });
  };
  if (options.policy) {
    const real = openedPath(handle, temp);
    const refusal = pathRefusal(real, options.policy);
    if (refusal !== undefined) {
      await discard();
      throw new ArgusError(
        'path_forbidden',
        `${target} moved while it was opened: it now resolves to ${real}, ${refusal}.`,
        { details: { path: target, resolved: real } },
      );
    }
  }
  let settled = false;
  return {
    path: target,
    handle,
    async commit() {
      if (settled) return;
      settled = true;
      await handle.close();
      try {
        placeFile(temp, target, overwrite);
      } finally {
        rmSync(temp, { force: true });
      }
    },
    async abort() {
      if (settled) return;
      settled = true;
      await discard();
    },
  };
}

/** Puts a finished file at `target`: a hard link when it must not replace anything, else a rename. */
export function placeFile(source: string, target: string, overwrite: boolean): void {
  if (overwrite) {
    renameSync(source, target);
    return;
  }
  try {
    linkSync(source, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw fileExists(target);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') throw error;
    // a filesystem without hard links: check, then rename (the window is the caller's own dir)
    if (exists(target)) throw fileExists(target);
    renameSync(source, target);
  }
}

/** Writes `data` to `target` through `openOutput`. */
export async function writeOutput(
  target: string,
  data: string | Uint8Array,
  options: OutputOptions = {},
): Promise<void> {
  const output = await openOutput(target, options);
  try {
    await output.handle.writeFile(data);
  } catch (error) {
    await output.abort();
    throw error;
  }
  await output.commit();
}
