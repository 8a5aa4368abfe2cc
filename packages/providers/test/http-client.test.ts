import { createServer } from 'node:net';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { ArgusError } from '@argus/protocol/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_POLICY, HttpClient, OPERATOR_POLICY, addressRefusal, assertOk } from '../src/index.js';

let server: FixtureServer;
let second: FixtureServer;
const client = new HttpClient();
/** An agent whose operator opened only 127.0.0.2 (where `second` listens): 127.0.0.1 stays closed. */
const AGENT_WITH_SECOND = { allowPrivate: false, openRanges: ['127.0.0.2/32'] };

beforeAll(async () => {
  server = await startFixtureServer();
  second = await startFixtureServer({ hostname: '127.0.0.2' });
});
afterAll(async () => {
  await client.close();
  await Promise.all([server.close(), second.close()]);
});

async function failure(promise: Promise<unknown>): Promise<ArgusError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ArgusError)) throw new Error(`expected an ArgusError, got ${String(error)}`);
  return error;
}

describe('address policy', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['169.254.169.254', 'metadata'],
    ['::1', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
  ])('refuses %s (%s) to agents, allows it to the operator', (address) => {
    expect(addressRefusal(address, AGENT_POLICY)).toMatch(/closed to agents/);
    expect(addressRefusal(address, OPERATOR_POLICY)).toBeUndefined();
  });

  it.each(['0.0.0.0', '255.255.255.255', '224.0.0.1', '::'])('refuses %s to everyone', (address) => {
    expect(addressRefusal(address, OPERATOR_POLICY)).toBeDefined();
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])('allows the public address %s', (address) => {
    expect(addressRefusal(address, AGENT_POLICY)).toBeUndefined();
  });

  it('opens only the configured range', () => {
    expect(addressRefusal('127.0.0.2', AGENT_WITH_SECOND)).toBeUndefined();
    expect(addressRefusal('127.0.0.1', AGENT_WITH_SECOND)).toMatch(/loopback/);
  });
});

describe('SSRF guard on the wire', () => {
  it('refuses an agent a loopback IP literal and a name that resolves to loopback, before any request', async () => {
    server.resetTraffic();
    const literal = await failure(client.get(server.urlFor('/form.html'), { policy: AGENT_POLICY }));
    expect(literal.code).toBe('policy_blocked');
    expect(literal.details?.['retryable']).toBe(false);
    // names the config key that exists (providers.agentNetworks), as the config schema spells it
    expect(literal.message).toContain('providers.agentNetworks');
    const named = await failure(client.get(`http://localhost:${server.port}/form.html`, { policy: AGENT_POLICY }));
    expect(named.code).toBe('policy_blocked');
    expect(named.message).toMatch(/loopback/);
    expect(server.traffic().total).toBe(0);
  });

  it('lets the operator reach the local server', async () => {
    const response = await client.get(server.urlFor('/form.html'), { policy: OPERATOR_POLICY });
    expect(response.status).toBe(200);
    expect(response.body).toContain('<form');
  });

  it('re-checks every redirect hop: an allowed host redirecting to 127.0.0.1 is refused', async () => {
    server.resetTraffic();
    const ok = await client.get(second.urlFor('/form.html'), { policy: AGENT_WITH_SECOND });
    expect(ok.status).toBe(200);
    for (const target of [
      server.urlFor('/form.html'),
      `http://localhost:${server.port}/form.html`,
      `http://[::ffff:127.0.0.1]:${server.port}/form.html`,
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      const error = await failure(
        client.get(second.urlFor(`/redirect?to=${encodeURIComponent(target)}`), { policy: AGENT_WITH_SECOND }),
      );
      expect(error.code, target).toBe('policy_blocked');
    }
    expect(server.traffic().total).toBe(0);
  });

  it('refuses schemes other than http(s) and non-URLs', async () => {
    expect((await failure(client.get('file:///etc/passwd', { policy: OPERATOR_POLICY }))).code).toBe('policy_blocked');
    expect((await failure(client.get('not a url', { policy: OPERATOR_POLICY }))).code).toBe('invalid_input');
  });
});

describe('limits and typed errors', () => {
  it('refuses a body past the cap while it streams (too_large)', async () => {
    const error = await failure(
      client.get(server.urlFor('/big?bytes=50000000'), {
        policy: OPERATOR_POLICY,
        maxBytes: 100_000,
        accept: ['text/plain'],
      }),
    );
    expect(error.code).toBe('too_large');
    expect(error.details?.['retryable']).toBe(false);
    const fits = await client.get(server.urlFor('/big?bytes=90000'), {
      policy: OPERATOR_POLICY,
      maxBytes: 100_000,
      accept: ['text/plain'],
    });
    expect(fits.bytes).toBe(90_000);
  });

  it('refuses a media type outside the allow-list without reading it', async () => {
    const error = await failure(client.get(server.urlFor('/json'), { policy: OPERATOR_POLICY }));
    expect(error.code).toBe('policy_blocked');
    expect(error.message).toMatch(/application\/json/);
  });

  it('stops after the redirect limit (upstream, not retryable)', async () => {
    let url = '/form.html';
    for (let hop = 0; hop < 4; hop += 1) url = `/redirect?to=${encodeURIComponent(url)}`;
    const followed = await client.get(server.urlFor(url), { policy: OPERATOR_POLICY, maxRedirects: 4 });
    expect(followed.redirects).toHaveLength(4);
    expect(followed.finalUrl).toBe(server.urlFor('/form.html'));
    const error = await failure(client.get(server.urlFor(url), { policy: OPERATOR_POLICY, maxRedirects: 3 }));
    expect(error.code).toBe('upstream');
    expect(error.details?.['retryable']).toBe(false);
  });

  it('times out on a server that never answers (timeout, retryable)', async () => {
    const error = await failure(client.get(server.urlFor('/hang'), { policy: OPERATOR_POLICY, timeoutMs: 300 }));
    expect(error.code).toBe('timeout');
    expect(error.details?.['retryable']).toBe(true);
  });

  it('reports a refused connection as network (retryable)', async () => {
    const port = await freePort();
    const error = await failure(client.get(`http://127.0.0.1:${port}/`, { policy: OPERATOR_POLICY }));
    expect(error.code).toBe('network');
    expect(error.details?.['retryable']).toBe(true);
  });

  it.each([
    [404, 'not_found', false],
    [410, 'not_found', false],
    [401, 'auth', false],
    [403, 'auth', false],
    [408, 'timeout', true],
    [429, 'rate_limited', true],
    [500, 'upstream', true],
    [503, 'upstream', true],
    [501, 'upstream', false],
  ])('maps status %i to %s (retryable %s)', async (status, code, retryable) => {
    const response = await client.get(server.urlFor(`/status/${status}?retry-after=3`), { policy: OPERATOR_POLICY });
    expect(response.status).toBe(status);
    let error: unknown;
    try {
      assertOk(response);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ArgusError);
    expect((error as ArgusError).code).toBe(code);
    expect((error as ArgusError).details?.['retryable']).toBe(retryable);
    if (status === 429) expect((error as ArgusError).details?.['retryAfterMs']).toBe(3000);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
