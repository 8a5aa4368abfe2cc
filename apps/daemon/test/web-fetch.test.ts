import { createArgusClient } from '@argus/client';
import { ArgusError } from '@argus/protocol/errors';
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const h = useHarness();

/** `argus fetch` through the daemon: HTTP tier, real Chromium for the browser tier, the SSRF guard per caller. */
describe('web.fetch', () => {
  it('reads a plain page over HTTP without opening a tab', async () => {
    const before = await h.client.tabs.list.query({});
    const page = await h.client.web.fetch.query({ url: h.server.urlFor('/long.html'), format: 'json' });
    expect(page.tier).toBe('http');
    expect(page.fallbackReason).toBeNull();
    expect(page.status).toBe(200);
    expect(page.markdown.length).toBeGreaterThan(500);
    expect(page.html).toBeNull();
    expect((await h.client.tabs.list.query({})).tabs).toEqual(before.tabs);
  });

  it('auto falls back to the browser for a page only its script fills, and says why', async () => {
    const url = h.server.urlFor('/js-shell.html');
    const http = await h.client.web.fetch.query({ url, http: true });
    expect(http.tier).toBe('http');
    expect(http.text).not.toContain('only after the script has run');

    const auto = await h.client.web.fetch.query({ url });
    expect(auto.tier).toBe('browser');
    expect(auto.fallbackReason).toBe('js-shell');
    expect(auto.title).toBe('Rendered by script');
    expect(auto.text).toContain('only after the script has run');
    expect(auto.links).toContain(h.server.urlFor('/nav-a.html'));
    expect(auto.timings.renderMs).not.toBeNull();

    const forced = await h.client.web.fetch.query({ url: h.server.urlFor('/long.html'), browser: true });
    expect(forced.tier).toBe('browser');
    expect(forced.fallbackReason).toBeNull();
    // the render tab is closed again: no tab is left behind
    expect((await h.client.tabs.list.query({})).tabs.some((tab) => tab.url.includes('js-shell'))).toBe(false);
  });

  it('refuses a scoped (agent) token a loopback server, by address and by name; the operator reaches it', async () => {
    const { token } = await h.client.token.create.mutate({ scope: 'read' });
    const agent = createArgusClient({ url: `http://127.0.0.1:${h.daemon.port}`, token });
    try {
      for (const url of [h.server.urlFor('/long.html'), `http://localhost:${h.server.port}/long.html`]) {
        const error = await agent.client.web.fetch.query({ url }).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(error).toBeInstanceOf(ArgusError);
        expect((error as ArgusError).code).toBe('policy_blocked');
        expect((error as ArgusError).details?.['retryable']).toBe(false);
      }
      // the browser tier is guarded the same way
      const viaBrowser = await agent.client.web.fetch.query({ url: h.server.urlFor('/long.html'), browser: true }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect((viaBrowser as ArgusError).code).toBe('policy_blocked');
    } finally {
      agent.close();
    }
    expect((await h.client.web.fetch.query({ url: h.server.urlFor('/long.html') })).status).toBe(200);
  });

  it('maps failures to typed errors with retryable', async () => {
    const missing = await h.client.web.fetch.query({ url: h.server.urlFor('/status/404'), http: true }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect((missing as ArgusError).code).toBe('not_found');
    const big = await h.client.web.fetch
      .query({ url: h.server.urlFor('/big?bytes=3000000'), http: true, maxBytes: 100_000 })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect((big as ArgusError).code).toBe('too_large');
  });
});

describe('web.crawl and artifacts', () => {
  it('crawls the fixture site into a bundle under the state dir, then lists, shows and cleans it up', async () => {
    h.server.resetTraffic();
    const result = await h.client.web.crawl.mutate({
      urls: [h.server.urlFor('/site/0?size=20')],
      depth: 3,
      maxPages: 10,
      concurrency: 2,
    });
    expect(result.done).toBe(10);
    expect(h.server.traffic().maxInFlight).toBeLessThanOrEqual(2);
    expect(result.dir.startsWith(h.daemon.stateDir)).toBe(true);
    const listed = await h.client.web.artifacts.query({});
    expect(listed.artifacts.map((bundle) => bundle.id)).toContain(result.id);
    const shown = await h.client.web.artifactShow.query({ id: result.id });
    expect(shown.paths).toContain('pages.jsonl');
    expect(shown.paths.filter((path) => path.startsWith('pages/'))).toHaveLength(10);
    await expect(h.client.web.artifactShow.query({ id: '../etc' })).rejects.toMatchObject({ code: 'not_found' });
    expect((await h.client.web.artifactCleanup.mutate({ expired: true })).removed).toEqual([]);
    expect((await h.client.web.artifactCleanup.mutate({})).removed).toContain(result.id);
  });
});
