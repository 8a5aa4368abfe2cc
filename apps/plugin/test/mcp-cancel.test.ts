import { type Connection, connectToDaemon } from '@argus/client';
import { afterAll, describe, expect, it } from 'vitest';
import { ok, usePluginWorkspace, waitFor } from './helpers.js';

/**
 * An agent that gives up on a call (MCP `notifications/cancelled`, sent by the SDK client when the
 * request's signal aborts) stops the command at the daemon: the tab's next call runs at once instead
 * of after the abandoned wait's timeout, and an abandoned `type` stops typing. Both ways a tool call
 * reaches the daemon: in-process (argus-mcp hosts it) and over the WebSocket of a daemon process.
 */
const WAIT_MS = 30_000;

describe.each<{ mode: string; env: Record<string, string> }>([
  { mode: 'a daemon argus-mcp hosts', env: {} },
  { mode: 'a daemon process, over its WebSocket', env: { ARGUS_MCP_DAEMON: 'process' } },
])('cancelling a tool call with $mode', ({ env }) => {
  const w = usePluginWorkspace({ prefix: 'argus-cancel-', env });
  let probe: Connection | undefined;
  afterAll(() => probe?.close());
  /** A client of the test's own beside the agent's server: the daemon's status and journal. */
  const daemon = async () => (probe ??= await connectToDaemon({ stateDir: w.stateDir, name: 'test-probe' })).client;

  /** Starts a tool call and returns its cancel, once the daemon is running it (a tab command holds a slot). */
  async function startThenCancel(name: string, args: Record<string, unknown>) {
    const running = async () => (await (await daemon()).daemon.status.query({})).scheduler?.running ?? 0;
    expect(await running()).toBe(0);
    const cancel = new AbortController();
    const call = w.plugin.client.callTool({ name, arguments: args }, undefined, {
      signal: cancel.signal,
      timeout: 2 * WAIT_MS,
    });
    await waitFor(async () => (await running()) > 0, 15_000, `${name} to run at the daemon`);
    return {
      call,
      cancel: async () => {
        cancel.abort('the agent moved on');
        await expect(call).rejects.toThrow(/moved on/);
      },
    };
  }

  /** The journal's rows for a command, newest last. */
  async function journalled(command: string) {
    const { entries } = await (await daemon()).journal.list.query({ limit: 50 });
    return entries.filter((entry) => entry.command === command);
  }

  it('a cancelled wait ends as cancelled, and the next call on the tab does not wait out its timeout', async () => {
    await ok(w.plugin.client, 'argus_goto', { url: w.fixtures.urlFor('/form.html') });
    for (const args of [{ text: 'this text never appears', timeoutMs: WAIT_MS }, { ms: WAIT_MS }]) {
      const before = (await journalled('page.wait')).length;
      const started = performance.now();
      const wait = await startThenCancel('argus_wait', args);
      await wait.cancel();
      // queued behind the wait on the same tab: it runs once the wait has ended
      expect(await ok(w.plugin.client, 'argus_eval', { js: '6 * 7' })).toContain('42');
      expect(performance.now() - started).toBeLessThan(WAIT_MS / 2);
      await waitFor(async () => (await journalled('page.wait')).length > before, 10_000, 'the wait in the journal');
      const row = (await journalled('page.wait')).at(-1)!;
      expect(JSON.parse(row.input ?? '{}')).toMatchObject(args);
      expect(row).toMatchObject({ ok: false, errorCode: 'cancelled' });
      expect(row.durationMs).toBeLessThan(WAIT_MS / 2);
    }
  });

  it('a cancelled type stops typing', async () => {
    await ok(w.plugin.client, 'argus_goto', { url: w.fixtures.urlFor('/form.html') });
    const text = 'x'.repeat(8_000);
    const typed = async () => {
      const answer = await ok(w.plugin.client, 'argus_eval', {
        js: "'typed ' + document.querySelector('#name').value.length",
      });
      return Number(/typed (\d+)/.exec(answer)?.[1]);
    };
    const type = await startThenCancel('argus_type', { target: '#name', text });
    // it types a few hundred to a thousand characters a second: well started, far from done
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await type.cancel();
    // queued behind the type on the same tab: what it typed before it stopped
    const stopped = await typed();
    expect(stopped).toBeGreaterThan(0);
    expect(stopped).toBeLessThan(text.length);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await typed()).toBe(stopped);
  });
});
