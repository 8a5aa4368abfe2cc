import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type FixtureServer, runProcess, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, type CliResult } from './cli-harness.js';

// Paths as a user meets them (issue 13): the real CLI from a subdirectory of a git project, with the
// state dir elsewhere (as the agent docs suggest), `~`, an operator root and a symlink. The project
// lies outside the temp dir so only the project rule (not "tmp is allowed") can make it writable.

let server: FixtureServer;
const project = mkdtempSync(join(resolve('.'), '.argus-project-'));
const home = mkdtempSync(join(resolve('.'), '.argus-home-'));
const outside = mkdtempSync(join(resolve('.'), '.argus-outside-'));
const stateDir = join(mkdtempSync(join(tmpdir(), 'argus-state-elsewhere-')), 'state');
const web = join(project, 'web');

function argus(cwd: string, ...args: string[]): Promise<CliResult> {
  return runProcess(process.execPath, [CLI, ...args], {
    cwd,
    env: {
      ...process.env,
      HOME: home,
      ARGUS_STATE_DIR: stateDir,
      ARGUS_ALLOWED_ROOTS: join(home, 'Downloads'),
      ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9',
    },
  });
}

beforeAll(async () => {
  server = await startFixtureServer();
  mkdirSync(join(project, '.git'));
  mkdirSync(web);
  mkdirSync(join(home, 'Downloads'));
});
afterAll(async () => {
  if (existsSync(join(stateDir, 'daemon.json'))) await argus(project, 'stop');
  await server.close();
  for (const dir of [project, home, outside, resolve(stateDir, '..')]) rmSync(dir, { recursive: true, force: true });
});

describe('paths relative to where the user stands', () => {
  it('cwd, subdir, ~, state dir elsewhere, operator root and symlink', async () => {
    expect((await argus(web, 'goto', `localhost:${server.port}/form.html`)).code).toBe(0);

    // from web/, a relative path lands in web/ (the state dir's parent is not the workspace)
    const sub = await argus(web, 'screenshot', 'out/a.png', '--json');
    expect(sub.code, sub.stderr).toBe(0);
    expect(JSON.parse(sub.stdout).path).toBe(join(web, 'out', 'a.png'));
    expect(existsSync(join(web, 'out', 'a.png'))).toBe(true);

    // the project root from the same daemon
    expect((await argus(project, 'screenshot', 'top.png')).code).toBe(0);
    expect(existsSync(join(project, 'top.png'))).toBe(true);

    // ./local.png is found where the user stands
    writeFileSync(join(web, 'page.html'), '<input type="file" id="f">');
    writeFileSync(join(web, 'local.png'), 'x');
    expect((await argus(web, 'load-html', 'page.html')).code).toBe(0);
    const upload = await argus(web, 'upload', '#f', 'local.png', '--json');
    expect(upload.code, upload.stderr).toBe(0);
    expect(JSON.parse(upload.stdout).files).toEqual([join(web, 'local.png')]);

    // ~ expands; the home is outside the area, ~/Downloads is an operator root
    const homeShot = await argus(web, 'screenshot', '~/x.png');
    expect(homeShot.code).not.toBe(0);
    expect(homeShot.stderr).toMatch(/path_forbidden|outside the allowed area/);
    expect((await argus(web, 'screenshot', '~/Downloads/x.png')).code).toBe(0);
    expect(existsSync(join(home, 'Downloads', 'x.png'))).toBe(true);

    // a dangling link to outside is refused and nothing is written there
    symlinkSync(join(outside, 'x.png'), join(web, 'd'));
    const linked = await argus(web, 'screenshot', 'd');
    expect(linked.code).not.toBe(0);
    expect(linked.stderr).toMatch(/outside the allowed area/);
    expect(existsSync(join(outside, 'x.png'))).toBe(false);

    // the state dir is unreadable through the browser
    const token = JSON.parse(readFileSync(join(stateDir, 'daemon.json'), 'utf8')).token as string;
    const read = await argus(web, 'goto', `file://${join(stateDir, 'daemon.json')}`);
    expect(read.code).not.toBe(0);
    expect(read.stdout + read.stderr).not.toContain(token);
  });
});
