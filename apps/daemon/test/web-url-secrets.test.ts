import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createArgusClient } from '@argus/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type RunningDaemon } from '../src/index.js';
import { failure, TEST_CHROME_FLAGS } from './harness.js';

const PASSWORD = 'PWSECRET42';
const TOKEN = 'TOKSECRET99';

/** Every byte SQLite keeps for the journal. */
function journalBytes(stateDir: string): string {
  const base = join(stateDir, 'journal.db');
  return [base, `${base}-wal`, `${base}-shm`]
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file).toString('latin1'))
    .join('');
}

describe('secrets in fetched URLs (password, token query values)', () => {
  let server: Server;
  let port = 0;
  let daemon: RunningDaemon;
  let workspace: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const status = req.url?.startsWith('/ok') ? 200 : 404;
      res.writeHead(status, { 'content-type': 'text/html' });
      res.end(`<html><body><h1>Status ${status}</h1><p>A page with <a href="/next">a link</a>.</p></body></html>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
    workspace = mkdtempSync(join(tmpdir(), 'argus-secrets-'));
    daemon = await startDaemon({
      stateDir: join(workspace, '.argus'),
      workspace,
      env: { ...process.env, ARGUS_CHROME_FLAGS: TEST_CHROME_FLAGS },
    });
  });
  afterAll(async () => {
    await daemon.stop('test done').catch(() => undefined);
    await new Promise((resolve) => server.close(resolve));
    rmSync(workspace, { recursive: true, force: true });
  });

  it('never reach the output, the error message, the journal or daemon.log', async () => {
    const handle = createArgusClient({ url: `http://127.0.0.1:${daemon.port}`, token: daemon.token });
    const { client } = handle;
    const page = await client.web.fetch.query({ url: `http://alice:${PASSWORD}@127.0.0.1:${port}/ok`, http: true });
    expect(page.text).toContain('Status 200');
    expect(JSON.stringify(page)).not.toContain(PASSWORD);
    expect(page.finalUrl).toBe(`http://alice:***@127.0.0.1:${port}/ok`);

    const messages: string[] = [];
    for (const url of [
      `http://alice:${PASSWORD}@127.0.0.1:${port}/404`,
      `http://127.0.0.1:${port}/404?token=${TOKEN}&page=2`,
    ]) {
      const error = await failure(client.web.fetch.query({ url, http: true }));
      expect(error.code).toBe('not_found');
      messages.push(error.message);
    }
    expect(messages[0]).toContain(`alice:***@127.0.0.1:${port}/404`);
    expect(messages[1]).toContain('token=***&page=2');
    for (const message of messages) {
      expect(message).not.toContain(PASSWORD);
      expect(message).not.toContain(TOKEN);
    }

    const { entries } = await client.journal.list.query({ errors: true, command: 'fetch' });
    expect(entries).toHaveLength(2);
    for (const entry of entries) {
      expect(entry.error).not.toContain(PASSWORD);
      expect(entry.error).not.toContain(TOKEN);
    }
    handle.close();
    const stateDir = join(workspace, '.argus');
    await daemon.stop('test done');
    const journal = journalBytes(stateDir);
    expect(journal).not.toContain(PASSWORD);
    expect(journal).not.toContain(TOKEN);
    const log = readFileSync(join(stateDir, 'daemon.log'), 'utf8');
    expect(log).toContain('command.failed');
    expect(log).not.toContain(PASSWORD);
    expect(log).not.toContain(TOKEN);
  });
});
