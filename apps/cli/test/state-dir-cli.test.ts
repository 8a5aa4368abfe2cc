// Which configuration a daemon reads: a daemon started with ARGUS_STATE_DIR pointing at another
// project's .argus reads that project's config.json.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readState } from '@argus/client';
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
