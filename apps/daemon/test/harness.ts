import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ArgusClient, createArgusClient, findRef } from '@argus/client';
import { ArgusError } from '@argus/protocol/errors';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, expect } from 'vitest';
import { type DaemonOptions, type RunningDaemon, startDaemon } from '../src/index.js';

/** Dead proxy: external hosts fail at once on this closed network; loopback is never proxied. */
export const TEST_CHROME_FLAGS = '--proxy-server=http://127.0.0.1:9';

export interface Harness {
  daemon: RunningDaemon;
  client: ArgusClient;
  server: FixtureServer;
  workspace: string;
  close(): Promise<void>;
}

/**
 * A real daemon (in-process) with a real headless Chromium behind it, plus a fixture server. A second
 * daemon can take over an earlier one's workspace and state dir (restart); `resolveHost` answers the
 * browser tier's host lookups (tests that give an invented name a public address).
 */
export async function startHarness(
  env: NodeJS.ProcessEnv = {},
  options: { stateDir?: string; workspace?: string } & Pick<DaemonOptions, 'resolveHost'> = {},
): Promise<Harness> {
  const workspace = options.workspace ?? mkdtempSync(join(tmpdir(), 'argus-ws-'));
  const server = await startFixtureServer();
  const daemon = await startDaemon({
    stateDir: options.stateDir ?? join(workspace, '.argus'),
    workspace,
    env: { ...process.env, ARGUS_CHROME_FLAGS: TEST_CHROME_FLAGS, ...env },
    ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
  });
  const handle = createArgusClient({ url: `http://127.0.0.1:${daemon.port}`, token: daemon.token });
  return {
    daemon,
    client: handle.client,
    server,
    workspace,
    async close() {
      handle.close();
      await daemon.stop('test done');
      await server.close();
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}

/**
 * The ref that follows the first match of `pattern` in a snapshot (works when a line carries
 * several elements, e.g. `link "Home" e1 "News" e2`).
 */
export function refOf(snapshot: string, pattern: RegExp): string {
  const ref = findRef(snapshot, pattern);
  if (!ref) throw new Error(`No element matching ${pattern} with a ref in:\n${snapshot}`);
  return ref;
}

/**
 * Starts one harness for the test file (beforeAll) and closes it (afterAll); the returned object
 * reads through to the running harness.
 */
export function useHarness(env: NodeJS.ProcessEnv = {}, options: Pick<DaemonOptions, 'resolveHost'> = {}): Harness {
  let current: Harness | undefined;
  beforeAll(async () => {
    current = await startHarness(env, options);
  });
  afterAll(async () => {
    await current?.close();
  });
  const get = (): Harness => {
    if (!current) throw new Error('The harness is not started yet (use it inside tests or hooks)');
    return current;
  };
  return {
    get daemon() {
      return get().daemon;
    },
    get client() {
      return get().client;
    },
    get server() {
      return get().server;
    },
    get workspace() {
      return get().workspace;
    },
    close: () => get().close(),
  };
}

/** The ArgusError code a call fails with (fails the test when the call succeeds). */
/** The typed error a call fails with (it must fail, with an ArgusError). */
export async function failure(promise: Promise<unknown>): Promise<ArgusError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ArgusError);
    return error as ArgusError;
  }
  throw new Error('expected the call to fail');
}

/** The code of the typed error a call fails with. */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  return (await failure(promise)).code;
}

/**
 * A second fixture server on another site (`localhost`; the harness serves 127.0.0.1), started before
 * the file's tests and closed after: an iframe from it runs out of process.
 */
export function useOtherSite(): { readonly server: FixtureServer } {
  let site: FixtureServer | undefined;
  beforeAll(async () => {
    site = await startFixtureServer({ hostname: 'localhost' });
  });
  afterAll(async () => {
    await site?.close();
  });
  return {
    get server() {
      if (!site) throw new Error('The other site is not started yet (use it inside tests or hooks)');
      return site;
    },
  };
}
