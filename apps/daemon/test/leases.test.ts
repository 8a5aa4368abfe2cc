import { type ClientOptions, createArgusClient } from '@argus/client';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, failure, useHarness } from './harness.js';

const h = useHarness();
const opened: Array<{ close(): void }> = [];

/** Another client of the same daemon, naming itself `name` (informational) and presenting what `extra` says. */
function clientAs(name: string, extra: Partial<ClientOptions> = {}) {
  const handle = createArgusClient({ url: `http://127.0.0.1:${h.daemon.port}`, token: h.daemon.token, name, ...extra });
  opened.push(handle);
  return handle;
}

/** The page-side log every write below appends to. */
const push = (entry: string) => `(window.__log ||= []).push(${JSON.stringify(entry)}), window.__log.length`;
const log = async (tab: string) => (await h.client.page.eval.mutate({ tab, js: 'window.__log || []' })).value;

let tab = '';

beforeAll(async () => {
  tab = (await h.client.tabs.open.mutate({ url: h.server.urlFor('/nav-a.html') })).id;
});
afterAll(() => {
  for (const handle of opened) handle.close();
});

describe('tab leases', () => {
  it("refuses another client's write at once with tab_leased naming the holder; reads still work; the holder writes", async () => {
    const holder = clientAs('holder-bot');
    const taken = await holder.client.tabs.lease.mutate({ tab, ttl: '30s' });
    expect(taken).toMatchObject({ tab, holder: 'holder-bot', renewed: false, ttlMs: 30_000, yours: true });
    expect(taken.lease).toMatch(/^lease_[\w-]{32}$/);

    const other = clientAs('other-bot');
    const refused = await failure(other.client.page.eval.mutate({ tab, js: push('other') }));
    expect(refused.code).toBe('tab_leased');
    expect(refused.message).toContain('holder-bot');
    expect(refused.message).toContain('--lease-wait');
    expect(refused.details).toMatchObject({ tab, holder: 'holder-bot', retryable: true });
    expect(refused.details?.['expiresInMs']).toBeGreaterThan(0);
    // the holder's informational name grants nothing: a client calling itself holder-bot is refused too
    expect(await codeOf(clientAs('holder-bot').client.input.click.mutate({ tab, target: 'a' }))).toBe('tab_leased');
    // closing the tab is a write too
    expect(await codeOf(other.client.tabs.close.mutate({ id: tab }))).toBe('tab_leased');

    // reads go on
    expect((await other.client.page.url.query({ tab })).url).toMatch(/nav-a\.html$/);
    expect((await other.client.read.text.query({ tab })).text).toContain('first page');

    // the holder presents its id and writes; the lease is renewed by it
    const proven = clientAs('holder-bot', { lease: taken.lease });
    expect((await proven.client.page.eval.mutate({ tab, js: push('holder') })).value).toBe(1);
    // even the operator's own client writes only with the id
    expect(await codeOf(log(tab))).toBe('tab_leased');

    // listed for everyone, with the holder and the expiry, never the secret id
    const listed = await other.client.tabs.leases.query();
    expect(listed.leases).toEqual([expect.objectContaining({ tab, holder: 'holder-bot', yours: false })]);
    expect(JSON.stringify(listed)).not.toContain(taken.lease);
    const status = await h.client.daemon.status.query();
    expect(status.leases).toEqual([expect.objectContaining({ tab, holder: 'holder-bot' })]);
    expect(JSON.stringify(status)).not.toContain(taken.lease);
    expect(status.scheduler).toMatchObject({ maxParallel: 8 });

    expect(await proven.client.tabs.release.mutate({})).toEqual({ released: [tab] });
    expect((await other.client.page.eval.mutate({ tab, js: push('other') })).value).toBe(2);
    expect((await other.client.tabs.leases.query()).leases).toEqual([]);
  });

  it("refuses a forged lease id and another client's id on someone else's tab; a malformed one is invalid_input", async () => {
    const first = clientAs('first');
    const { lease } = await first.client.tabs.lease.mutate({ tab });
    const forged = clientAs('forger', { lease: `lease_${'A'.repeat(32)}` });
    expect(await codeOf(forged.client.page.eval.mutate({ tab, js: push('forged') }))).toBe('tab_leased');
    expect(await codeOf(forged.client.tabs.release.mutate({ lease: `lease_${'A'.repeat(32)}` }))).toBe(
      'lease_not_found',
    );
    // a lease on one tab proves nothing on another client's leased tab
    const second = (await h.client.tabs.open.mutate({ url: h.server.urlFor('/nav-b.html') })).id;
    const rival = clientAs('rival');
    const rivalLease = (await rival.client.tabs.lease.mutate({ tab: second })).lease;
    const crossed = clientAs('rival', { lease: rivalLease });
    expect(await codeOf(crossed.client.page.eval.mutate({ tab, js: push('crossed') }))).toBe('tab_leased');
    expect(await codeOf(crossed.client.tabs.lease.mutate({ tab }))).toBe('tab_leased');
    // a malformed id is refused, never silently ignored: by the client, before it sends anything...
    let refused: unknown;
    try {
      clientAs('bad', { lease: 'not-a-lease' });
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({ code: 'invalid_input' });
    // ...and by the daemon, from a client that sends it anyway
    const raw = await fetch(
      `http://127.0.0.1:${h.daemon.port}/trpc/page.url?input=${encodeURIComponent(JSON.stringify({ tab }))}`,
      { headers: { authorization: `Bearer ${h.daemon.token}`, 'x-argus-lease': 'not-a-lease' } },
    );
    const answer = (await raw.json()) as { error?: { data?: { argus?: { code?: string; message?: string } } } };
    expect(answer.error?.data?.argus).toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('lease_…'),
    });
    await clientAs('first', { lease }).client.tabs.release.mutate({ lease });
    await crossed.client.tabs.release.mutate({});
    await h.client.tabs.close.mutate({ id: second });
  });

  it('a waiting write runs once the holder releases; the holder is never blocked by it', async () => {
    const { lease } = await clientAs('holder').client.tabs.lease.mutate({ tab });
    const holder = clientAs('holder', { lease });
    await holder.client.page.eval.mutate({ tab, js: 'window.__log = []' });
    const waiting = clientAs('waiter', { leaseWaitMs: 60_000 }).client.page.eval.mutate({ tab, js: push('waiter') });
    // the waiter waits outside the tab's queue: the holder's commands sent after it still run
    for (let index = 0; index < 3; index++) await holder.client.page.eval.mutate({ tab, js: push(`holder-${index}`) });
    await holder.client.tabs.release.mutate({});
    await waiting;
    expect(await log(tab)).toEqual(['holder-0', 'holder-1', 'holder-2', 'waiter']);
  });

  it('a lease expires after its TTL without activity: a waiting write then proceeds and the id is dead', async () => {
    const holder = clientAs('sleepy');
    const { lease } = await holder.client.tabs.lease.mutate({ tab, ttl: '1s' });
    expect(await codeOf(clientAs('other').client.page.eval.mutate({ tab, js: push('early') }))).toBe('tab_leased');
    // woken by the expiry itself, not by polling
    await clientAs('patient', { leaseWaitMs: 30_000 }).client.page.eval.mutate({ tab, js: push('after-expiry') });
    expect((await h.client.tabs.leases.query()).leases).toEqual([]);
    expect(await codeOf(holder.client.tabs.release.mutate({ lease }))).toBe('lease_not_found');
  });

  it('leases taken over a WebSocket are held by it and end when it closes', async () => {
    const socket = clientAs('ws-agent', { transport: 'ws', WebSocket });
    const taken = await socket.client.tabs.lease.mutate({ tab });
    // the socket itself proves the lease: no id needed on its own calls
    await socket.client.page.eval.mutate({ tab, js: push('ws') });
    expect((await socket.client.tabs.leases.query()).leases).toEqual([expect.objectContaining({ yours: true })]);
    expect(await codeOf(clientAs('other').client.page.eval.mutate({ tab, js: push('no') }))).toBe('tab_leased');
    const waiting = clientAs('next', { leaseWaitMs: 30_000 }).client.page.eval.mutate({ tab, js: push('next') });
    socket.close();
    await waiting;
    expect((await h.client.tabs.leases.query()).leases).toEqual([]);
    expect(await codeOf(h.client.tabs.release.mutate({ lease: taken.lease }))).toBe('lease_not_found');
  });

  it('the lease ends with its tab', async () => {
    const extra = (await h.client.tabs.open.mutate({ url: h.server.urlFor('/nav-b.html') })).id;
    const { lease } = await clientAs('closer').client.tabs.lease.mutate({ tab: extra });
    await clientAs('closer', { lease }).client.tabs.close.mutate({ id: extra });
    expect((await h.client.tabs.leases.query()).leases).toEqual([]);
  });
});
