import type { AnyCommand } from '@argus/protocol';
import type { ContentEnvelope } from '@argus/security';
import { isEmpty } from './render.js';

/**
 * Wraps the output fields the manifest marks as page content in the session's untrusted-content
 * boundary. Non-string values (e.g. an eval result) are serialised first, so nothing from the
 * page reaches the agent outside the boundary in those fields.
 */
export function envelopeOutput(command: AnyCommand, output: unknown, envelope: ContentEnvelope | undefined): unknown {
  if (!envelope || !command.pageContent?.length || !output || typeof output !== 'object' || Array.isArray(output)) return output;
  const copy: Record<string, unknown> = { ...(output as Record<string, unknown>) };
  for (const field of command.pageContent) {
    const value = copy[field];
    // nothing from the page (no dialog, no console error): nothing to mark
    if (isEmpty(value)) continue;
    copy[field] = envelope.wrap(typeof value === 'string' ? value : JSON.stringify(value) ?? String(value), command.name);
  }
  return copy;
}
