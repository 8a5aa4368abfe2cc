import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type PathPolicy, confinePath, expandPath, parseRoots, resolveReal } from './paths.js';
import { writeOutput, writeOutputSync } from './safe-write.js';

// the "outside" area must not be under the temp dir (an allowed root): use a dir under the home
const base = mkdtempSync(join(tmpdir(), 'argus-paths-'));
const project = join(base, 'project');
const outside = mkdtempSync(join(process.cwd(), '.argus-outside-'));
mkdirSync(join(project, 'web', 'out'), { recursive: true });
mkdirSync(join(project, '.argus', 'captures'), { recursive: true });
afterAll(() => {
  rmSync(base, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});
const policy = (cwd = project): PathPolicy => ({
  cwd,
  roots: [project],
  denied: [join(project, '.argus')],
  reopened: [join(project, '.argus', 'captures')],
  home: '/home/someone',
});
const code = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return 'ok';
};

describe('path policy', () => {
  it('resolves relative paths against the caller directory and expands ~', () => {
    expect(confinePath('out/a.png', policy(join(project, 'web')))).toBe(
      join(realpathSync(project), 'web', 'out', 'a.png'),
    );
    expect(expandPath('~/x', '/cwd', '/home/u')).toBe('/home/u/x');
    expect(expandPath('~', '/cwd', '/home/u')).toBe('/home/u');
    expect(expandPath('~x', '/cwd', '/home/u')).toBe('/cwd/~x');
  });
  it('refuses escapes, the state dir (except captures), NUL bytes', () => {
    expect(code(() => confinePath('/etc/passwd', policy()))).toBe('path_forbidden');
    expect(code(() => confinePath('../../../../etc/x', policy()))).toBe('path_forbidden');
    expect(code(() => confinePath('.argus/daemon.json', policy()))).toBe('path_forbidden');
    expect(code(() => confinePath('.argus/captures/a.png', policy()))).toBe('ok');
    expect(code(() => confinePath('a\0b', policy()))).toBe('invalid_input');
  });
  it('names each allowed area once in a refusal', () => {
    const nested: PathPolicy = { ...policy(), roots: [join(project, 'web'), project, tmpdir(), project] };
    const message = (() => {
      try {
        confinePath('/etc/passwd', nested);
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    })();
    const area = /outside the allowed area \(([^)]*)\)/.exec(message)?.[1]?.split(', ');
    // the project is inside the temp dir here: the temp dir says it all
    expect(area).toEqual([realpathSync(tmpdir())]);
  });
  it('follows symlinks, dangling ones included, and chains of them', () => {
    symlinkSync('/etc', join(project, 'etc-link'));
    expect(code(() => confinePath('etc-link/passwd', policy()))).toBe('path_forbidden');
    symlinkSync(join(outside, 'x.png'), join(project, 'dangling.png'));
    expect(resolveReal(join(project, 'dangling.png'))).toBe(join(outside, 'x.png'));
    expect(code(() => confinePath('dangling.png', policy()))).toBe('path_forbidden');
    symlinkSync('dangling.png', join(project, 'chain.png'));
    expect(code(() => confinePath('chain.png', policy()))).toBe('path_forbidden');
    symlinkSync(join(outside, 'newdir'), join(project, 'dangling-dir'));
    expect(code(() => confinePath('dangling-dir/x.png', policy()))).toBe('path_forbidden');
    symlinkSync('loop-b', join(project, 'loop-a'));
    symlinkSync('loop-a', join(project, 'loop-b'));
    expect(code(() => confinePath('loop-a', policy()))).toBe('path_forbidden');
  });
  it('parses operator roots', () => {
    expect(parseRoots(' ~/Downloads : /srv/data ::', '/home/u')).toEqual(['/home/u/Downloads', '/srv/data']);
    expect(parseRoots(undefined)).toEqual([]);
  });
});

// the sync form (screenshots) must refuse and place exactly as the async one
const writers: Array<[string, typeof writeOutput]> = [
  ['writeOutput', writeOutput],
  ['writeOutputSync', async (target, data, options) => writeOutputSync(target, data, options)],
];

describe.each(writers)('%s', (name, write) => {
  it('writes a new file, refuses an existing one unless overwrite', async () => {
    const target = confinePath(`web/out/new-${name}.txt`, policy());
    await write(target, 'one', { policy: policy() });
    expect(readFileSync(target, 'utf8')).toBe('one');
    await expect(write(target, 'two', { policy: policy() })).rejects.toMatchObject({ code: 'file_exists' });
    await write(target, 'two', { policy: policy(), overwrite: true });
    expect(readFileSync(target, 'utf8')).toBe('two');
  });
  it('replaces a symlink at the target instead of writing through it', async () => {
    const victim = join(outside, `victim-${name}.txt`);
    writeFileSync(victim, 'untouched');
    const link = join(project, 'web', 'out', `swapped-${name}.txt`);
    symlinkSync(victim, link);
    // the link is what a racing attacker would plant after the check: write to the link's own path
    await write(link, 'data', { policy: policy(), overwrite: true });
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(readFileSync(link, 'utf8')).toBe('data');
  });
  it('notices a directory swapped for a link to outside after the check', async () => {
    const dir = join(project, 'web', `swap-${name}`);
    symlinkSync(outside, dir);
    await expect(write(join(dir, 'x.txt'), 'data', { policy: policy() })).rejects.toMatchObject({
      code: 'path_forbidden',
    });
    expect(() => readFileSync(join(outside, 'x.txt'))).toThrow();
  });
});
