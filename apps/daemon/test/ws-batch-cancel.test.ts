import { type ClientHandle, createArgusClient } from '@argus/client';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { useHarness } from './harness.js';

/**
 * The calls tRPC's wsLink makes in one tick go to the daemon in one frame (a batch). Giving up one
 * of them (its signal) stops that command only: the client tells the daemon (`subscription.stop`
 * for its id; tRPC's own wsLink sends nothing for a query or mutation) and the daemon gives each
 * call of a batch its own signal (before, a batch had only the socket's, which fired when it closed).
 */
const LONG_MS = 30_000;
/** The other call's wait: it holds the socket open (an idle socket closes, which cancels everything on it). */
const OTHER_MS = 8_000;

const h = useHarness();

/** The frames the client sends, as text. */
const frames: string[] = [];
class RecordingWebSocket extends WebSocket {
  override send(data: unknown, ...rest: unknown[]): void {
    frames.push(String(data));
    (super.send as (data: unknown, ...rest: unknown[]) => void)(data, ...rest);
  }
}

let handle: ClientHandle | undefined;
afterAll(() => handle?.close());

/** The journal's page.wait rows for `ms`, newest last. */
async function waits(ms: number) {
  const { entries } = await h.client.journal.list.query({ limit: 50 });
  return entries.filter((entry) => entry.command === 'page.wait' && JSON.parse(entry.input ?? '{}').ms === ms);
}

async function until(condition: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Commands running at the daemon (each holds a scheduler slot). */
async function running(): Promise<number> {
  return (await h.client.daemon.status.query({})).scheduler?.running ?? 0;
}

/**
 * Gives up `long` (its signal) and checks the daemon cancels it at once, while the other call is
 * still running on the same socket (so it is no socket close that stopped it), then that the other
 * call ran to its end.
 */
async function giveUpWhileOtherRuns(long: Promise<unknown>, giveUp: AbortController, other: Promise<unknown>) {
  const before = (await waits(LONG_MS)).length;
  const abandoned = performance.now();
  giveUp.abort();
  await expect(long).rejects.toThrow();
  await until(async () => (await waits(LONG_MS)).length > before, OTHER_MS, 'the cancelled wait in the journal');
  expect(performance.now() - abandoned).toBeLessThan(OTHER_MS / 2);
  expect(await running()).toBe(1);
  expect((await waits(LONG_MS)).at(-1)).toMatchObject({ ok: false, errorCode: 'cancelled' });
  // the other call was not stopped with it
  await expect(other).resolves.toBeTruthy();
  const otherRow = (await waits(OTHER_MS)).at(-1)!;
  expect(otherRow).toMatchObject({ ok: true });
  expect(otherRow.durationMs).toBeGreaterThanOrEqual(OTHER_MS);
}

describe('cancelling a call over the WebSocket (the typed client, transport ws)', () => {
  const tabs = { first: '', second: '' };

  it('stops the call of a batch given up, and the other call of the batch runs to its end', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
    tabs.second = (await h.client.tabs.open.mutate({ url: h.server.urlFor('/form.html') })).id;
    tabs.first = (await h.client.tabs.list.query({})).tabs.find((tab) => tab.id !== tabs.second)!.id;
    handle = createArgusClient({
      url: `http://127.0.0.1:${h.daemon.port}`,
      token: h.daemon.token,
      transport: 'ws',
      WebSocket: RecordingWebSocket,
    });
    // the socket opens at the first call: one call first, so that the two below share a frame
    await handle.client.page.url.query({});
    frames.length = 0;

    const giveUp = new AbortController();
    const long = handle.client.page.wait.mutate({ ms: LONG_MS, tab: tabs.first }, { signal: giveUp.signal });
    const other = handle.client.page.wait.mutate({ ms: OTHER_MS, tab: tabs.second });
    long.catch(() => undefined);
    await until(async () => (await running()) === 2, 10_000, 'both waits to run');
    // one frame, a batch of the two calls
    const batches = frames.filter((frame) => frame.startsWith('[') && frame.includes('"page.wait"'));
    expect(batches).toHaveLength(1);
    expect(JSON.parse(batches[0]!)).toHaveLength(2);
    await giveUpWhileOtherRuns(long, giveUp, other);
  });

  it('stops a lone call given up', async () => {
    await until(async () => (await running()) === 0, LONG_MS, 'the daemon to be idle');
    const other = handle!.client.page.wait.mutate({ ms: OTHER_MS, tab: tabs.second });
    await until(async () => (await running()) === 1, 10_000, 'the other wait to run');
    const giveUp = new AbortController();
    const long = handle!.client.page.wait.mutate({ ms: LONG_MS, tab: tabs.first }, { signal: giveUp.signal });
    long.catch(() => undefined);
    await until(async () => (await running()) === 2, 10_000, 'both waits to run');
    await giveUpWhileOtherRuns(long, giveUp, other);
  });
});
