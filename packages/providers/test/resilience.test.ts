import { randomUUID } from 'node:crypto';
import { type FixtureServer, startFixtureServer } from '@argus/test-kit';
import { ArgusError } from '@argus/protocol/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, OPERATOR_POLICY, Resilience, type RetryEvent, assertOk } from '../src/index.js';

let server: FixtureServer;
const client = new HttpClient();

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await client.close();
  await server.close();
});

/** One guarded GET that throws the typed error for a failing status, as providers run it. */
async function get(url: string) {
  const response = await client.get(url, { policy: OPERATOR_POLICY });
  assertOk(response);
  return response;
}

/** A call to a fresh `/flaky` name (the same name on every attempt). */
function flaky(query: string) {
  const url = server.urlFor(`/flaky?name=${randomUUID()}${query}`);
  return () => get(url);
}

function recorder(resilience: Resilience): RetryEvent[] {
  const events: RetryEvent[] = [];
  resilience.onRetry((event) => events.push(event));
  return events;
}

async function failure(promise: Promise<unknown>): Promise<ArgusError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ArgusError)) throw new Error(`expected an ArgusError, got ${String(error)}`);
  return error;
}

describe('retries', () => {
  it('retries a retryable failure until it succeeds: 2 failures, 3 requests', async () => {
    const resilience = new Resilience({ retries: 3, backoffMs: 1 });
    const events = recorder(resilience);
    server.resetTraffic();
    const response = await resilience.run('host', flaky(`&fail=2&status=503`));
    expect(response.status).toBe(200);
    expect(server.traffic().paths['/flaky']).toBe(3);
    expect(events.map((event) => event.attempt)).toEqual([1, 2]);
  });

  it('gives up after the retry budget with the last typed error', async () => {
    const resilience = new Resilience({ retries: 2, backoffMs: 1 });
    server.resetTraffic();
    const error = await failure(resilience.run('host', flaky(`&fail=50&status=502`)));
    expect(error.code).toBe('upstream');
    expect(server.traffic().paths['/flaky']).toBe(3);
  });

  it('never retries a non-retryable error (404: one request)', async () => {
    const resilience = new Resilience({ retries: 3, backoffMs: 1 });
    const events = recorder(resilience);
    server.resetTraffic();
    const error = await failure(resilience.run('host', () => get(server.urlFor('/status/404'))));
    expect(error.code).toBe('not_found');
    expect(server.traffic().paths['/status/404']).toBe(1);
    expect(events).toHaveLength(0);
  });

  it('waits what Retry-After says instead of its own backoff', async () => {
    const resilience = new Resilience({ retries: 1, backoffMs: 1 });
    const events = recorder(resilience);
    const response = await resilience.run('host', flaky(`&fail=1&status=429&retry-after=1`));
    expect(response.status).toBe(200);
    expect(events.map((event) => event.delayMs)).toEqual([1000]);
  });

  it('fails at once, rate_limited saying when to retry, when Retry-After is longer than the longest backoff', async () => {
    const resilience = new Resilience({ retries: 2, backoffMs: 1, maxBackoffMs: 10_000 });
    const events = recorder(resilience);
    server.resetTraffic();
    const started = Date.now();
    const error = await failure(resilience.run('host', flaky(`&fail=5&status=429&retry-after=3600`)));
    expect(error.code).toBe('rate_limited');
    expect(error.message).toContain('Wait 3600 s');
    expect(events).toHaveLength(0);
    expect(server.traffic().paths['/flaky']).toBe(1);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('backs off exponentially with full jitter', async () => {
    const resilience = new Resilience({ retries: 3, backoffMs: 10, random: () => 0.5 });
    const events = recorder(resilience);
    await resilience.run('host', flaky(`&fail=3&status=500`));
    expect(events.map((event) => event.delayMs)).toEqual([5, 10, 20]);
  });
});

describe('breaker per host', () => {
  it('opens after N consecutive failures, fails fast without a request, half-opens after the cooldown', async () => {
    const resilience = new Resilience({ retries: 0, breakerThreshold: 2, breakerCooldownMs: 200 });
    server.resetTraffic();
    for (let i = 0; i < 2; i += 1)
      expect((await failure(resilience.run('a.test', () => get(server.urlFor('/status/503'))))).code).toBe('upstream');
    expect(resilience.state('a.test')).toBe('open');
    const fast = await failure(resilience.run('a.test', () => get(server.urlFor('/status/503'))));
    expect(fast.code).toBe('circuit_open');
    expect(fast.details?.['retryable']).toBe(true);
    expect(server.traffic().paths['/status/503']).toBe(2);
    // another host is unaffected
    expect((await resilience.run('b.test', () => get(server.urlFor('/form.html')))).status).toBe(200);

    // after the cooldown one probe goes through; a failing probe opens the breaker again
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(resilience.state('a.test')).toBe('half-open');
    expect((await failure(resilience.run('a.test', () => get(server.urlFor('/status/503'))))).code).toBe('upstream');
    expect(server.traffic().paths['/status/503']).toBe(3);
    expect(resilience.state('a.test')).toBe('open');
    // a succeeding probe closes it
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await resilience.run('a.test', () => get(server.urlFor('/form.html')))).status).toBe(200);
    expect(resilience.state('a.test')).toBe('closed');
  });

  it('does not count a 404 against the host', async () => {
    const resilience = new Resilience({ retries: 0, breakerThreshold: 2 });
    for (let i = 0; i < 4; i += 1) await failure(resilience.run('c.test', () => get(server.urlFor('/status/404'))));
    expect(resilience.state('c.test')).toBe('closed');
  });
});

describe('concurrency', () => {
  it('never has more than the per-host limit in flight', async () => {
    const resilience = new Resilience({ perHostConcurrency: 2, globalConcurrency: 8 });
    server.resetTraffic();
    await Promise.all(Array.from({ length: 8 }, () => resilience.run('host', () => get(server.urlFor('/slow?ms=60')))));
    expect(server.traffic().paths['/slow']).toBe(8);
    expect(server.traffic().maxInFlight).toBe(2);
  });

  it('holds the global limit across hosts', async () => {
    const resilience = new Resilience({ perHostConcurrency: 4, globalConcurrency: 3 });
    server.resetTraffic();
    await Promise.all(
      Array.from({ length: 9 }, (_, i) => resilience.run(`host-${i % 3}`, () => get(server.urlFor('/slow?ms=60')))),
    );
    expect(server.traffic().maxInFlight).toBe(3);
  });
});
