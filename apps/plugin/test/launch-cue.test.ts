import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { connectToDaemon, isProcessAlive, readState } from '@argus/client';
import { cueBrowserLaunch, startDaemonEarly, takeEarlyStart } from '@argus/client/daemon-spawn';
import { DAEMON_READY_LINE, LAUNCH_CUE_ENV, LAUNCH_CUE_FD } from '@argus/protocol/daemon-state';
import { parentOf, startFixtureServer } from '@argus/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { daemonEntry } from '../src/daemon-entry.js';
import { ok, pluginEnv, startPlugin, stopDaemon, waitFor } from './helpers.js';

// Issue 16: a daemon an MCP server prestarts without Chromium launches it at once when the server
// cues it (the agent's first browser call came while the daemon was still loading), and only then.

let workspace = '';
let stateDir = '';

afterEach(async () => {
  await stopDaemon(stateDir);
  rmSync(workspace, { recursive: true, force: true });
});

function freshWorkspace(): NodeJS.ProcessEnv {
  workspace = mkdtempSync(join(tmpdir(), 'argus-cue-'));
  stateDir = join(workspace, '.argus');
  // as argus-mcp starts it by default: no early Chromium of its own
  return { ...process.env, ...pluginEnv(stateDir), ARGUS_PRELAUNCH: '0' };
}

/** The daemon's browser as its status reports it (a probe: looking, not using). */
async function browserOf(): Promise<{ pid: number | null; running: boolean; launches: number }> {
  const probe = await connectToDaemon({ stateDir, name: 'test-probe' });
  try {
    const { browser } = await probe.client.daemon.status.query({});
    return { pid: browser.pid, running: browser.running, launches: browser.launches };
  } finally {
    probe.close();
  }
}

describe('the launch cue of a daemon started without Chromium', () => {
  it('launches Chromium at once when cued while the daemon loads, with no command, and the first command uses it', async () => {
    const env = freshWorkspace();
    expect(startDaemonEarly({ daemonEntry: daemonEntry(), env, cwd: workspace, launchCue: true })).toBe(true);
    // the agent's first browser call, before the daemon can be up (its ready line is ~0.3 s away)
    cueBrowserLaunch();
    const state = await takeEarlyStart(stateDir)!;
    await waitFor(async () => (await browserOf()).running, 30_000, 'the cued browser');
    const browser = await browserOf();
    expect(browser.launches).toBe(1);
    // launched by the daemon itself, as its own early launch
    expect(parentOf(browser.pid!)).toBe(state.pid);
    const connection = await connectToDaemon({ stateDir, name: 'test' });
    try {
      await connection.client.tabs.list.query({});
      expect(await browserOf()).toMatchObject({ pid: browser.pid, launches: 1 });
    } finally {
      connection.close();
    }
    await stopDaemon(stateDir);
    await waitFor(() => !isProcessAlive(browser.pid!), 20_000, 'Chromium to exit with its daemon');
  });

  it('launches nothing without a cue, and a cue once the daemon is up is not sent', async () => {
    const env = freshWorkspace();
    expect(startDaemonEarly({ daemonEntry: daemonEntry(), env, cwd: workspace, launchCue: true })).toBe(true);
    await takeEarlyStart(stateDir)!;
    // too late: the daemon is up, and the command itself launches the browser
    cueBrowserLaunch();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await browserOf()).toMatchObject({ pid: null, launches: 0 });
  });

  it('ignores a cue that reaches a daemon already serving (its own commands launch the browser)', async () => {
    const env = freshWorkspace();
    const child = spawn(process.execPath, [daemonEntry()], {
      cwd: workspace,
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit', 'pipe'],
      env: { ...env, ARGUS_STATE_DIR: stateDir, [LAUNCH_CUE_ENV]: String(LAUNCH_CUE_FD) },
    });
    const cue = child.stdio[LAUNCH_CUE_FD] as Socket;
    try {
      await new Promise<void>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`the daemon exited (${code})`)));
        createInterface({ input: child.stdout! }).on('line', (line) => {
          if (line.startsWith(DAEMON_READY_LINE)) resolve();
        });
      });
      expect(readState(stateDir)?.pid).toBe(child.pid);
      cue.end('1');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await browserOf()).toMatchObject({ pid: null, launches: 0 });
    } finally {
      cue.destroy();
      child.stdout?.destroy();
      child.unref();
    }
  });
});

describe("a hosted daemon and its agent's first call", () => {
  it("launches Chromium at the first call that comes with `initialized`, before the daemon's modules load", async () => {
    // argus-mcp hosts the daemon (the default) and begins loading it just after `initialized`: one
    // synchronous stretch (~50 ms), which a call already on its way waited behind before its cue
    // launched Chromium. The probe notes, in order, the first require of each built-in module and each
    // process spawned; the daemon's HTTP server module is among what its modules load.
    const env = freshWorkspace();
    delete env['ARGUS_PRELAUNCH'];
    const probe = join(workspace, 'order.cjs');
    writeFileSync(
      probe,
      `const Module = require('node:module'); const cp = require('node:child_process'); const fs = require('node:fs');
const seen = []; const load = Module._load;
Module._load = function (request, ...rest) { if (!seen.includes(request)) seen.push(request); return load.call(this, request, ...rest); };
const spawn = cp.spawn; cp.spawn = function (command, ...rest) { seen.push('spawn ' + command); return spawn.call(this, command, ...rest); };
process.once('exit', () => fs.writeFileSync(${JSON.stringify(join(workspace, 'order.txt'))}, seen.join('\\n')));
`,
    );
    const server = await startFixtureServer();
    const plugin = await startPlugin({
      env: { ...pluginEnv(stateDir), NODE_OPTIONS: `--require ${probe}` },
      cwd: workspace,
    });
    try {
      // at once, as agents do
      await ok(plugin.client, 'argus_goto', { url: server.urlFor('/buttons.html') });
    } finally {
      await plugin.close();
      await server.close();
    }
    await waitFor(() => existsSync(join(workspace, 'order.txt')), 10_000, 'the server to exit');
    const order = readFileSync(join(workspace, 'order.txt'), 'utf8').split('\n');
    const chromium = order.findIndex((entry) => entry.startsWith('spawn ') && /chrom/i.test(entry));
    const http = order.findIndex((entry) => entry === 'http' || entry === 'node:http');
    expect(chromium, order.join(', ')).toBeGreaterThanOrEqual(0);
    expect(http, order.join(', ')).toBeGreaterThan(chromium);
  });
});
