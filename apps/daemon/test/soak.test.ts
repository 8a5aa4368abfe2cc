import { existsSync } from 'node:fs';
import { createArgusClient } from '@argus/client';
import {
  SOAK_PAGE,
  listArgusChromeProcesses,
  processGroupMembers,
  runSoak,
  soakMismatches,
  startFixtureServer,
  waitUntil,
} from '@argus/test-kit';
import { describe, expect, it } from 'vitest';
import { startHarness } from './harness.js';

/**
 * The short soak (issue 21; the long one is bench/soak-bench.mjs): 4 clients x 50 mixed commands at
 * once, each on its own tab. Nothing lost, nothing run twice (the page's counters and the journal),
 * and the daemon's stop leaves no Chromium process and no profile behind. No timings asserted.
 */
describe('soak, short', () => {
  it('4 clients x 50 commands: every command ran exactly once; stop leaves no Chromium and no profile', async () => {
    const pages = await startFixtureServer({ pages: { '/soak/': SOAK_PAGE } });
    const h = await startHarness();
    const handles = Array.from({ length: 4 }, (_, c) =>
      createArgusClient({
        url: `http://127.0.0.1:${h.daemon.port}`,
        token: h.daemon.token,
        name: `soak-${c}`,
        transport: c % 2 ? 'batch' : 'http',
      }),
    );
    let closed = false;
    try {
      const results = await runSoak({
        clients: handles.map((handle, c) => ({ name: `soak-${c}`, client: handle.client })),
        pageUrl: pages.urlFor('/soak/'),
        commands: 50,
      });
      expect(results.flatMap((result) => result.failures)).toEqual([]);
      // 5 of each counted kind per client: the page saw each one once
      expect(results.map((result) => result.seen)).toEqual(
        results.map(() => ({ loads: 6, clicks: 10, fills: 10, evals: 10 })),
      );
      const journal = await h.client.journal.export.mutate({ limit: 100_000 });
      expect(soakMismatches(results, journal.jsonl ?? '')).toEqual([]);

      const pid = (await h.client.daemon.status.query({})).browser.pid;
      if (!pid) throw new Error('the browser is not running after the soak');
      const profile = listArgusChromeProcesses().find((proc) => proc.pid === pid)?.userDataDir;
      expect(profile).toBeDefined();
      for (const handle of handles) handle.close();
      closed = true;
      await h.close();
      await waitUntil(() => processGroupMembers(pid).length === 0, 10_000, "Chromium's process group to exit");
      expect(existsSync(profile!)).toBe(false);
    } finally {
      if (!closed) {
        for (const handle of handles) handle.close();
        await h.close();
      }
      await pages.close();
    }
  }, 180_000);
});
