import { createServer, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createArgusClient } from '@argus/client';
import { afterAll, describe, expect, it } from 'vitest';
import { startDaemon } from '../src/index.js';
import { TEST_CHROME_FLAGS } from './harness.js';

describe('stop with a provider request in flight', () => {
  const held: ServerResponse[] = [];
  let server: Server | undefined;
  let workspace: string | undefined;
  afterAll(async () => {
    for (const res of held) res.destroy();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  it('ends the request and stops at once, not after the fetch timeout', async () => {
    let arrived: () => void = () => undefined;
    const requested = new Promise<void>((resolve) => (arrived = resolve));
    // answers nothing: the request hangs until someone ends the connection
    server = createServer((_req, res) => {
      held.push(res);
      arrived();
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    workspace = mkdtempSync(join(tmpdir(), 'argus-stop-'));
    const daemon = await startDaemon({
      stateDir: join(workspace, '.argus'),
      workspace,
      env: { ...process.env, ARGUS_CHROME_FLAGS: TEST_CHROME_FLAGS },
    });
    const handle = createArgusClient({ url: `http://127.0.0.1:${daemon.port}`, token: daemon.token });
    const fetching = handle.client.web.fetch
      .query({ url: `http://127.0.0.1:${port}/hang`, http: true, timeoutMs: 60_000 })
      .then(
        () => 'answered',
        () => 'failed',
      );
    await requested;
    const started = Date.now();
    await daemon.stop('test: stop with a fetch in flight');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await fetching).toBe('failed');
    handle.close();
  }, 30_000);
});
