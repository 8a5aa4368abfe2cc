import { isArgusError } from '@argus/protocol/errors';
import { providerError } from './provider-error.js';
import type { NetworkPolicy } from './address-guard.js';
import type { ArtifactManifest, ArtifactStore } from './artifacts.js';
import { canonicalUrl } from './canonical-url.js';
import type { FetchedPage, PageFetcher } from './fetch-page.js';
import type { HttpClient } from './http-client.js';
import { NEAR_DUPLICATE, jaccard, shingles } from './near-duplicate.js';
import { type LeftOut, type ResearchSource, buildReport } from './research-report.js';
import type { Resilience } from './resilience.js';
import { type EngineName, type SearchResult, type SearchSettings, parseSince } from './search/engine.js';
import { searchWeb } from './search/search.js';

export interface ResearchDeps {
  http: HttpClient;
  resilience: Resilience;
  fetcher: PageFetcher;
  store: ArtifactStore;
  settings: SearchSettings;
}

export interface ResearchOptions {
  /** Who asks: what the fetched pages may be (the engine is the operator's and is asked as such). */
  policy: NetworkPolicy;
  engine?: EngineName | undefined;
  /** Search results asked for. */
  limit?: number;
  /** Distinct pages fetched, best-ranked first. */
  fetch?: number;
  since?: string | undefined;
  timeoutMs?: number;
  signal?: AbortSignal | undefined;
}

/** What happened to one search hit, in records.json. */
export interface ResearchRecord extends SearchResult {
  outcome: 'source' | 'duplicate' | 'failed' | 'too-old' | 'not-fetched';
  /** The report's number for a source, or the source this hit duplicates. */
  source: number | null;
  reason: string | null;
  error: { code: string; message: string } | null;
  page: (Omit<FetchedPage, 'markdown' | 'text' | 'html' | 'links'> & { words: number; file: string | null }) | null;
}

export interface ResearchResult {
  bundle: ArtifactManifest & { dir: string };
  topic: string;
  engine: EngineName;
  report: string;
  records: ResearchRecord[];
  counts: { searched: number; fetched: number; failed: number; duplicates: number; tooOld: number };
  /** The --timeout-ms deadline came before every chosen page was read: the report holds those read before it. */
  timedOut: boolean;
  /** What the caller should know about the run (the deadline that cut it, and what to do). */
  warnings: string[];
}

/**
 * Search, fetch the best distinct hits in parallel (the caller's address policy, the per-host limits,
 * retries and breakers of every fetch), drop duplicates (the same canonical URL, before fetching;
 * near-identical text, after), and write a bundle: report.md (extractive, every line cites the page it
 * quotes), records.json (every hit and what became of it), sources/NN.md, manifest.json.
 */
