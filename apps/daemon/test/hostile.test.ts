import { describe, expect, it } from 'vitest';
import { failure, useHarness } from './harness.js';
import { probeStatus } from './status-probe.js';

const h = useHarness();

/** A page whose script never yields must not wedge its tab, nor anything else in the daemon. */
describe('a hostile page (while (true) {})', () => {
  it('fails with page_unresponsive instead of hanging; other tabs, status and newtab stay responsive; goto recovers the tab', async () => {
    const hostile = await h.client.tabs.open.mutate({});
    await h.client.page.goto.mutate({ url: h.server.urlFor('/hostile.html'), tab: hostile.id });
    // the page starts spinning 200 ms after load
    await new Promise((resolve) => setTimeout(resolve, 400));

    const started = performance.now();
    // status asked in a loop the whole time the command waits on the spinning page
    const probe = probeStatus(h.client);
    const text = await failure(h.client.read.text.query({ tab: hostile.id }));
    const status = await probe.stop();
    console.info(
      `[faults] status during a busy loop (${(performance.now() - started).toFixed(0)} ms): ${status.count} answers, slowest ${status.maxMs.toFixed(0)} ms`,
    );
    expect(status.count).toBeGreaterThan(0);
    expect(status.maxMs).toBeLessThan(5_000);
    expect(text.code).toBe('page_unresponsive');
    expect(text.message).toMatch(/argus reload|argus goto/);
    // without deadlines this never returned; the bound here is loose on purpose (a loaded machine)
    expect(performance.now() - started).toBeLessThan(30_000);

    // the same tab: a second command fails fast, url answers from memory
    expect((await failure(h.client.read.text.query({ tab: hostile.id }))).code).toBe('page_unresponsive');
    expect((await h.client.page.url.query({ tab: hostile.id })).url).toMatch(/hostile\.html$/);

    // the rest of the daemon: status, another tab, a new tab
    expect((await h.client.daemon.status.query({})).browser.running).toBe(true);
    const other = await h.client.tabs.open.mutate({});
    const nav = await h.client.page.goto.mutate({ url: h.server.urlFor('/nav-a.html'), tab: other.id });
    expect(nav.title).toBe('Page A');
    expect((await h.client.read.text.query({ tab: other.id })).text).toContain('first page');

    // goto stops the hostile script (Runtime.terminateExecution) and loads the new page
    const away = await h.client.page.goto.mutate({
      url: h.server.urlFor('/nav-b.html'),
      tab: hostile.id,
      timeoutMs: 10_000,
    });
    expect(away.title).toBe('Page B');
    expect((await h.client.read.text.query({ tab: hostile.id })).text).toContain('Page B');
    await h.client.tabs.close.mutate({ id: other.id });
    await h.client.tabs.close.mutate({ id: hostile.id });
  });

  it('a page that spins before its load event: goto reports page_unresponsive, not a 30 s wait; reload leaves it again', async () => {
    const tab = await h.client.tabs.open.mutate({});
    const started = performance.now();
    const error = await failure(
      h.client.page.goto.mutate({ url: h.server.urlFor('/hostile.html?inline=1'), tab: tab.id }),
    );
    expect(error.code).toBe('page_unresponsive');
    expect(performance.now() - started).toBeLessThan(25_000);
    // reload terminates the script first; the page spins again at once, and says so again
    expect((await failure(h.client.page.reload.mutate({ tab: tab.id, timeoutMs: 20_000 }))).code).toBe(
      'page_unresponsive',
    );
    const away = await h.client.page.goto.mutate({
      url: h.server.urlFor('/nav-a.html'),
      tab: tab.id,
      timeoutMs: 10_000,
    });
    expect(away.title).toBe('Page A');
    await h.client.tabs.close.mutate({ id: tab.id });
  });
});
