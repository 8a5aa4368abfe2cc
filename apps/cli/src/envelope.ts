import type { CliCommand } from './spec.js';
import { ContentEnvelope } from '@argus/security';

let envelope: ContentEnvelope | undefined;

/** Wraps the command's page-content fields in an untrusted-content boundary. */
export function envelopeOutput(command: CliCommand, output: unknown): unknown {
  if (!command.pageContent?.length || !output || typeof output !== 'object') return output;
  envelope ??= new ContentEnvelope();
  const copy: Record<string, unknown> = { ...(output as Record<string, unknown>) };
  for (const field of command.pageContent) {
    const value = copy[field];
    if (value === undefined) continue;
    copy[field] = envelope.wrap(typeof value === 'string' ? value : JSON.stringify(value), command.name);
  }
  return copy;
}
