type Output = Record<string, unknown>;

/** `argus fetch`: the content in the format asked for, with a one-line header saying where it came from. */
function fetchPage(output: Output): string {
  if (output.format === 'json') return JSON.stringify(output, null, 2);
  const body = output.format === 'text' ? output.text : output.format === 'html' ? output.html : output.markdown;
  const via = output.fallbackReason
    ? `${String(output.tier)} (fallback: ${String(output.fallbackReason)})`
    : String(output.tier);
  const head = [
    `# ${String(output.title ?? '(untitled)')}`,
    `${String(output.finalUrl)}  [${via}, ${String(output.status ?? '-')}]`,
  ];
  if (output.byline) head.push(`by ${String(output.byline)}`);
  return [...head, '', String(body ?? '')].join('\n');
}

interface ArtifactLine {
  id: string;
  kind: string;
  created: string;
  expires: string;
  files: number;
  bytes: number;
}

const artifactLine = (a: ArtifactLine) =>
  `${a.id}  ${a.kind}  ${a.files} files, ${a.bytes} bytes  created ${a.created}  expires ${a.expires}`;

export const webRenderers: Record<string, (output: Output) => string> = {
  'web.fetch': fetchPage,
  'web.crawl': (output) =>
    [
      `crawl ${String(output.id)}: ${String(output.done)} pages, ${String(output.failed)} failed, ${String(output.skipped)} skipped by robots.txt (${String(output.pagesPerSecond)} pages/s)`,
      String(output.dir),
      ...(output.warnings as string[]).map((warning) => `warning: ${warning}`),
    ].join('\n'),
  'web.artifacts': (output) => (output.artifacts as ArtifactLine[]).map(artifactLine).join('\n') || '(no bundles)',
  'web.artifactShow': (output) =>
    [
      artifactLine(output as unknown as ArtifactLine),
      String(output.dir),
      ...(output.paths as string[]).map((path) => `  ${path}`),
    ].join('\n'),
  'web.artifactCleanup': (output) => {
    const removed = output.removed as string[];
    return removed.length ? `removed ${removed.length}: ${removed.join(', ')}` : 'nothing to remove';
  },
};
