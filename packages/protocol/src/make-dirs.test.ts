import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeDirs } from './make-dirs.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'argus-make-dirs-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('makeDirs', () => {
  it('makes a directory and its missing parents with the mode, and is done when it exists', () => {
    const dir = join(root, 'a', 'b', 'c');
    makeDirs(dir, 0o700);
    expect(statSync(dir).isDirectory()).toBe(true);
    expect(statSync(join(root, 'a')).mode & 0o777).toBe(0o700);
    makeDirs(dir, 0o700);
    makeDirs(`${dir}/`, 0o700);
  });

  it('fails on a file in the way', () => {
    writeFileSync(join(root, 'file'), '');
    expect(() => makeDirs(join(root, 'file'))).toThrow(/EEXIST/);
    expect(() => makeDirs(join(root, 'file', 'below'))).toThrow(/ENOTDIR/);
  });

  it.runIf(process.platform === 'linux')(
    'fails where mkdir keeps answering ENOENT under an existing parent (Node 20 spins there)',
    () => {
      expect(() => makeDirs('/proc/argus-not-a-dir/state')).toThrow(/ENOENT/);
    },
  );
});
