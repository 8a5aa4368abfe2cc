import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isProcessAlive } from '@argus/client';
import { runProcess } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchUserBrowser, type UserBrowser, waitUntil } from './extension-harness.js';
import { type Harness, startHarness } from './harness.js';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'cli', 'dist', 'argus.js');
/** Another extension's origin, forged by a local script (a real other extension would send its own). */
const OTHER_EXTENSION = 'chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba';

interface PendingJson {
  code: string;
  nodeId: string;
  origin: string | null;
  fromExtension: boolean;
  fingerprint: string;
}

describe('pairing-slot flood (issue 11 #4): local scripts fill the relay, the real extension still pairs', () => {
  let h: Harness;
  let user: UserBrowser;
  const argus = (...args: string[]) =>
    runProcess(process.execPath, [CLI, ...args], {
      env: { ...process.env, ARGUS_STATE_DIR: h.daemon.stateDir },
      timeoutMs: 30_000,
    });

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('Build the CLI first: pnpm --filter @argus/cli build');
    // no launch token: the extension must be approved by code, the path a flood used to block
    h = await startHarness({ ARGUS_RELAY_PORT: '0', ARGUS_RELAY_LAUNCH_TOKEN: '' });
    user = await launchUserBrowser();
  });

  afterAll(async () => {
    const pid = user?.pid;
    await user?.close();
    await h?.close();
    if (pid) expect(isProcessAlive(pid)).toBe(false);
  });

  it('floods /pair without an Origin and with another extension origin, then pairs the real extension by code', async () => {
    const connect = await argus('connect', '--extension');
    expect(connect.stderr).toBe('');
    const relayUrl = (await h.client.daemon.status.query({})).extension?.relayUrl ?? '';
    expect(relayUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    // the attack: a local process asks for pairing over and over, with node ids that look legitimate
    const flood = async (origin: string | undefined, count: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < count; i++) {
        const response = await fetch(`${relayUrl}/pair`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
          body: JSON.stringify({ version: 1, nodeId: `node-argus-extension-${i}`, name: 'Argus extension' }),
        });
        statuses.push(response.status);
      }
      return statuses;
    };
    const local = await flood(undefined, 30);
    const other = await flood(OTHER_EXTENSION, 10);
    expect(local.filter((status) => status === 200)).toHaveLength(4);
    expect(other.filter((status) => status === 200)).toHaveLength(2);
    expect([...local, ...other].filter((status) => status !== 200).every((status) => status === 429)).toBe(true);

    // the real extension, in real Chromium, asks to pair by code while the flood's requests are pending
    await user.configure({ relayUrl });
    // the extension creates its node id when it first asks to pair, so read it once the request is in
    let nodeId = '';
    let real: PendingJson | undefined;
    await waitUntil(
      async () => {
        const listed = JSON.parse((await argus('pair', '--json')).stdout) as { pending: PendingJson[] };
        real = listed.pending.find((request) => request.fromExtension && request.origin !== OTHER_EXTENSION);
        nodeId =
          ((await user.evalInWorker(`chrome.storage.local.get('nodeId').then((v) => v.nodeId)`)) as
            | string
            | undefined) ?? '';
        return real !== undefined && nodeId !== '';
      },
      20_000,
      'the extension pairing request',
    );
    if (!real) throw new Error('unreachable');
    expect(real.nodeId).toBe(nodeId);
    expect(real.origin).toMatch(/^chrome-extension:\/\/[a-p]{32}$/);

    // `argus pair` shows who asks: origin and fingerprint, and flags requests from local processes
    const text = await argus('pair');
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    const realLine = lines.find((line) => line.includes(real?.code ?? '?'));
    expect(realLine).toContain(`from extension ${real.origin}`);
    expect(realLine).toContain(`fingerprint ${real.fingerprint}`);
    expect(lines.filter((line) => line.includes('from LOCAL PROCESS'))).toHaveLength(4);
    expect(text.stdout).toMatch(/4 request\(s\) came from local processes, not from a browser extension/);

    const approved = await argus('pair', real.code);
    expect(approved.stdout).toContain(`approved ${real.code}`);
    await h.client.session.connect.mutate({ extension: true, timeoutMs: 15_000 });
    await waitUntil(
      async () => (await h.client.daemon.status.query({})).extension?.connected === true,
      15_000,
      'the extension to connect',
    );
    expect((await h.client.daemon.status.query({})).extension).toMatchObject({ connected: true, nodeId });

    // and it drives the user's browser
    const tab = await user.openTab(h.server.urlFor('/nav-a.html'));
    await waitUntil(
      async () => (await h.client.tabs.list.query({})).tabs.some((listed) => listed.id === tab),
      10_000,
      'the user tab',
    );
    await h.client.tabs.select.mutate({ id: tab });
    expect((await h.client.page.url.query({})).url).toContain('/nav-a.html');
    await h.client.session.connect.mutate({ managed: true });
  });
});
