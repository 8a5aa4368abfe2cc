// Which daemon a command reaches, and which configuration that daemon reads: a daemon started with
// ARGUS_STATE_DIR pointing at another project's .argus reads that project's config.json; a command run
// while `argus stop` is under way waits for the stopping daemon to exit, then starts one (never two
// daemons on one state dir at once).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isProcessAlive, readState } from '@argus/client';
import { type FixtureServer, runProcess, startFixtureServer } from '@argus/test-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from './cli-harness.js';

let server: FixtureServer;
const dirs: string[] = [];
/** Daemons to stop after each test: [cwd, state dir]. */
const daemons: Array<[string, string]> = [];

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  for (const [cwd, stateDir] of daemons.splice(0))
    await runProcess(process.execPath, [CLI, 'stop'], { cwd, env: { ...process.env, ARGUS_STATE_DIR: stateDir } });
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

function cli(cwd: string, stateDir: string, env: NodeJS.ProcessEnv = {}) {
  daemons.push([cwd, stateDir]);
  return (...args: string[]) =>
    runProcess(process.execPath, [CLI, ...args], {
      cwd,
      env: {
        ...process.env,
        ARGUS_STATE_DIR: stateDir,
        ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9',
        XDG_CONFIG_HOME: join(cwd, 'xdg'),
        ...env,
      },
    });
}

describe('ARGUS_STATE_DIR and the project config', () => {
  it("a daemon started from another directory with ARGUS_STATE_DIR at a project's .argus reads that project's config.json", async () => {
    const project = tempDir('argus-project-');
    const elsewhere = tempDir('argus-elsewhere-');
    for (const [dir, idle] of [
      [project, 222_222],
      [elsewhere, 111_111],
    ] as const) {
      mkdirSync(join(dir, '.argus'), { recursive: true });
      writeFileSync(join(dir, '.argus', 'config.json'), JSON.stringify({ idleTimeoutMs: idle }));
    }
    const stateDir = join(project, '.argus');
    const run = cli(elsewhere, stateDir, { ARGUS_PRELAUNCH: '0' });
    const listed = await run('config', 'list', '--json');
    expect(listed.code, listed.stderr).toBe(0);
    const list = JSON.parse(listed.stdout) as { files: { project: string } };
    expect(list.files.project).toBe(join(stateDir, 'config.json'));
    const status = await run('status', '--json');
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ idleTimeoutMs: 222_222 });
    // the daemon's state is that project's, and nothing was made where it was started
    expect(readState(stateDir)).toBeDefined();
    expect(existsSync(join(elsewhere, '.argus', 'daemon.json'))).toBe(false);
  });
});

describe('a command during `argus stop`', () => {
  it('waits for the stopping daemon to exit, then starts one: never two daemons at once, and it succeeds', async () => {
    const workspace = tempDir('argus-stop-race-');
    const stateDir = join(workspace, '.argus');
    const run = cli(workspace, stateDir);
    expect((await run('goto', server.urlFor('/'))).code).toBe(0);
    const old = readState(stateDir)!;
    expect(isProcessAlive(old.pid)).toBe(true);

    const stopped = run('stop');
    // the stop has passed its start (the state file says stopping, or is gone) while the browser closes:
    // hold the old daemon there, mid-stop, for as long as the new command takes to decide
    const deadline = Date.now() + 15_000;
    while (readState(stateDir)?.stopping !== true && existsSync(join(stateDir, 'daemon.json'))) {
      if (Date.now() > deadline) throw new Error('the stop did not begin');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    process.kill(old.pid, 'SIGSTOP');
    try {
      expect(isProcessAlive(old.pid), 'the old daemon was still stopping').toBe(true);
      const next = run('goto', server.urlFor('/'));
      // a second daemon would write its state file within seconds: look for one while the old is held
      const seen = Date.now() + 4_000;
      while (Date.now() < seen) {
        const current = readState(stateDir);
        expect(
          current === undefined || current.pid === old.pid,
          'a second daemon started beside the stopping one',
        ).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      process.kill(old.pid, 'SIGCONT');
      const result = await next;
      expect(result.code, result.stderr).toBe(0);
    } finally {
      if (isProcessAlive(old.pid)) process.kill(old.pid, 'SIGCONT');
    }
    expect((await stopped).code).toBe(0);
    expect(isProcessAlive(old.pid)).toBe(false);
    const fresh = readState(stateDir)!;
    expect(fresh.pid).not.toBe(old.pid);
    expect(fresh.stopping).toBeUndefined();
    // in the log: the old daemon stopped before the new one started
    const events = readFileSync(join(stateDir, 'daemon.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: string; pid?: number })
      .filter((line) => line.event === 'daemon.started' || line.event === 'daemon.stopped')
      .map((line) => line.event);
    expect(events).toEqual(['daemon.started', 'daemon.stopped', 'daemon.started']);
  });
});
