import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, lstatSync, openSync, readlinkSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ArgusError } from '@argus/protocol/errors';
import { type PathPolicy, pathRefusal, resolveReal } from './paths.js';
import { makeDirs } from '@argus/protocol/make-dirs';

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
function openedPath(fd: number, fallback: string): string {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return resolveReal(fallback);
  }
}

/** A new temp file's name beside `target` (its directory made if missing). */
function tempBeside(target: string): string {
  const dir = dirname(target);
  makeDirs(dir);
  return join(dir, `.${basename(target)}.${randomBytes(6).toString('hex')}.argus-tmp`);
}

/** The refusal when the temp file just opened as `fd` turned out to be outside the policy (a swapped directory). */
function openedOutside(
  fd: number,
  temp: string,
  target: string,
  policy: PathPolicy | undefined,
): ArgusError | undefined {
  if (!policy) return undefined;
  const real = openedPath(fd, temp);
  const refusal = pathRefusal(real, policy);
  if (refusal === undefined) return undefined;
  return new ArgusError(
    'path_forbidden',
    `${target} moved while it was opened: it now resolves to ${real}, ${refusal}.`,
    {
      details: { path: target, resolved: real },
    },
  );
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
  const temp = tempBeside(target);
  const handle = await open(temp, 'wx', options.mode ?? 0o644);
  const discard = async () => {
    await handle.close().catch(() => undefined);
    rmSync(temp, { force: true });
  };
  const refused = openedOutside(handle.fd, temp, target, options.policy);
  if (refused) {
    await discard();
    throw refused;
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

/**
 * `writeOutput` without the thread pool, for a small output a caller is waiting for (a screenshot):
 * the async form's five file operations are five round trips through the pool, each waiting for the
 * event loop, which a loaded machine stretches to milliseconds. The same temp file (O_EXCL), the same
 * re-check of where it opened, the same placement.
 */
export function writeOutputSync(target: string, data: string | Uint8Array, options: OutputOptions = {}): void {
  const overwrite = options.overwrite ?? false;
  if (!overwrite && exists(target)) throw fileExists(target);
  const temp = tempBeside(target);
  const fd = openSync(temp, 'wx', options.mode ?? 0o644);
  let open = true;
  try {
    const refused = openedOutside(fd, temp, target, options.policy);
    if (refused) throw refused;
    writeFileSync(fd, data);
    open = false;
    closeSync(fd);
    placeFile(temp, target, overwrite);
  } finally {
    if (open) closeSync(fd);
    rmSync(temp, { force: true });
  }
}
