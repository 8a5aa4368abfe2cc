import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ArgusClient, createArgusClient, isProcessAlive } from '@argus/client';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { type RunningDaemon, startDaemon } from '../src/index.js';
import { launchUserBrowser, pairUserBrowser, type UserBrowser, waitUntil } from './extension-harness.js';

/** A daemon in extension mode, paired with the user's own Chromium (the extension loaded), and a fixture server. */
export interface PairedExtension {
  server: FixtureServer;
  daemon: RunningDaemon;
  client: ArgusClient;
  user: UserBrowser;
  /** Opens a tab as the user would, waits until the daemon lists it and makes it the active one. */
  openUserTab(path: string): Promise<string>;
  /** Stops everything; throws if the user's Chromium outlived it. */
  close(): Promise<void>;
}

/**
 * The set-up every extension-mode test repeats: fixture server, a daemon whose relay takes a fresh
 * launch token (port 0, external hosts behind a dead proxy), the user's browser, paired.
 */
export async function startPairedExtension(
  name: string,
  options: { clientName?: string } = {},
): Promise<PairedExtension> {
  const launchToken = randomBytes(24).toString('base64url');
  const server = await startFixtureServer();
  const workspace = mkdtempSync(join(tmpdir(), `argus-${name}-`));
  let daemon: RunningDaemon | undefined;
  let handle: ReturnType<typeof createArgusClient> | undefined;
  let user: UserBrowser | undefined;
  const close = async () => {
    handle?.close();
    await daemon?.stop('test done');
    const pid = user?.pid;
    await user?.close();
    await server.close();
    rmSync(workspace, { recursive: true, force: true });
    if (pid && isProcessAlive(pid)) throw new Error(`the user's Chromium (pid ${pid}) is still running`);
  };
  try {
    daemon = await startDaemon({
      stateDir: join(workspace, '.argus'),
      workspace,
      env: {
        ...process.env,
        ARGUS_CHROME_FLAGS: '--proxy-server=http://127.0.0.1:9',
        ARGUS_RELAY_PORT: '0',
        ARGUS_RELAY_LAUNCH_TOKEN: launchToken,
      },
    });
    handle = createArgusClient({
      url: `http://127.0.0.1:${daemon.port}`,
      token: daemon.token,
      name: options.clientName,
    });
    const { client } = handle;
    user = await launchUserBrowser();
    await pairUserBrowser(client, user, launchToken);
    const browser = user;
    return {
      server,
      daemon,
      client,
      user,
      async openUserTab(path) {
        const tab = await browser.openTab(server.urlFor(path));
        await waitUntil(
          async () => (await client.tabs.list.query({})).tabs.some((listed) => listed.id === tab),
          10_000,
          `the user tab ${path} in \`tabs\``,
        );
        await client.tabs.select.mutate({ id: tab });
        return tab;
      },
      close,
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
