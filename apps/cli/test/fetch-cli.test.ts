import { describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';

const cli = useCli('argus-cli-fetch-');

describe('argus fetch', () => {
  it('prints the main content as Markdown, text or JSON; --browser renders in the daemon', async () => {
    const url = cli.server.urlFor('/long.html');
    const markdown = await cli.argus('fetch', url);
    expect(markdown.code, markdown.stderr).toBe(0);
    expect(markdown.stdout).toMatch(/\[http, 200\]/);

    const json = await cli.argus('fetch', url, '--format', 'json');
    const page = JSON.parse(json.stdout) as { tier: string; finalUrl: string; links: string[]; text: string };
    expect(page.tier).toBe('http');
    expect(page.finalUrl).toBe(url);
    expect(page.text.length).toBeGreaterThan(200);

    const shell = await cli.argus('fetch', cli.server.urlFor('/js-shell.html'), '--format', 'text');
    expect(shell.code, shell.stderr).toBe(0);
    expect(shell.stdout).toMatch(/\[browser \(fallback: js-shell\), 200\]/);
    expect(shell.stdout).toContain('only after the script has run');

    const missing = await cli.argus('fetch', cli.server.urlFor('/status/404'), '--http');
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/^error\[not_found\]/);
  });

  it('crawl writes a bundle that artifacts list and show find', async () => {
    const crawl = await cli.argus('crawl', cli.server.urlFor('/site/0?size=9'), '--max-pages', '4', '--depth', '3');
    expect(crawl.code, crawl.stderr).toBe(0);
    const id = /^crawl (\S+): 4 pages, 0 failed, 0 skipped/.exec(crawl.stdout)?.[1];
    expect(id, crawl.stdout).toBeDefined();
    expect((await cli.argus('artifacts', 'list')).stdout).toContain(id!);
    expect((await cli.argus('artifacts', 'show', id!)).stdout).toContain('pages.jsonl');
  });
});
