import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DAEMON_READY_LINE, STATE_FILE } from '@argus/protocol/daemon-state';
import { afterEach, describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
let workspace: string | undefined;
afterEach(() => {
  if (workspace) rmSync(workspace, { recursive: true, force: true });
  workspace = undefined;
});

/** Starts `node dist/main.js` on a state dir, waits for its ready line, SIGTERMs it; resolves with its exit code and token. */
async function runAndTerminate(
  stateDir: string,
  cwd: string,
): Promise<{ code: number | null; token: string; stderr: string }> {
  const child = spawn(process.execPath, [MAIN], {
    cwd,
    env: { ...process.env, ARGUS_STATE_DIR: stateDir, ARGUS_WORKSPACE: cwd },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes(DAEMON_READY_LINE)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`daemon exited (${code}) before it was ready: ${stderr}`)));
    });
    const { token } = JSON.parse(readFileSync(join(stateDir, STATE_FILE), 'utf8')) as { token: string };
    child.kill('SIGTERM');
    return { code: await exited, token, stderr };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

describe('the daemon log of a real daemon process', () => {
  it('is complete after SIGTERM (the asynchronous log is flushed on the way out), 0600, without the token', async () => {
    workspace = mkdtempSync(join(tmpdir(), 'argus-log-'));
    const stateDir = join(workspace, '.argus');
    const { code, token } = await runAndTerminate(stateDir, workspace);
    expect(code).toBe(0);
    const file = join(stateDir, 'daemon.log');
    const text = readFileSync(file, 'utf8');
    const events = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: string; reason?: string });
    expect(events[0]?.event).toBe('daemon.started');
    expect(events.at(-1)).toMatchObject({ event: 'daemon.stopped', reason: 'SIGTERM' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(token).toHaveLength(43);
    expect(text).not.toContain(token);
  });

  it('a log file that cannot be opened costs the log, not the daemon: it runs and exits cleanly on SIGTERM', async () => {
    workspace = mkdtempSync(join(tmpdir(), 'argus-log-'));
    const stateDir = join(workspace, '.argus');
    mkdirSync(join(stateDir, 'daemon.log'), { recursive: true }); // a directory where the file should be
    const { code, stderr } = await runAndTerminate(stateDir, workspace);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
