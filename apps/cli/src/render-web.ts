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

export const webRenderers: Record<string, (output: Output) => string> = {
  'web.fetch': fetchPage,
};
