// A daemon that the CLI starts launches Chromium at once (while it finishes starting and the first
// command travels), so the browser is up without a browser command; ARGUS_PRELAUNCH=0 waits for one;
// a stop that lands while the early launch is under way still closes that Chromium. The CLI launches
// that Chromium itself, at its first line, and hands it to the daemon it starts (launch-handover in
// @argus/cdp): the daemon owns it all the same (killed with it, replaced when it crashes).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isProcessAlive, readState } from '@argus/client';
import { listArgusChromeProcesses, parentOf, runProcess, waitUntil } from '@argus/test-kit';
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
    (
      JSON.parse((await run('status', '--json')).stdout) as {
        browser: { running: boolean; launches: number; pid: number | null; crashed: boolean };
      }
    ).browser;
  const daemonPid = () => readState(join(dir, '.argus'))?.pid;
  return { dir, run, browser, daemonPid };
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

  it('runs the Chromium the CLI launched and handed over, and only that one', async () => {
    const before = new Set(listArgusChromeProcesses().map((chrome) => chrome.pid));
    const { dir, run, browser, daemonPid } = workspace();
    expect((await run('tokens')).code).toBe(0);
    await waitUntil(async () => (await browser()).running, 30_000, 'the handed browser adopted');
    const { pid, launches } = await browser();
    expect(launches).toBe(1);
    const started = listArgusChromeProcesses().filter((chrome) => !before.has(chrome.pid));
    expect(started.map((chrome) => chrome.pid)).toEqual([pid]);
    // launched by the CLI (gone now), not by the daemon: it is not the daemon's child
    expect(parentOf(pid!)).not.toBe(daemonPid());
    // stopped like one the daemon launched: closed, then its profile removed (once it stopped writing)
    expect((await run('stop')).stdout).toMatch(/browser closed/);
    expect(isProcessAlive(pid!)).toBe(false);
    expect(existsSync(started[0]!.userDataDir)).toBe(false);
    expect(readFileSync(join(dir, '.argus', 'daemon.log'), 'utf8')).not.toMatch(/close_failed/);
  });

  it('ends the handed Chromium and its profile when the daemon is killed', async () => {
    const { run, browser, daemonPid } = workspace();
    expect((await run('tokens')).code).toBe(0);
    await waitUntil(async () => (await browser()).running, 30_000, 'the handed browser adopted');
    const { pid } = await browser();
    const chrome = listArgusChromeProcesses().find((process) => process.pid === pid)!;
    expect(chrome).toBeDefined();
    process.kill(daemonPid()!, 'SIGKILL');
    // the watchdog the CLI started reads the pipe the daemon inherited: the daemon's death ends it
    await waitUntil(() => !isProcessAlive(pid!), 15_000, 'the handed Chromium gone with its daemon');
    await waitUntil(() => !existsSync(chrome.userDataDir), 15_000, 'its profile removed');
  });

  it('leaves no Chromium after a usage error', async () => {
    const before = new Set(listArgusChromeProcesses().map((chrome) => chrome.pid));
    const { run } = workspace();
    const typo = await run('gotoo', 'http://127.0.0.1:9/');
    expect(typo.code).toBe(2);
    await waitUntil(
      () => listArgusChromeProcesses().every((chrome) => before.has(chrome.pid)),
      15_000,
      'no Chromium left from the usage error',
    );
  });

  it('notices a handed Chromium crashing and launches a new one', async () => {
    const { run, browser } = workspace();
    expect((await run('tokens')).code).toBe(0);
    await waitUntil(async () => (await browser()).running, 30_000, 'the handed browser adopted');
    const { pid } = await browser();
    process.kill(-pid!, 'SIGKILL');
    // not the daemon's child: the exit shows through its DevTools pipe closing
    await waitUntil(async () => (await browser()).crashed, 15_000, 'the crash noticed');
    // reported once, as for a browser the daemon launched; the next command launches a new one
    const reported = await run('tabs');
    expect(reported.code).not.toBe(0);
    expect(reported.stderr).toContain('browser_crashed');
    expect((await run('tabs')).code).toBe(0);
    const after = await browser();
    expect(after).toMatchObject({ running: true, launches: 2 });
    expect(after.pid).not.toBe(pid);
  });
});
