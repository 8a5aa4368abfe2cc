import { ArgusError, isErrorCode } from '@argus/protocol';
import type { WireError } from './wire/index.js';

/** An error the extension reported for a command, kept in wire form until a caller maps it. */
export class RemoteCommandError extends Error {
  override readonly name = 'RemoteCommandError';
  constructor(readonly wire: WireError) {
    super(wire.message);
  }
}

/** Wire error code the extension uses for errors returned by Chrome's DevTools protocol itself. */
export const CDP_ERROR_CODE = 'cdp_error';

export function toArgusError(error: unknown): ArgusError {
  if (error instanceof ArgusError) return error;
  if (error instanceof RemoteCommandError) {
    const { code, message, details } = error.wire;
    return new ArgusError(isErrorCode(code) ? code : 'internal', message, {
      details: { ...details, remoteCode: code },
    });
  }
  return new ArgusError('internal', error instanceof Error ? error.message : String(error), { cause: error });
}

export function toWireError(error: unknown): WireError {
  if (error instanceof RemoteCommandError) return error.wire;
  const argus = toArgusError(error);
  return argus.details === undefined
    ? { code: argus.code, message: argus.message }
    : { code: argus.code, message: argus.message, details: argus.details };
}
