import type { AnyCommand } from '@argus/protocol';
import type { ContentEnvelope } from '@argus/security';

/** A plain JSON object (what every manifest output is). */
export type OutputObject = Record<string, unknown>;

function scalar(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

/** Null, undefined or an empty list: nothing to show (and, for page content, nothing to mark). */
export function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || (Array.isArray(value) && value.length === 0);
}

/**
 * Text an agent reads for a tool result: one `key: value` line per scalar field (empty lists and
 * nulls skipped), then the page-content fields as one block at the end, so the longest text comes
 * last and every other fact stays readable above it. With an envelope the block is wrapped once
 * (one pair of markers per reply, however many page fields it has). A `value` (an evaluation's
 * result) is always JSON, so the string "42" and the number 42 read differently.
 */
export function renderOutput(command: AnyCommand, output: unknown, envelope?: ContentEnvelope): string {
  if (!output || typeof output !== 'object' || Array.isArray(output)) return scalar(output);
  const pageFields = new Set(command.pageContent ?? []);
  const lines: string[] = [];
  const page: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(output as OutputObject)) {
    if (pageFields.has(key)) {
      if (!isEmpty(value)) page.push([key, key === 'value' ? (JSON.stringify(value) ?? 'null') : scalar(value)]);
    } else if (!isEmpty(value)) {
      lines.push(`${key}: ${scalar(value)}`);
    }
  }
  // one-line fields are labelled (`title: …`), except a lone text or value; the one multi-line
  // field (a snapshot, a page's text) needs no label and comes last; several are labelled blocks
  // (a snapshot's `text` is never labelled: a `key: ` prefix would make its refs read as a value)
  const multiLine = page.filter(([, text]) => text.includes('\n')).length;
  const bare = (key: string, text: string) =>
    key === 'text' || (text.includes('\n') ? multiLine === 1 : page.length === 1 && key === 'value');
  const last = (key: string, text: string) => Number(bare(key, text) || text.includes('\n'));
  page.sort(([ka, a], [kb, b]) => last(ka, a) - last(kb, b));
  const block = page
    .map(([key, text]) => (bare(key, text) ? text : text.includes('\n') ? `${key}:\n${text}` : `${key}: ${text}`))
    .join('\n');
  if (block) lines.push(envelope ? envelope.wrap(block) : block);
  return lines.join('\n') || 'ok';
}
