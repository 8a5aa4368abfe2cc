import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codeCacheDir, runWithCodeCache } from './code-cache.js';

let root: string;
let cacheDir: string;
let bundle: string;
let env: NodeJS.ProcessEnv;

/** A CommonJS bundle with enough functions that V8's cache of it is not empty. */
function writeBundle(marker: string): void {
  const functions = Array.from({ length: 50 }, (_, i) => `function f${i}(x) { return x * ${i} + ${i}; }`).join('\n');
  writeFileSync(
    bundle,
    `${functions}\nlet sum = 0; for (let i = 0; i < 50; i++) sum += eval('f' + i)(1);\n` +
      `module.exports = { marker: ${JSON.stringify(marker)}, sum, file: __filename, path: require('node:path').basename(__dirname) };\n`,
  );
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'argus-code-cache-'));
  cacheDir = join(root, 'cache');
  bundle = join(root, 'bundle.cjs');
  env = { ARGUS_CODE_CACHE_DIR: cacheDir };
  writeBundle('one');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

let copies = 0;

/**
 * Runs the bundle from a copy at a path of its own: V8 keeps what it compiled in this process by
 * source and file name, and would take that instead of reading the cache at all.
 */
function run(options: NodeJS.ProcessEnv = env): ReturnType<typeof runWithCodeCache> {
  const dir = join(root, `copy-${copies++}`);
  mkdirSync(dir);
  copyFileSync(bundle, join(dir, 'bundle.cjs'));
  return runWithCodeCache(join(dir, 'bundle.cjs'), options);
}

const cacheFiles = () => readdirSync(cacheDir).filter((name) => name.endsWith('.bin'));

describe('runWithCodeCache', () => {
  it('runs the bundle as CommonJS, saves its bytecode privately, and takes it on the next run', () => {
    const first = run();
    expect(first.exports).toEqual({
      marker: 'one',
      sum: 2450,
      file: join(root, 'copy-0', 'bundle.cjs'),
      path: 'copy-0',
    });
    expect(first.cache).toBe('miss');
    expect(first.save()).toBe(true);
    // once only
    expect(first.save()).toBe(false);
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    const [file] = cacheFiles();
    expect(statSync(join(cacheDir, file!)).mode & 0o777).toBe(0o600);

    const second = run();
    expect(second.cache).toBe('hit');
    expect(second.exports).toMatchObject({ marker: 'one', sum: 2450, path: 'copy-1' });
    // nothing to write when the cache was taken
    expect(second.save()).toBe(false);
  });

  it('never uses the cache of another build of the bundle, even of the same length', () => {
    run().save();
    // same length, other content: V8's own check (the source's length) would take the old bytecode
    writeBundle('two');
    const changed = run();
    expect(changed.cache).toBe('miss');
    expect((changed.exports as { marker: string }).marker).toBe('two');
    expect(changed.save()).toBe(true);
    // both builds' caches are kept (two checkouts in use in turns), up to a few
    expect(cacheFiles()).toHaveLength(2);
  });

  it('keeps only the newest few caches of one bundle', () => {
    for (let i = 0; i < 7; i++) {
      writeBundle(`build ${i}`);
      run().save();
    }
    expect(cacheFiles()).toHaveLength(4);
  });

  it('refuses a cache file others may write, or a link, and replaces neither', () => {
    run().save();
    const [name] = cacheFiles();
    const file = join(cacheDir, name!);
    chmodSync(file, 0o666);
    expect(run().cache).toBe('miss');

    rmSync(file);
    const elsewhere = join(root, 'planted.bin');
    writeFileSync(elsewhere, 'not bytecode', { mode: 0o600 });
    symlinkSync(elsewhere, file);
    const linked = run();
    expect(linked.cache).toBe('miss');
    // saving renames a new file over the link: the link's target is never written through
    expect(linked.save()).toBe(true);
    expect(statSync(elsewhere).size).toBe('not bytecode'.length);
  });

  it('refuses a cache directory others may write', () => {
    run().save();
    chmodSync(cacheDir, 0o777);
    const result = run();
    expect(result.cache).toBe('miss');
    expect(result.save()).toBe(false);
  });

  it('runs the bundle from source when V8 rejects the cache, and writes a good one', () => {
    run().save();
    const [name] = cacheFiles();
    writeFileSync(join(cacheDir, name!), Buffer.alloc(4096, 7), { mode: 0o600 });
    const result = run();
    expect(result.cache).toBe('rejected');
    expect((result.exports as { sum: number }).sum).toBe(2450);
    expect(result.save()).toBe(true);
    expect(run().cache).toBe('hit');
  });

  it('is off with ARGUS_CODE_CACHE=0, and lives under the user cache dir by default', () => {
    const off = run({ ...env, ARGUS_CODE_CACHE: '0' });
    expect(off.cache).toBe('off');
    expect(off.save()).toBe(false);
    expect(() => readdirSync(cacheDir)).toThrow();
    expect(codeCacheDir({ HOME: '/home/u' })).toBe('/home/u/.cache/argus/code-cache');
    expect(codeCacheDir({ HOME: '/home/u', XDG_CACHE_HOME: '/x' })).toBe('/x/argus/code-cache');
    mkdirSync(cacheDir);
  });
});
