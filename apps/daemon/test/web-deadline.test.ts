import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

describe('crawl --timeout-ms', () => {
  const h = useHarness();

  it('bounds the whole crawl: it returns the pages read before the deadline and says the deadline cut it', async () => {
    // 40 pages of 400 ms each, one at a time: 16 s unbounded
    const started = Date.now();
    const result = await h.client.web.crawl.mutate({
      urls: [h.server.urlFor('/site/0?size=40&ms=400')],
      depth: 10,
      maxPages: 40,
      concurrency: 1,
      timeoutMs: 1_500,
    });
    expect(Date.now() - started).toBeLessThan(4_500);
    expect(result.timedOut).toBe(true);
    expect(result.done).toBeGreaterThan(0);
    expect(result.done).toBeLessThan(40);
    expect(result.queued).toBeGreaterThan(0);
    expect(result.failed).toBe(0);
    expect(result.warnings.join('\n')).toContain('--timeout-ms 1500 ended the crawl');
  });
});
