import type { AnyCommand } from '@argus/protocol';
import type { ContentEnvelope } from '@argus/security';
import { isEmpty } from './render.js';

/**
 * The structured copy of a result (MCP `structuredContent`) with the output fields the manifest
 * marks as page content each between the session's markers (without the notice: the text block
 * carries it). Non-string values (e.g. an eval result) are serialised first, so nothing from the
 * page reaches a client that shows structured data to a model outside the boundary.
 */
export function envelopeOutput(command: AnyCommand, output: unknown, envelope: ContentEnvelope | undefined): unknown {
  if (!envelope || !command.pageContent?.length || !output || typeof output !== 'object' || Array.isArray(output))
    return output;
  const copy: Record<string, unknown> = { ...(output as Record<string, unknown>) };
  for (const field of command.pageContent) {
    const value = copy[field];
    // nothing from the page (no dialog, no console error): nothing to mark
    if (isEmpty(value)) continue;
    copy[field] = envelope.mark(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)));
  }
  return copy;
}
