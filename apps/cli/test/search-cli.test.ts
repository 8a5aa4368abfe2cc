import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FixtureServer, fakeSearchEngines, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';

const cli = useCli('argus-cli-search-');
const fake = fakeSearchEngines();
let engines: FixtureServer;

beforeAll(async () => {
  engines = await startFixtureServer({ pages: fake.pages });
  // the daemon the first command starts inherits these (the env layer of the config)
  process.env['ARGUS_DUCKDUCKGO_URL'] = engines.origin;
  process.env['ARGUS_SEARXNG_URL'] = engines.origin;
  delete process.env['ARGUS_BRAVE_API_KEY'];
  delete process.env['ARGUS_SEARCH_ENGINE'];
});
afterAll(async () => {
  delete process.env['ARGUS_DUCKDUCKGO_URL'];
  delete process.env['ARGUS_SEARXNG_URL'];
  await engines.close();
});

describe('argus search', () => {
  it('prints ranked hits; --json gives the normalised records; a missing Brave key names the variable', async () => {
    const text = await cli.argus('search', 'home battery', '--limit', '3');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('1. Home battery storage: what a household system does');
    expect(text.stdout).toContain(engines.urlFor('/research/grid-batteries.html'));

    const json = await cli.argus('search', 'home battery', '--engine', 'duckduckgo', '--json');
    expect(json.code, json.stderr).toBe(0);
    const answer = JSON.parse(json.stdout) as { engine: string; results: Array<{ rank: number; engine: string }> };
    expect(answer.engine).toBe('duckduckgo');
    expect(answer.results.map((hit) => hit.rank)).toEqual([1, 2, 3]);

    const brave = await cli.argus('search', 'battery', '--engine', 'brave');
    expect(brave.code).toBe(1);
    expect(brave.stderr).toMatch(/^error\[auth\]: .*ARGUS_BRAVE_API_KEY/);
  });

  it('research writes the bundle, prints the cited report, and copies it to --out', async () => {
    const run = await cli.argus('research', 'home battery storage', '--fetch', '6', '--out', 'notes/battery');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^research (research-\S+): 4 sources from 7 searxng results \(2 duplicates, 1 failed\)/);
    expect(run.stdout).toContain(`- A home battery stores the surplus of a rooftop solar array`);
    expect(run.stdout).toContain(`[1](${engines.urlFor('/research/solar-storage.html')})`);
    const out = join(cli.workspace, 'notes', 'battery');
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('# Research: home battery storage');
    for (const file of ['records.json', 'manifest.json', 'sources/01.md'])
      expect(existsSync(join(out, file)), file).toBe(true);
    const id = /^research (\S+):/.exec(run.stdout)?.[1];
    expect((await cli.argus('artifacts', 'show', id!)).stdout).toContain('report.md');
  });
});
