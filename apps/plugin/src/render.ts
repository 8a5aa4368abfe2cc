import type { AnyCommand } from '@argus/protocol';

/** A plain JSON object (what every manifest output is). */
export type OutputObject = Record<string, unknown>;

function scalar(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
}

/** Null, undefined or an empty list: nothing to show (and, for page content, nothing to mark). */
export function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || (Array.isArray(value) && value.length === 0);
}

/**
 * Text an agent reads for a tool result: one `key: value` line per scalar field (empty lists and
 * nulls skipped), then the page-content fields as blocks at the end, so the longest text comes
 * last and every other fact stays readable above it.
 */
export function renderOutput(command: AnyCommand, output: unknown): string {
  if (!output || typeof output !== 'object' || Array.isArray(output)) return scalar(output);
  const pageFields = new Set(command.pageContent ?? []);
  const lines: string[] = [];
  const blocks: string[] = [];
  for (const [key, value] of Object.entries(output as OutputObject)) {
    if (pageFields.has(key)) {
      // a command with several page fields names each block (`dialogs:`), one with a single field needs no label
      if (!isEmpty(value)) blocks.push(pageFields.size > 1 ? `${key}:\n${scalar(value)}` : scalar(value));
    } else if (!isEmpty(value)) {
      lines.push(`${key}: ${scalar(value)}`);
    }
  }
  return [...lines, ...blocks].join('\n') || 'ok';
}
