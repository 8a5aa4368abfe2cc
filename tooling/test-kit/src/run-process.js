import { spawn } from 'node:child_process';

/**
 * Runs a command as its own process and collects its output. Asynchronous on purpose: a fixture
 * server living in the test process must keep answering while the child runs (spawnSync would
 * block it).
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, timeoutMs?: number, stdin?: string }} [options] stdin: text written to the child's stdin (else it is closed)
 * @returns {Promise<{ code: number, stdout: string, stderr: string }>}
 */
export function runProcess(command, args, { cwd, env, timeoutMs = 60_000, stdin } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: env ?? process.env,
      stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (stdin !== undefined) child.stdin.end(stdin);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}
