import { readFileSync } from 'node:fs';
import { type FixtureServer, realPages, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractContent, HttpClient, OPERATOR_POLICY, PageFetcher, Resilience } from '../src/index.js';

const FIELDS = ['title', 'byline', 'excerpt', 'siteName'] as const;
type Field = (typeof FIELDS)[number];

let server: FixtureServer;
const http = new HttpClient();
const fetcher = new PageFetcher(http, new Resilience(), undefined);

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await http.close();
  await server.close();
});

/**
 * readability's own suite gives each saved page its expected metadata; `fetch` (HTTP tier, served by
 * the fixture server, extraction included) must agree on each field, and its text must be the
 * article: long, and without the page's navigation and footer boilerplate.
 */
describe('metadata agreement on the 24 real pages', () => {
  it('agrees on title, byline, excerpt and siteName for every page', async () => {
    const rows: string[] = [];
    const misses: string[] = [];
    for (const page of realPages()) {
      const expected = JSON.parse(readFileSync(page.metadataFile, 'utf8')) as Record<Field, string | null>;
      const got = await fetcher.fetch(server.urlFor(page.path), { policy: OPERATOR_POLICY, tier: 'http' });
      const marks = FIELDS.map((field) => {
        const same = (got[field] ?? null) === (expected[field] ?? null);
        if (!same)
          misses.push(
            `${page.name}.${field}: got ${JSON.stringify(got[field])}, want ${JSON.stringify(expected[field])}`,
          );
        return same ? 'yes' : 'NO';
      });
      rows.push(`| ${page.name} | ${marks.join(' | ')} | ${got.text.length} |`);
      expect(got.tier).toBe('http');
      expect(got.text.length, page.name).toBeGreaterThan(500);
      expect(got.markdown.length, page.name).toBeGreaterThan(500);
      expect(got.links.every((link) => /^https?:\/\//.test(link) && !link.includes('#'))).toBe(true);
      expect(new Set(got.links).size).toBe(got.links.length);
    }
    console.log(
      ['| page | title | byline | excerpt | siteName | text chars |', '|---|---|---|---|---|---|', ...rows].join('\n'),
    );
    expect(misses).toEqual([]);
  });
});

describe('text of adjacent blocks', () => {
  it('keeps a heading, paragraphs and list items apart (they were glued: "OK pageA normal page")', async () => {
    const html = `<html><body><article><h2>OK page</h2><p>A normal page with words enough to be an article.</p>
<ul><li>one</li><li>two</li></ul><p>Line<br>break</p></article></body></html>`;
    const { text } = extractContent(html, 'http://127.0.0.1/');
    expect(text).toContain('OK page\nA normal page');
    expect(text).toContain('one\ntwo');
    expect(text).toContain('Line\nbreak');
    const bbc = realPages().find((page) => page.name === 'bbc-1');
    if (!bbc) throw new Error('the real page bbc-1 is missing from the fixtures');
    const page = await fetcher.fetch(server.urlFor(bbc.path), { policy: OPERATOR_POLICY, tier: 'http' });
    expect(page.text).not.toContain('interviewMr Obama');
    expect(page.text).toContain('Read the full transcript of his interview\nMr Obama lands in Kenya');
  });
});
