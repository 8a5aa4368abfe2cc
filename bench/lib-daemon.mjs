// A real daemon process for the load benches (memory, soak): its own workspace and state dir,
// headless Chromium behind the dead proxy, optionally Node's inspector on loopback (forced GC and
// heap snapshots). The caller gets the port, token, pid and a stop() that ends the process and
// removes the workspace.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * @param {{ inspect?: boolean, prefix?: string, env?: Record<string, string> }} [options]
 */
export async function startDaemonProcess({ inspect = false, prefix = 'argus-bench-', env = {} } = {}) {
  const workspace = mkdtempSync(join(tmpdir(), prefix));
  const stateDir = join(workspace, '.argus');
  // the daemon's own temp dir (Chromium's profile goes there): empty after stop, or something leaked
  const tempDir = join(workspace, 'tmp');
  mkdirSync(tempDir);
  const daemonMain = createRequire(import.meta.url).resolve('@argus/daemon/main');
  const child = spawn(process.execPath, [...(inspect ? ['--inspect=127.0.0.1:0'] : []), daemonMain], {
    env: {
      ...process.env,
      ARGUS_STATE_DIR: stateDir,
      ARGUS_WORKSPACE: workspace,
      ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9',
      TMPDIR: tempDir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const inspectorUrl = inspect ? await lineMatching(child.stderr, /ws:\/\/127\.0\.0\.1:\d+\/[\w-]+/) : undefined;
  const port = Number((await lineMatching(child.stdout, /argus-daemon ready port=(\d+)/, 1)) ?? 0);
  const { token } = JSON.parse(readFileSync(join(stateDir, 'daemon.json'), 'utf8'));
  return {
    pid: child.pid,
    port,
    token,
    url: `http://127.0.0.1:${port}`,
    workspace,
    stateDir,
    inspectorUrl,
    /** Resident set size of the daemon process (not its Chromium), in MB. */
    rssMb() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    },
    /**
     * SIGTERM (the daemon closes Chromium), wait for the exit, remove the workspace. Returns what the
     * daemon left in its temp dir (Chromium profiles it did not remove).
     */
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      const leftTemp = readdirSync(tempDir);
      rmSync(workspace, { recursive: true, force: true, maxRetries: 5 });
      return { leftTemp };
    },
  };
}

/** Resolves with the first match (or capture group) of `pattern` in a stream's output. */
export function lineMatching(stream, pattern, group = 0) {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk) => {
      buffer += chunk;
      const match = pattern.exec(buffer);
      if (match) {
        stream.off('data', onData);
        resolve(match[group]);
      }
    };
    stream.setEncoding('utf8');
    stream.on('data', onData);
    stream.once('end', () => reject(new Error(`stream ended before ${pattern}: ${buffer.slice(-500)}`)));
  });
}