export async function research(deps: ResearchDeps, topic: string, options: ResearchOptions): Promise<ResearchResult> {
  const sinceMs = options.since === undefined ? undefined : parseSince(options.since);
  // --timeout-ms bounds the whole research: the search, then the page reads with what is left of it
  const started = performance.now();
  const { timeoutMs } = options;
  const left = (): number | undefined =>
    timeoutMs === undefined ? undefined : Math.max(1, Math.round(started + timeoutMs - performance.now()));
  const answer = await searchWeb(deps.http, deps.resilience, deps.settings, topic, {
    engine: options.engine,
    limit: options.limit ?? 10,
    since: options.since,
    signal: options.signal,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  }).catch((error: unknown) => {
    if (!isArgusError(error) || error.code !== 'timeout') throw error;
    throw providerError(
      'timeout',
      `research "${topic}" ran out of time in its search: ${error.message} Nothing was read. Raise --timeout-ms (it bounds the search and the page reads together).`,
      { details: { ...error.details, stage: 'search' }, cause: error },
    );
  });
  const searchMs = Math.round(performance.now() - started);
  const records = new Map<SearchResult, Partial<ResearchRecord>>();
  const byCanonical = new Map<string, SearchResult>();
  const wanted: SearchResult[] = [];
  const leftOut: LeftOut[] = [];
  for (const hit of answer.results) {
    const canonical = canonicalUrl(hit.url);
    const first = canonical === null ? undefined : byCanonical.get(canonical);
    if (canonical === null) {
      // counted as failed, so listed with the other failures too
      records.set(hit, { outcome: 'failed', reason: 'not an http(s) URL' });
      leftOut.push({ url: hit.url, reason: 'not read: not an http(s) URL' });
    } else if (first) records.set(hit, { outcome: 'duplicate', reason: `the same page as ${first.url}` });
    else {
      byCanonical.set(canonical, hit);
      if (wanted.length < (options.fetch ?? 5)) wanted.push(hit);
      else records.set(hit, { outcome: 'not-fetched', reason: 'beyond --fetch' });
    }
  }

  const remaining = left();
  const settled = await Promise.allSettled(
    wanted.map((hit) =>
      deps.fetcher.fetch(hit.url, {
        policy: options.policy,
        tier: 'auto',
        ...(remaining === undefined ? {} : { timeoutMs: remaining }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      }),
    ),
  );
  // pages the deadline cut: what was read before it is still the report; nothing read is an error
  const cut = settled.filter(
    (outcome) => outcome.status === 'rejected' && isArgusError(outcome.reason) && outcome.reason.code === 'timeout',
  ).length;
  // each read was given what was left of the deadline, so a read that timed out met the deadline
  const timedOut = timeoutMs !== undefined && cut > 0;
  if (timedOut && settled.every((outcome) => outcome.status === 'rejected'))
    throw providerError(
      'timeout',
      `research "${topic}" ran out of time: the search answered ${answer.results.length} results in ${searchMs} ms, but none of the ${wanted.length} pages chosen was read within --timeout-ms ${timeoutMs}. Raise --timeout-ms (it bounds the search and the page reads together), or lower --fetch.`,
      { details: { stage: 'fetch', timeoutMs, searched: answer.results.length, asked: wanted.length, searchMs } },
    );

  const bundle = deps.store.create('research');
  const created = new Date();
  const sources: Array<ResearchSource & { shingles: Set<string>; hit: SearchResult }> = [];
  const seenFinal = new Map<string, number>();
  settled.forEach((outcome, index) => {
    const hit = wanted[index]!;
    if (outcome.status === 'rejected') {
      const error = outcome.reason as unknown;
      const code = isArgusError(error) ? error.code : 'internal';
      const message =
        timedOut && code === 'timeout'
          ? `not read before the --timeout-ms ${timeoutMs} deadline of the whole research`
          : error instanceof Error
            ? error.message
            : String(error);
      records.set(hit, { outcome: 'failed', reason: code, error: { code, message } });
      leftOut.push({ url: hit.url, reason: `not read (${code}): ${message}` });
      return;
    }
    const page = outcome.value;
    const published = page.publishedTime ? Date.parse(page.publishedTime) : Number.NaN;
    if (sinceMs !== undefined && Number.isFinite(published) && published < created.getTime() - sinceMs) {
      records.set(hit, {
        outcome: 'too-old',
        reason: `published ${page.publishedTime}, before --since ${options.since}`,
        page: meta(page, null),
      });
      leftOut.push({
        url: page.finalUrl,
        reason: `published ${page.publishedTime}, older than --since ${options.since}`,
      });
      return;
    }
    const finalKey = canonicalUrl(page.finalUrl) ?? page.finalUrl;
    const sameFinal = seenFinal.get(finalKey);
    const words = shingles(page.text);
    const near = sameFinal ?? sources.find((source) => jaccard(source.shingles, words) >= NEAR_DUPLICATE)?.n;
    if (near !== undefined) {
      const of = sources.find((source) => source.n === near)!;
      const reason =
        sameFinal !== undefined ? `redirects to source [${near}]` : `near-duplicate text of source [${near}]`;
      records.set(hit, { outcome: 'duplicate', source: near, reason, page: meta(page, null) });
      leftOut.push({ url: page.finalUrl, reason: `${reason} (${of.page.finalUrl})` });
      return;
    }
    const n = sources.length + 1;
    const file = `sources/${String(n).padStart(2, '0')}.md`;
    bundle.write(file, `# ${page.title ?? page.finalUrl}\n\n<${page.finalUrl}>\n\n${page.markdown}\n`);
    sources.push({ n, page, snippet: hit.snippet, shingles: words, hit });
    seenFinal.set(finalKey, n);
    records.set(hit, { outcome: 'source', source: n, page: meta(page, file) });
  });
  // a canonical-URL duplicate points at the source its first spelling became
  for (const [hit, record] of records) {
    if (record.outcome !== 'duplicate' || record.source !== undefined) continue;
    const first = byCanonical.get(canonicalUrl(hit.url) ?? '');
    const source = sources.find((entry) => entry.hit === first);
    record.source = source?.n ?? null;
    leftOut.push({
      url: hit.url,
      reason: source ? `the same page as source [${source.n}]` : (record.reason ?? 'duplicate'),
    });
  }

  const report = buildReport({ topic, engine: answer.engine, created, sources, leftOut });
  const all: ResearchRecord[] = answer.results.map((hit) => {
    const record = records.get(hit) ?? { outcome: 'not-fetched' as const };
    return {
      ...hit,
      outcome: record.outcome ?? 'not-fetched',
      source: record.source ?? null,
      reason: record.reason ?? null,
      error: record.error ?? null,
      page: record.page ?? null,
    };
  });
  bundle.write('report.md', report);
  bundle.write(
    'records.json',
    `${JSON.stringify({ topic, engine: answer.engine, created: created.toISOString(), records: all }, null, 2)}\n`,
  );
  const count = (outcome: ResearchRecord['outcome']) => all.filter((record) => record.outcome === outcome).length;
  const counts = {
    searched: answer.results.length,
    fetched: sources.length,
    failed: count('failed'),
    duplicates: count('duplicate'),
    tooOld: count('too-old'),
  };
  const warnings = timedOut
    ? [
        `--timeout-ms ${timeoutMs} ended the research before ${cut} of the ${wanted.length} pages chosen were read: the report holds the ${sources.length} read before it. Raise --timeout-ms to read them all.`,
      ]
    : [];
  const manifest = bundle.finish({
    topic,
    engine: answer.engine,
    since: options.since ?? null,
    ...counts,
    timedOut,
  });
  return {
    bundle: { ...manifest, dir: bundle.dir },
    topic,
    engine: answer.engine,
    report,
    records: all,
    counts,
    timedOut,
    warnings,
  };
}

function meta(page: FetchedPage, file: string | null): NonNullable<ResearchRecord['page']> {
  const { markdown: _markdown, text, html: _html, links: _links, ...rest } = page;
  return { ...rest, words: text.split(/\s+/).filter(Boolean).length, file };
}
