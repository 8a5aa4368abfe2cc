import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { makeDirs } from '@argus/protocol/make-dirs';

/**
 * A V8 code cache for a CommonJS bundle (issue 16). Node 20 has none for ES modules (its compile
 * cache came in 22), and a cold start spends a fifth of the daemon's CPU compiling its bundle, on a
 * machine where Chromium is starting on the same cores. So the daemon's, the MCP server's and the
 * CLI's bundles are CommonJS, run through `vm.Script` with the bytecode V8 serialised after an
 * earlier start.
 *
 * The cache lives in a directory of the user's own (`$XDG_CACHE_HOME/argus/code-cache`, or
 * `ARGUS_CODE_CACHE_DIR`; `ARGUS_CODE_CACHE=0` turns it off), mode 0700, its files 0600. Bytecode
 * is code: a file is used only when it and its directory belong to this user and nobody else may
 * write them, and it is named after a hash of the bundle's content (V8 itself checks only the
 * source's length), Node's and V8's versions, the architecture and Node's options (V8 rejects a
 * cache made under other flags). A cache V8 rejects or a missing one is written again by `save`.
 */
export interface CachedBundle {
  /** The bundle's `module.exports`. */
  readonly exports: unknown;
  /** `hit`: V8 took the cache; `miss`: none was there; `rejected`: V8 refused it; `off`: disabled. */
  readonly cache: 'hit' | 'miss' | 'rejected' | 'off';
  /**
   * Writes the bytecode compiled so far (call it once the program has done its usual start-up work,
   * so what that compiled is in it), unless the cache was taken or is off. Best effort: false when
   * nothing was written.
   */
  save(): boolean;
}

/** Where the code cache lives, or undefined when it is turned off. */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.ARGUS_CODE_CACHE === '0') return undefined;
  const own = env.ARGUS_CODE_CACHE_DIR?.trim();
  if (own) return own;
  const home = env.HOME?.trim() || homedir();
  return join(env.XDG_CACHE_HOME?.trim() || join(home, '.cache'), 'argus', 'code-cache');
}

/** True when `mode` and `uid` describe something only this user can change. */
function privateTo(stat: { uid: number; mode: number }): boolean {
  const uid = process.getuid?.();
  return (uid === undefined || stat.uid === uid) && (stat.mode & 0o022) === 0;
}

/** The directory, made private if missing; undefined when it is not this user's alone. */
function privateDir(dir: string): string | undefined {
  makeDirs(dir, 0o700);
  const stat = lstatSync(dir);
  return stat.isDirectory() && privateTo(stat) ? dir : undefined;
}

/** The cache file's bytes, when it is a regular file (never a link) of this user's in a private directory. */
function readPrivate(file: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    const dir = lstatSync(dirname(file));
    if (!dir.isDirectory() || !privateTo(dir)) return undefined;
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    const stat = fstatSync(fd);
    if (!stat.isFile() || !privateTo(stat)) return undefined;
    return readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes the file through a new temp file (O_EXCL, 0600) renamed over it. */
function writePrivate(file: string, data: Uint8Array): void {
  const temp = `${file}.${process.pid}.tmp`;
  rmSync(temp, { force: true });
  writeFileSync(temp, data, { mode: 0o600, flag: 'wx' });
  try {
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Caches of one bundle kept: two checkouts or installs in use in turns must not evict each other. */
const KEPT_PER_BUNDLE = 4;

/** Removes all but the newest caches of bundle `name` (earlier builds). */
function pruneOlder(dir: string, name: string): void {
  const files = readdirSync(dir)
    .filter((entry) => entry.startsWith(`${name}-`) && entry.endsWith('.bin'))
    .map((entry) => ({ path: join(dir, entry), mtime: lstatSync(join(dir, entry)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { path } of files.slice(KEPT_PER_BUNDLE)) rmSync(path, { force: true });
}

/**
 * Runs the CommonJS bundle `file` as Node would (`module`, `require` from its own location,
 * `__filename`), compiled with the cached bytecode when there is a usable cache. The bundle may not
 * use `import()`: a script's functions restored from a cache lose the hook Node resolves it with
 * ("A dynamic import callback was not specified"), so bundles are built with esbuild's
 * `dynamic-import` support off, which turns each into a `require`.
 */
export function runWithCodeCache(file: string, env: NodeJS.ProcessEnv = process.env): CachedBundle {
  const source = readFileSync(file);
  const dir = codeCacheDir(env);
  const name = basename(file).replace(/\W/g, '_');
  const key = createHash('sha256')
    .update(source)
    // V8 rejects bytecode made under other flags: each set of them has a cache of its own
    .update(
      `\0${process.version}\0${process.versions.v8}\0${process.arch}\0${process.execArgv.join(' ')}\0${env.NODE_OPTIONS ?? ''}`,
    )
    .digest('hex')
    .slice(0, 32);
  const cacheFile = dir === undefined ? undefined : join(dir, `${name}-${key}.bin`);
  const cachedData = cacheFile === undefined ? undefined : readPrivate(cacheFile);
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) {${source.toString('utf8')}\n})`,
    {
      filename: file,
      ...(cachedData ? { cachedData } : {}),
    },
  );
  const cache: CachedBundle['cache'] =
    cacheFile === undefined ? 'off' : !cachedData ? 'miss' : script.cachedDataRejected ? 'rejected' : 'hit';
  const module = { exports: {} as unknown, filename: file, id: file, loaded: false };
  const compiled = script.runInThisContext() as (...args: unknown[]) => void;
  compiled.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  module.loaded = true;
  let saved = false;
  return {
    get exports() {
      return module.exports;
    },
    cache,
    save() {
      if (saved || cache === 'hit' || dir === undefined || cacheFile === undefined) return false;
      saved = true;
      try {
        if (!privateDir(dir)) return false;
        writePrivate(cacheFile, script.createCachedData());
        pruneOlder(dir, name);
        return true;
      } catch {
        return false;
      }
    },
  };
}

/**
 * A process's entry: runs its bundle with the code cache and, when there was no usable cache,
 * saves one once the start-up work is done, `saveAfterMs` in (a long-lived process) or at exit,
 * whichever comes first.
 */
export function runEntryWithCodeCache(file: string, saveAfterMs?: number): CachedBundle {
  const bundle = runWithCodeCache(file);
  if (bundle.cache === 'miss' || bundle.cache === 'rejected') {
    if (saveAfterMs !== undefined) setTimeout(() => bundle.save(), saveAfterMs).unref();
    process.once('exit', () => bundle.save());
  }
  return bundle;
}
