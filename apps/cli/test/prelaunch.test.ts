// A daemon that the CLI starts launches Chromium at once (while it finishes starting and the first
// command travels), so the browser is up without a browser command; ARGUS_PRELAUNCH=0 waits for one;
// a stop that lands while the early launch is under way still closes that Chromium.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listArgusChromeProcesses, runProcess, waitUntil } from '@argus/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI } from './cli-harness.js';

const workspaces: string[] = [];

function workspace(env: NodeJS.ProcessEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'argus-prelaunch-'));
  workspaces.push(dir);
  const run = (...args: string[]) =>
    runProcess(process.execPath, [CLI, ...args], {
      cwd: dir,
      env: {
        ...process.env,
        ARGUS_STATE_DIR: join(dir, '.argus'),
        ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9',
        ...env,
      },
    });
  const browser = async () =>
    (JSON.parse((await run('status', '--json')).stdout) as { browser: { running: boolean; launches: number } }).browser;
  return { dir, run, browser };
}

afterEach(async () => {
  for (const dir of workspaces.splice(0)) {
    await runProcess(process.execPath, [CLI, 'stop'], {
      cwd: dir,
      env: { ...process.env, ARGUS_STATE_DIR: join(dir, '.argus') },
    });
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('prelaunch', () => {
  it('has the browser running after a command that does not use it', async () => {
    const { run, browser } = workspace();
    expect((await run('tokens')).code).toBe(0);
    await waitUntil(async () => (await browser()).running, 30_000, 'the early launch');
    expect((await browser()).launches).toBe(1);
  });

  it('waits for a browser command with ARGUS_PRELAUNCH=0', async () => {
    const { run, browser } = workspace({ ARGUS_PRELAUNCH: '0' });
    expect((await run('tokens')).code).toBe(0);
    expect(await browser()).toMatchObject({ running: false, launches: 0 });
  });

  it('closes the Chromium of a launch still under way when stopped', async () => {
    const before = new Set(listArgusChromeProcesses().map((chrome) => chrome.pid));
    const { run } = workspace();
    expect((await run('tokens')).code).toBe(0);
    expect((await run('stop')).code).toBe(0);
    await waitUntil(
      () => listArgusChromeProcesses().every((chrome) => before.has(chrome.pid)),
      15_000,
      'no Chromium left from the stopped daemon',
    );
  });
});
