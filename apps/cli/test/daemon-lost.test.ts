import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { connectToDaemon } from '@argus/client';
import { ArgusError } from '@argus/protocol/errors';
import { listArgusChromeProcesses, processGroupMembers, waitUntil } from '@argus/test-kit';
import { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { CLI, useCli } from './cli-harness.js';

const cli = useCli('argus-cli-lost-');

describe('a daemon killed in the middle of a command', () => {
  it('the CLI reports daemon_lost (exit 1) and never runs the command twice; the browser and its profile die with the daemon; the next command starts a new daemon', async () => {
    // the page script reports each run of the command here
    let hits = 0;
    let onHit: () => void = () => {};
    const counter = createServer((_req, res) => {
      hits++;
      onHit();
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve));
    const hitUrl = `http://127.0.0.1:${(counter.address() as AddressInfo).port}/hit`;
    let daemonPid: number | undefined;
    try {
      expect((await cli.argus('goto', cli.server.urlFor('/nav-a.html'))).code).toBe(0);
      const state = JSON.parse(readFileSync(join(cli.stateDir, 'daemon.json'), 'utf8')) as { pid: number };
      daemonPid = state.pid;
      // the daemon's Chromium (launched by the CLI and handed to the daemon, so not its child)
      const status = JSON.parse((await cli.argus('status', '--json')).stdout) as { browser: { pid: number } };
      const browser = listArgusChromeProcesses().find((proc) => proc.pid === status.browser.pid);
      if (!browser) throw new Error(`no Chromium of daemon ${state.pid}`);
      const profile = browser.userDataDir;
      // Chrome leads its own process group: the browser plus its zygotes, renderers and utilities
      expect(processGroupMembers(browser.pid).length).toBeGreaterThan(1);
      expect(existsSync(profile)).toBe(true);

      // SIGKILL the daemon once the command has demonstrably started running in the page
      onHit = () => process.kill(state.pid, 'SIGKILL');
      const result = await cli.argus(
        'eval',
        `fetch(${JSON.stringify(hitUrl)}, { mode: 'no-cors' }).then(() => new Promise((r) => setTimeout(r, 20000)))`,
      );
      expect(result.stderr).toMatch(/error\[daemon_lost\]/);
      expect(result.stderr).toMatch(/may or may not have run/);
      expect(result.code).toBe(1);
      // no retry: the command ran once and no fresh daemon was started for it
      expect(hits).toBe(1);
      expect(JSON.parse(readFileSync(join(cli.stateDir, 'daemon.json'), 'utf8')).pid).toBe(state.pid);

      // the watchdog kills the browser's whole process group and removes its profile
      await waitUntil(() => processGroupMembers(browser.pid).length === 0, 10_000, "Chrome's process group to be gone");
      expect(listArgusChromeProcesses().filter((proc) => proc.userDataDir === profile)).toEqual([]);
      await waitUntil(() => !existsSync(profile), 10_000, 'the temp profile to be removed');

      // the next command starts a fresh daemon and runs
      const next = await cli.argus('goto', cli.server.urlFor('/nav-b.html'));
      expect(next.code).toBe(0);
      expect(JSON.parse(readFileSync(join(cli.stateDir, 'daemon.json'), 'utf8')).pid).not.toBe(state.pid);
    } finally {
      counter.close();
      // a failed assertion above may leave the daemon alive: end it (its watchdog then ends Chrome)
      if (daemonPid !== undefined) {
        try {
          process.kill(daemonPid, 'SIGKILL');
        } catch {
          // already dead, as it should be
        }
      }
      // the killed daemon's state file would make the harness start one just to stop it; the fresh
      // daemon is stopped here (the next test replaces the state file)
      const file = join(cli.stateDir, 'daemon.json');
      const current = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { pid: number }).pid : undefined;
      if (current === daemonPid) rmSync(file, { force: true });
      else if (current !== undefined) await cli.argus('stop');
    }
  });

  it('a command that never reached a daemon (connection refused) is retried on a fresh one', async () => {
    // a state file naming a live pid (this test process) and a port nothing listens on
    const idle = createServer();
    await new Promise<void>((resolve) => idle.listen(0, '127.0.0.1', resolve));
    const port = (idle.address() as AddressInfo).port;
    await new Promise<void>((resolve) => idle.close(() => resolve()));
    writeFileSync(
      join(cli.stateDir, 'daemon.json'),
      JSON.stringify({
        port,
        pid: process.pid,
        token: 'stale',
        version: '0',
        workspace: cli.workspace,
        startedAt: new Date().toISOString(),
      }),
    );
    const result = await cli.argus('goto', cli.server.urlFor('/nav-b.html'));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Page B/);
  });

  it('a slow wait prints progress on stderr', async () => {
    const result = await cli.argus('goto', cli.server.urlFor('/slow?ms=3000'));
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(new RegExp(`waiting for 127\\.0\\.0\\.1:${cli.server.port} … \\d+ s`));
  });
});

