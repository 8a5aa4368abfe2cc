import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ArgusError } from '@argus/protocol';
import { runProcess } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'cli', 'dist', 'argus.js');
// the user file lives in a temp XDG_CONFIG_HOME, so no developer's own relay.port leaks in
const xdg = mkdtempSync(join(tmpdir(), 'argus-xdg-'));
afterAll(() => rmSync(xdg, { recursive: true, force: true }));
// no ARGUS_RELAY_PORT: the environment layer would beat the project file this test edits
const h = useHarness({ XDG_CONFIG_HOME: xdg, ARGUS_RELAY_PORT: undefined });

/** A port nothing listens on right now (the kernel's pick, released at once). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Whether a relay answers on this port (its unauthenticated GET /config). */
async function relayAnswers(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/config`);
    return response.ok && typeof ((await response.json()) as { endpoints?: unknown }).endpoints === 'object';
  } catch {
    return false;
  }
}

describe('a running daemon picks up the relay port a later command asks for (issue 13)', () => {
  const argus = (...args: string[]) =>
    runProcess(process.execPath, [CLI, ...args], {
      env: { ...process.env, ARGUS_STATE_DIR: h.daemon.stateDir },
      timeoutMs: 30_000,
    });

  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('Build the CLI first: pnpm --filter @argus/cli build');
  });

  it('relay.port set while the daemon runs: the next connect --extension moves the relay there', async () => {
    const [a, b] = [await freePort(), await freePort()];
    await h.client.config.set.mutate({ key: 'relay.port', value: String(a) });
    const first = await h.client.session.connect.mutate({ extension: true });
    expect(first.extension.relayUrl).toBe(`http://127.0.0.1:${a}`);
    expect(await relayAnswers(a)).toBe(true);

    await h.client.config.set.mutate({ key: 'relay.port', value: String(b) });
    const moved = await h.client.session.connect.mutate({ extension: true });
    expect(moved.extension).toMatchObject({ relayUrl: `http://127.0.0.1:${b}`, state: 'waiting_for_extension' });
    expect(await relayAnswers(b)).toBe(true);
    expect(await relayAnswers(a)).toBe(false);
    expect((await h.client.daemon.status.query({})).extension?.relayUrl).toBe(`http://127.0.0.1:${b}`);
  });

  it('`argus connect --extension --relay-port N` from the CLI moves it, and it stays there over the config', async () => {
    const before = Number(new URL((await h.client.daemon.status.query({})).extension?.relayUrl ?? '').port);
    const c = await freePort();
    const cli = await argus('connect', '--extension', '--relay-port', String(c));
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    expect(await relayAnswers(c)).toBe(true);
    expect(await relayAnswers(before)).toBe(false);
    // `pair` (which also ensures the relay) keeps the port the command asked for
    await argus('pair');
    expect((await h.client.daemon.status.query({})).extension?.relayUrl).toBe(`http://127.0.0.1:${c}`);
  });

  it('a taken port is refused with what to do, and the relay stays where it was', async () => {
    const url = (await h.client.daemon.status.query({})).extension?.relayUrl ?? '';
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as { port: number }).port;
    try {
      const error = await h.client.session.connect
        .mutate({ extension: true, relayPort: taken })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ArgusError);
      expect((error as ArgusError).code).toBe('browser_not_found');
      expect((error as ArgusError).message).toMatch(
        new RegExp(`Port ${taken} .*in use.*--relay-port.*stays on ${url.replace(/[.]/g, '\\.')}`),
      );
      expect((await h.client.daemon.status.query({})).extension?.relayUrl).toBe(url);
      expect(await relayAnswers(Number(new URL(url).port))).toBe(true);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it('--relay-port without extension mode is refused', async () => {
    await h.client.session.connect.mutate({ managed: true });
    const error = await h.client.session.connect.mutate({ managed: true, relayPort: 9 }).catch((e: unknown) => e);
    expect((error as ArgusError).code).toBe('invalid_input');
    expect((error as ArgusError).message).toMatch(/--relay-port goes with --extension/);
  });
});
