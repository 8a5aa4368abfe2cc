import type { CliCommand } from './spec.js';
import { ContentEnvelope } from '@argus/security';

let envelope: ContentEnvelope | undefined;

const empty = (value: unknown) => value === null || value === undefined || (Array.isArray(value) && value.length === 0);

/** `--json --untrusted-envelope`: each page-content field of the object between the markers. */
export function envelopeOutput(command: CliCommand, output: unknown): unknown {
  if (!command.pageContent?.length || !output || typeof output !== 'object') return output;
  envelope ??= new ContentEnvelope();
  const copy: Record<string, unknown> = { ...(output as Record<string, unknown>) };
  for (const field of command.pageContent) {
    const value = copy[field];
    if (empty(value)) continue;
    copy[field] = envelope.wrap(typeof value === 'string' ? value : JSON.stringify(value));
  }
  return copy;
}

/**
 * `--untrusted-envelope` on text output: the rendered text, between the markers, when the result
 * carries page content. The renderers always get the structured result (wrapping fields before
 * rendering handed them strings where they expect lists, and crashed `console`, `network`, ...).
 */
export function envelopeText(command: CliCommand, output: unknown, text: string): string {
  if (!command.pageContent?.length || !output || typeof output !== 'object') return text;
  const fields = output as Record<string, unknown>;
  if (command.pageContent.every((field) => empty(fields[field]))) return text;
  envelope ??= new ContentEnvelope();
  return envelope.wrap(text);
}