/** The pid of the daemon the state file names now. */
const daemonPid = () => (JSON.parse(readFileSync(join(cli.stateDir, 'daemon.json'), 'utf8')) as { pid: number }).pid;

/** A running daemon (started by a page command) and its Chromium's pid. */
async function startedDaemon(): Promise<{ pid: number; browser: number }> {
  expect((await cli.argus('goto', cli.server.urlFor('/nav-a.html'))).code).toBe(0);
  const status = JSON.parse((await cli.argus('status', '--json')).stdout) as { browser: { pid: number } };
  return { pid: daemonPid(), browser: status.browser.pid };
}

/**
 * After a test killed the daemon: its watchdog ends its Chromium (waited for, so none outlives the
 * file), and its state file goes (the next command's daemon would otherwise wait on a dead one).
 */
async function forget(daemon: { pid: number; browser: number }): Promise<void> {
  try {
    process.kill(daemon.pid, 'SIGKILL');
  } catch {
    // already dead, as it should be
  }
  await waitUntil(() => processGroupMembers(daemon.browser).length === 0, 10_000, "Chrome's process group to be gone");
  if (existsSync(join(cli.stateDir, 'daemon.json')) && daemonPid() === daemon.pid)
    rmSync(join(cli.stateDir, 'daemon.json'));
}

// A stream (`console --follow`, the typed client's .subscribe()) whose daemon is SIGKILLed. Before, tRPC
// resubscribed on a new socket to the dead daemon's port for ever: the CLI hung, silent, and a script's
// stream never ended.
describe('a daemon killed under a running stream', () => {
  it('the CLI stream fails with daemon_lost, says the next command starts a new daemon, and exits 1', async () => {
    const daemon = await startedDaemon();
    const follow = spawn(process.execPath, [CLI, 'console', '--follow'], {
      cwd: cli.workspace,
      env: { ...process.env, ARGUS_STATE_DIR: cli.stateDir, ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let stderr = '';
      const exited = new Promise<number | null>((resolve) => follow.once('close', (code) => resolve(code)));
      // killed once the stream has started (the CLI says so on stderr)
      await new Promise<void>((resolve) =>
        follow.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString('utf8');
          if (stderr.includes('following argus console --follow')) resolve();
        }),
      );
      process.kill(daemon.pid, 'SIGKILL');
      const code = await exited;
      expect(stderr).toMatch(
        /^error\[daemon_lost\]: The Argus daemon went away during the stream .*The next argus command starts a new daemon/m,
      );
      expect(code).toBe(1);
    } finally {
      follow.kill('SIGKILL');
      await forget(daemon);
    }
  });

  it("the typed client's subscription fails with daemon_lost", async () => {
    const daemon = await startedDaemon();
    const connection = await connectToDaemon({ stateDir: cli.stateDir, cwd: cli.workspace, WebSocket });
    try {
      const ended = await new Promise<unknown>((resolve) => {
        connection.client.capture.consoleFollow.subscribe(
          {},
          {
            onStarted: () => process.kill(daemon.pid, 'SIGKILL'),
            onError: resolve,
            onComplete: () => resolve('completed'),
            onStopped: () => resolve('stopped'),
          },
        );
      });
      expect(ended).toBeInstanceOf(ArgusError);
      expect(ended).toMatchObject({
        code: 'daemon_lost',
        message: expect.stringMatching(/went away during the stream/),
      });
    } finally {
      connection.close();
      await forget(daemon);
    }
  });
});
