import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChromeProcess, launchChrome } from '@argus/cdp';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_CHROME_FLAGS, failure, startHarness } from './harness.js';

// `argus connect --cdp 'ws://…/devtools/browser/ID?token=…'`: a remote browser behind a token, as
// browserless-style grids run them. The token is the caller's secret: it may be used to connect, but
// never shown (the reply, status, errors), logged or journalled. Before, the reply quoted the URL as
// given and an unreachable endpoint's browser_not_found quoted it too.
const stateDir = mkdtempSync(join(tmpdir(), 'argus-connect-secrets-'));
let chrome: ChromeProcess | undefined;

afterAll(async () => {
  await chrome?.close();
  rmSync(stateDir, { recursive: true, force: true });
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('connect mode with a token in the CDP URL', () => {
  it('connects through it and never shows, logs or journals the token; nor when the endpoint is unreachable', async () => {
    chrome = await launchChrome({ extraFlags: [TEST_CHROME_FLAGS] });
    const secret = 'cdpsecret-Vx81QmZr5T';
    const unreachableSecret = 'deadsecret-K3p9WnLc2B';
    const port = await closedPort();
    const h = await startHarness({}, { stateDir });
    try {
      // Chromium ignores the query: the connection goes through and the page loads
      const connected = await h.client.session.connect.mutate({ cdp: `${chrome.wsEndpoint}?token=${secret}` });
      expect(connected.cdpUrl).toBe(`${chrome.wsEndpoint}?token=***`);
      expect(JSON.stringify(connected)).not.toContain(secret);
      const page = await h.client.page.goto.mutate({ url: h.server.urlFor('/nav-a.html') });
      expect(page.url).toMatch(/nav-a\.html$/);
      const status = await h.client.daemon.status.query({});
      expect(status.mode).toBe('connect');
      expect(JSON.stringify(status)).not.toContain(secret);

      // an endpoint that does not answer, over ws:// and over http:// (its /json/version)
      for (const url of [
        `ws://127.0.0.1:${port}/devtools/browser/gone?token=${unreachableSecret}`,
        `http://127.0.0.1:${port}/?token=${unreachableSecret}`,
      ]) {
        const switched = await h.client.session.connect.mutate({ cdp: url });
        expect(JSON.stringify(switched)).not.toContain(unreachableSecret);
        const lost = await failure(h.client.page.goto.mutate({ url: h.server.urlFor('/nav-b.html') }));
        expect(lost.code).toBe('browser_not_found');
        expect(lost.message).toContain(`127.0.0.1:${port}/`);
        expect(lost.message).toContain('token=***');
        expect(JSON.stringify({ message: lost.message, details: lost.details })).not.toContain(unreachableSecret);
      }

      const journal = await h.client.journal.list.query({});
      expect(journal.entries.map((entry) => entry.command)).toContain('session.connect');
      expect(JSON.stringify(journal)).not.toContain(secret);
      expect(JSON.stringify(journal)).not.toContain(unreachableSecret);
    } finally {
      await h.close();
    }
    const log = readFileSync(join(stateDir, 'daemon.log'), 'utf8');
    expect(log).toContain('session.switched');
    expect(log).not.toContain(secret);
    expect(log).not.toContain(unreachableSecret);
  });
});
