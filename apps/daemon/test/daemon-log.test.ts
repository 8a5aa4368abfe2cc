import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
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

describe('the daemon log of a real daemon process', () => {
  it('is complete after SIGTERM (the asynchronous log is flushed on the way out), 0600, without the token', async () => {
    workspace = mkdtempSync(join(tmpdir(), 'argus-log-'));
    const stateDir = join(workspace, '.argus');
    const child = spawn(process.execPath, [MAIN], { cwd: workspace, env: { ...process.env, ARGUS_STATE_DIR: stateDir, ARGUS_WORKSPACE: workspace }, stdio: ['ignore', 'pipe', 'pipe'] });
    let token = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes(DAEMON_READY_LINE)) resolve();
        });
        child.once('exit', (code) => reject(new Error(`daemon exited (${code}) before it was ready`)));
      });
      ({ token } = JSON.parse(readFileSync(join(stateDir, STATE_FILE), 'utf8')) as { token: string });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    const file = join(stateDir, 'daemon.log');
    const text = readFileSync(file, 'utf8');
    const events = text.trim().split('\n').map((line) => JSON.parse(line) as { event: string; reason?: string });
    expect(events[0]?.event).toBe('daemon.started');
    expect(events.at(-1)).toMatchObject({ event: 'daemon.stopped', reason: 'SIGTERM' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(token).toHaveLength(43);
    expect(text).not.toContain(token);
  });
});
