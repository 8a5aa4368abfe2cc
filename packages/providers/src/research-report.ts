import type { FetchedPage } from './fetch-page.js';

/** A fetched page kept as a source of the report, numbered in search-rank order. */
export interface ResearchSource {
  n: number;
  page: FetchedPage;
  snippet: string;
}

export interface LeftOut {
  url: string;
  reason: string;
}

const STOP = new Set(
  'the and for with that this from what when where which how why are was were has have had not but its into than then them they their there about over under your you our can may will would should could been being does did'.split(
    ' ',
  ),
);

/** The words of a topic that carry meaning (three letters or more, no stop words). */
export function topicTerms(topic: string): string[] {
  return [
    ...new Set(
      topic
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((word) => word.length >= 3 && !STOP.has(word)),
    ),
  ];
}

// made on first use: building it loads ICU's sentence rules, ~25 ms of every daemon start (issue 16)
let segmenter: Intl.Segmenter | undefined;

/** Sentences of a text, whitespace collapsed, fragments (under 6 words) and very long runs left out. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const paragraph of text.split(/\n+/)) {
    segmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' });
    for (const { segment } of segmenter.segment(paragraph)) {
      const sentence = segment.replace(/\s+/g, ' ').trim();
      const words = sentence.split(' ').length;
      if (words >= 6 && sentence.length <= 600) out.push(sentence);
    }
  }
  return out;
}

function termHits(sentence: string, terms: readonly string[]): number {
  const lower = sentence.toLowerCase();
  // a term matches its plural and other endings too (battery -> batteries): compare stems
  return terms.filter((term) => lower.includes(term.length > 5 ? term.slice(0, -1) : term)).length;
}

/**
 * The source's own sentences that say most about the topic: the lead (its first sentences, where
 * articles put their summary) and the sentences sharing the most topic terms, in page order.
 */
export function excerpts(
  text: string,
  terms: readonly string[],
  lead = 2,
  passages = 3,
): { lead: string[]; passages: string[] } {
  const all = sentences(text);
  const first = all.slice(0, lead);
  const scored = all
    .slice(lead)
    .map((sentence, index) => ({ sentence, index, score: termHits(sentence, terms) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, passages)
    .sort((a, b) => a.index - b.index)
    .map((entry) => entry.sentence);
  return { lead: first, passages: scored };
}

function cell(text: string | null | undefined): string {
  return (text ?? '').replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim() || '-';
}

function quote(sentence: string): string {
  return sentence.replace(/([*_`[\]<>])/g, '\\$1');
}

/**
 * An extractive report: no sentence of its own about the topic, only the sources' sentences, each
 * followed by the citation of the page it was read from (`[n](url)`), grouped by source in rank order.
 */
export function buildReport(input: {
  topic: string;
  engine: string;
  created: Date;
  sources: readonly ResearchSource[];
  leftOut: readonly LeftOut[];
}): string {
  const terms = topicTerms(input.topic);
  const lines: string[] = [
    `# Research: ${input.topic}`,
    '',
    `${input.sources.length} source${input.sources.length === 1 ? '' : 's'} read on ${input.created.toISOString().slice(0, 10)} from ${input.engine} results. Every statement below is quoted from the page it cites; nothing is written by Argus.`,
    '',
  ];
  if (input.sources.length) {
    lines.push('| # | title | site | published |', '| - | ----- | ---- | --------- |');
    for (const { n, page } of input.sources)
      lines.push(
        `| [${n}](${page.finalUrl}) | ${cell(page.title)} | ${cell(page.siteName ?? new URL(page.finalUrl).host)} | ${cell(page.publishedTime)} |`,
      );
    lines.push('');
  }
  for (const { n, page } of input.sources) {
    const cite = `[${n}](${page.finalUrl})`;
    lines.push(`## ${n}. ${page.title ?? page.finalUrl}`, '');
    const about = [
      page.siteName,
      page.byline ? `by ${page.byline}` : null,
      page.publishedTime ? `published ${page.publishedTime}` : null,
    ].filter(Boolean);
    lines.push(`${about.length ? `${about.join(' · ')} · ` : ''}<${page.finalUrl}>`, '');
    const { lead, passages } = excerpts(page.text, terms);
    // never the search engine's snippet: the header promises every line is quoted from the page
    const summary = lead.length ? lead : page.excerpt ? [page.excerpt] : [];
    for (const sentence of summary) lines.push(`- ${quote(sentence)} ${cite}`);
    if (passages.length) {
      lines.push('', 'On the topic:', '');
      for (const sentence of passages) lines.push(`- ${quote(sentence)} ${cite}`);
    }
    lines.push('');
  }
  if (input.leftOut.length) {
    lines.push('## Left out', '');
    for (const item of input.leftOut) lines.push(`- <${item.url}>: ${item.reason}`);
    lines.push('');
  }
  return lines.join('\n');
}
