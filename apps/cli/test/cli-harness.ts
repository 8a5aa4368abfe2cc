import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
}

/**
 * Per test file: a fixture server, a temp workspace whose daemon the CLI auto-starts, and a stop of
 * that daemon at the end.
 */
export function useCli(prefix = 'argus-cli-'): CliHarness {
  let server: FixtureServer | undefined;
  let workspace = '';
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
        env: {
          ...process.env,
          ARGUS_STATE_DIR: harness.stateDir,
          ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9',
        },
        ...(stdin === undefined ? {} : { stdin }),
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
