import { commandByVerb } from '@argus/protocol';
import { ArgusError, isArgusError } from '@argus/protocol/errors';
import type { z } from 'zod';

/**
 * Daemon messages name CLI verbs ("Run `argus snapshot`"); an agent calls tools, so name the tool
 * where the verb has one ("Run `argus_snapshot`").
 */
export function withToolNames(message: string): string {
  return message.replace(/`argus ([a-z]+)`/g, (whole, verb: string) => {
    const command = commandByVerb(verb);
    return command && command.tool !== false ? `\`${command.tool}\`` : whole;
  });
}

/** The one line agents see for a failure: `error[code]: actionable message`. */
export function errorText(error: ArgusError): string {
  return `error[${error.code}]: ${withToolNames(error.message)}`;
}

export function asArgusError(error: unknown): ArgusError {
  if (isArgusError(error)) return error;
  // Another copy of @argus/protocol (e.g. bundled elsewhere) still carries a code.
  const candidate = error as { name?: unknown; code?: unknown; message?: unknown; details?: unknown } | undefined;
  if (candidate?.name === 'ArgusError' && typeof candidate.code === 'string' && typeof candidate.message === 'string') {
    return ArgusError.fromData({
      code: candidate.code as ArgusError['code'],
      message: candidate.message,
      ...(candidate.details ? { details: candidate.details as Record<string, unknown> } : {}),
    });
  }
  return new ArgusError('internal', error instanceof Error ? error.message : String(error), { cause: error });
}

/** Turns zod issues (plus unknown argument names) into one `invalid_input` error that says what to fix. */
export function invalidArguments(
  tool: string,
  issues: readonly z.core.$ZodIssue[],
  unknownKeys: readonly string[],
  known: readonly string[],
): ArgusError {
  const parts = issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  if (unknownKeys.length > 0)
    parts.push(
      `unknown argument${unknownKeys.length > 1 ? 's' : ''} ${unknownKeys.join(', ')} (expected: ${known.join(', ') || 'none'})`,
    );
  return new ArgusError('invalid_input', `Invalid arguments for ${tool}: ${parts.join('; ')}.`, {
    details: { issues: parts },
  });
}
