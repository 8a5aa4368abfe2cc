import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { constants as osConstants, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FixtureServer, runProcess, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll } from 'vitest';

export const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'argus.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliHarness {
  readonly server: FixtureServer;
  readonly workspace: string;
  readonly stateDir: string;
  /** Runs `argus <args>` as its own process (async: the fixture server lives in this process). */
  argus(...args: string[]): Promise<CliResult>;
  /** The same, with `stdin` written to its standard input. */
  argusWithStdin(stdin: string | undefined, ...args: string[]): Promise<CliResult>;
  /**
   * Runs `argus <args>` with its stdout read by a reader that goes away (`| head -c N`): the pipe is
   * closed once `readBytes` have arrived (0: before the CLI writes anything). Resolves on exit.
   */
  argusIntoClosingPipe(readBytes: number, ...args: string[]): Promise<CliResult & { read: number }>;
}

/**
 * Per test file: a fixture server, a temp workspace whose daemon the CLI auto-starts, and a stop of
 * that daemon at the end.
 */
export function useCli(prefix = 'argus-cli-'): CliHarness {
  let server: FixtureServer | undefined;
  let workspace = '';
  const env = () => ({
    ...process.env,
    ARGUS_STATE_DIR: harness.stateDir,
    ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9',
  });
  const harness: CliHarness = {
    get server() {
      if (!server) throw new Error('The CLI harness is not started yet');
      return server;
    },
    get workspace() {
      return workspace;
    },
    get stateDir() {
      return join(workspace, '.argus');
    },
    argus: (...args) => harness.argusWithStdin(undefined, ...args),
    argusWithStdin: (stdin: string | undefined, ...args: string[]) =>
      runProcess(process.execPath, [CLI, ...args], {
        cwd: workspace,
        env: env(),
        ...(stdin === undefined ? {} : { stdin }),
      }),
    argusIntoClosingPipe: (readBytes, ...args) =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [CLI, ...args], {
          cwd: workspace,
          env: env(),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let read = 0;
        let stdout = '';
        let stderr = '';
        const close = () => child.stdout.destroy();
        child.stdout.on('data', (chunk: Buffer) => {
          read += chunk.length;
          stdout += chunk.toString('utf8');
          if (read >= readBytes) close();
        });
        if (readBytes === 0) close();
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
        child.once('error', reject);
        // a process killed by a signal reports 128 + its number, as a shell does
        child.once('close', (code, signal) =>
          resolve({ code: code ?? 128 + (signal ? osConstants.signals[signal] : 0), stdout, stderr, read }),
        );
      }),
  };
  beforeAll(async () => {
    server = await startFixtureServer();
    workspace = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    if (existsSync(join(harness.stateDir, 'daemon.json'))) await harness.argus('stop');
    await server?.close();
    rmSync(workspace, { recursive: true, force: true });
  });
  return harness;
}
