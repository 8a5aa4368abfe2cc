import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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

  it('crawl prints its progress on stderr (done / queued / failed, rate) and copies the bundle to --out', async () => {
    const seed = cli.server.urlFor('/site/0?size=40&ms=40');
    const run = await cli.argus('crawl', seed, '--max-pages', '40', '--depth', '10', '--out', 'crawled');
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stderr.split('\n').filter((line) => line.startsWith('crawl: '));
    expect(lines.length, run.stderr).toBeGreaterThanOrEqual(1);
    for (const line of lines)
      expect(line).toMatch(/^crawl: \d+ done, \d+ queued, \d+ failed, \d+ skipped \([\d.]+ pages\/s\)$/);
    expect(lines.at(-1)).toMatch(/^crawl: 40 done, 0 queued, 0 failed, 0 skipped/);
    expect(run.stdout).not.toContain('crawl: 40 done'); // stdout keeps the result only
    const out = join(cli.workspace, 'crawled');
    expect(run.stdout).toContain(out);
    expect(readFileSync(join(out, 'pages.jsonl'), 'utf8').trim().split('\n')).toHaveLength(40);
    expect(existsSync(join(out, 'manifest.json'))).toBe(true);
  });
});
