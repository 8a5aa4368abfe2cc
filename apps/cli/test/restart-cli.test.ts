// `argus restart` launches the new daemon's Chromium at the CLI's first line, while the old daemon
// saves its session and stops, and hands it to the new daemon; a profile from the flags
// (`--user-data-dir`), still the old Chrome's, is launched only by the new daemon, after the old one
// has exited. Checked with /proc start times and parents (Linux), as a user runs the CLI.
import { mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isProcessAlive, readState } from '@argus/client';
import {
  type FixtureServer,
  parentOf,
  procStatFields,
  processGroupMembers,
  runProcess,
  startFixtureServer,
  waitUntil,
} from '@argus/test-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from './cli-harness.js';

const linux = process.platform === 'linux';
let server: FixtureServer;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** The process's start, in ms since the epoch (Linux /proc: clock ticks since boot, 100 a second). */
function startedAt(pid: number): number {
  const ticks = Number(procStatFields(pid)[19]);
  const uptime = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
  return Date.now() - uptime * 1000 + ticks * 10;
}

/** Live processes whose working directory is `dir`: the daemons the CLI started there, and their browsers. */
function processesIn(dir: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/cwd`).startsWith(dir) && isProcessAlive(pid);
      } catch {
        return false; // gone, or not ours to read
      }
    });
}

/** When `pid` is first seen gone (polled every 5 ms until `stop` is called). */
function watchExit(pid: number): { goneAt(): number | undefined; stop(): void } {
  let gone: number | undefined;
  const timer = setInterval(() => {
    if (gone === undefined && !isProcessAlive(pid)) gone = Date.now();
  }, 5);
  return { goneAt: () => gone, stop: () => clearInterval(timer) };
}

function workspace(flags: string) {
  const dir = mkdtempSync(join(tmpdir(), 'argus-restart-'));
  const env = { ...process.env, ARGUS_STATE_DIR: join(dir, '.argus'), ARGUS_CHROME_FLAGS: flags };
  const run = (...args: string[]) => runProcess(process.execPath, [CLI, ...args], { cwd: dir, env });
  const browsers = new Set<number>();
  const browserPid = async () => {
    const status = JSON.parse((await run('status', '--json')).stdout) as { browser: { pid: number | null } };
    const pid = status.browser.pid;
    if (pid === null) throw new Error('no browser running');
    browsers.add(pid);
    return pid;
  };
  cleanups.push(async () => {
    await run('stop');
    // a daemon that came up after its CLI stopped waiting (a loaded machine) is stopped too
    await waitUntil(
      async () => {
        if (!processesIn(dir).length) return true;
        await run('stop');
        return false;
      },
      30_000,
      `the daemons of ${dir} to exit`,
    );
    // every browser this workspace had is gone, helpers and all
    for (const pid of browsers)
      await waitUntil(() => processGroupMembers(pid).length === 0, 10_000, `browser ${pid} and its helpers to exit`);
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  });
  return { dir, run, browserPid, daemonPid: () => readState(join(dir, '.argus'))?.pid };
}

/** Runs `argus restart` and times what it is about: when the old daemon and its browser were gone. */
async function restart(space: ReturnType<typeof workspace>) {
  const oldDaemon = space.daemonPid()!;
  const oldBrowser = await space.browserPid();
  const daemonExit = watchExit(oldDaemon);
  const browserExit = watchExit(oldBrowser);
  const result = await space.run('restart');
  daemonExit.stop();
  browserExit.stop();
  expect(result.code, result.stderr).toBe(0);
  const newBrowser = await space.browserPid();
  return {
    result,
    newDaemon: space.daemonPid()!,
    newBrowser,
    newBrowserStarted: startedAt(newBrowser),
    oldDaemonGone: daemonExit.goneAt() ?? 0,
    oldBrowserGone: browserExit.goneAt() ?? 0,
  };
}

describe.runIf(linux)('argus restart', () => {
  it("launches the new daemon's browser while the old daemon stops, and comes back with its tabs and cookies", async () => {
    const space = workspace('--proxy-server=http://127.0.0.1:9');
    expect((await space.run('goto', server.urlFor('/set-cookie?name=kept&value=1'))).code).toBe(0);
    expect((await space.run('goto', server.urlFor('/nav-a.html'))).code).toBe(0);
    const restarted = await restart(space);
    // handed over by the CLI that launched it (its parent is gone), not launched by the new daemon...
    expect(parentOf(restarted.newBrowser)).not.toBe(restarted.newDaemon);
    // ...and started before the old daemon had exited (before: only once it had)
    expect(restarted.oldDaemonGone).toBeGreaterThan(0);
    expect(restarted.newBrowserStarted).toBeLessThan(restarted.oldDaemonGone);
    expect(restarted.result.stdout).toContain(server.urlFor('/nav-a.html'));
    expect((await space.run('url')).stdout).toContain('/nav-a.html');
    expect((await space.run('eval', 'document.cookie')).stdout).toContain('kept=1');
  });

  it('with a profile from ARGUS_CHROME_FLAGS, waits for the old browser to exit, and its persistent cookie survives', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'argus-flag-profile-'));
    try {
      // Chromium takes the last --user-data-dir: this one replaces the daemon's temp profile
      const space = workspace(`--proxy-server=http://127.0.0.1:9 --user-data-dir=${profile}`);
      const setCookie = server.urlFor('/set-cookie?name=login&value=kept&max-age=86400');
      expect((await space.run('goto', setCookie)).code).toBe(0);
      const restarted = await restart(space);
      // the old Chrome holds the profile (its lock, its cookie store written at exit): the new daemon
      // launches its own browser (it is its parent), and the CLI starts that daemon only once the old
      // one, its browser closed, has exited
      expect(parentOf(restarted.newBrowser)).toBe(restarted.newDaemon);
      expect(restarted.oldBrowserGone).toBeGreaterThan(0);
      expect((await space.run('goto', server.urlFor('/nav-b.html'))).code).toBe(0);
      expect((await space.run('eval', 'document.cookie')).stdout).toContain('login=kept');
      // and it was written to the profile itself: a stop and a fresh start (nothing carried over) still have it
      expect((await space.run('stop')).code).toBe(0);
      expect((await space.run('goto', server.urlFor('/nav-a.html'))).code).toBe(0);
      expect((await space.run('eval', 'document.cookie')).stdout).toContain('login=kept');
      await space.browserPid();
    } finally {
      // the workspace's cleanup (stop) runs after this test; the profile goes after it
      cleanups.push(async () => rmSync(profile, { recursive: true, force: true, maxRetries: 5 }));
    }
  });
});
