import type { RenderersOf } from './types.js';

type ArtifactLine = { id: string; kind: string; created: string; expires: string; files: number; bytes: number };

const artifactLine = (a: ArtifactLine) =>
  `${a.id}  ${a.kind}  ${a.files} files, ${a.bytes} bytes  created ${a.created}  expires ${a.expires}`;

/** Web providers: fetched content under a header saying where it came from; crawls and their bundles. */
export const webRenderers: RenderersOf<'web'> = {
  'web.fetch': (output) => {
    if (output.format === 'json') return JSON.stringify(output, null, 2);
    const body =
      output.format === 'text' ? output.text : output.format === 'html' ? (output.html ?? '') : output.markdown;
    const via = output.fallbackReason ? `${output.tier} (fallback: ${output.fallbackReason})` : output.tier;
    const head = [`# ${output.title ?? '(untitled)'}`, `${output.finalUrl}  [${via}, ${output.status ?? '-'}]`];
    if (output.byline) head.push(`by ${output.byline}`);
    return [...head, '', body].join('\n');
  },
  'web.crawl': (output) =>
    [
      `crawl ${output.id}: ${output.done} pages, ${output.failed} failed, ${output.skipped} skipped (robots.txt or policy; ${output.pagesPerSecond} pages/s)`,
      output.out ?? output.dir,
      ...output.errors.map((error) => `failed[${error.code}]: ${error.message}`),
      ...output.warnings.map((warning) => `warning: ${warning}`),
    ].join('\n'),
  'web.search': (output) =>
    output.results.length
      ? output.results
          .map((hit) =>
            [`${hit.rank}. ${hit.title}`, `   ${hit.url}`, ...(hit.snippet ? [`   ${hit.snippet}`] : [])].join('\n'),
          )
          .join('\n')
      : `no results for "${output.query}" (${output.engine})`,
  // the report itself follows the summary: it is what an agent (or a reader) came for
  'web.research': (output) =>
    [
      `research ${output.id}: ${output.fetched} sources from ${output.searched} ${output.engine} results (${output.duplicates} duplicates, ${output.failed} failed${output.tooOld ? `, ${output.tooOld} older than --since` : ''})`,
      output.out ?? output.dir,
      ...output.warnings.map((warning) => `warning: ${warning}`),
      '',
      output.report,
    ].join('\n'),
  'web.crawlProgress': (output) =>
    `crawl: ${output.done} done, ${output.queued} queued, ${output.failed} failed, ${output.skipped} skipped (${output.pagesPerSecond} pages/s)`,
  'web.artifacts': (output) => output.artifacts.map(artifactLine).join('\n') || '(no bundles)',
  'web.artifactShow': (output) =>
    [artifactLine(output), output.dir, ...output.paths.map((path) => `  ${path}`)].join('\n'),
  'web.artifactCleanup': (output) =>
    output.removed.length ? `removed ${output.removed.length}: ${output.removed.join(', ')}` : 'nothing to remove',
};
