import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failure, useHarness } from './harness.js';

describe('crawl and research --out', () => {
  const h = useHarness();

  it('refuse a directory that is not new or empty before the run, saying to choose another', async () => {
    const out = join(h.workspace, 'taken');
    mkdirSync(out);
    writeFileSync(join(out, 'manifest.json'), '{}');
    h.server.resetTraffic();
    const crawl = await failure(h.client.web.crawl.mutate({ urls: [h.server.urlFor('/')], out, maxPages: 2 }));
    expect(crawl.code).toBe('file_exists');
    expect(crawl.message).toContain('Choose a new directory for --out');
    expect(crawl.message).not.toContain('--overwrite');
    // refused before a single request: robots.txt and the seed were never asked for
    expect(h.server.traffic().total).toBe(0);
    const research = await failure(h.client.web.research.mutate({ topic: 'anything', out }));
    expect(research.code).toBe('file_exists');
  });
});
