import type { WireError } from '@argus/relay/wire';

/** A command failure with a wire error code; the relay maps it onto ArgusError / ProtocolError. */
export class CommandFailure extends Error {
  override readonly name = 'CommandFailure';
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }

  toWire(): WireError {
    return this.details
      ? { code: this.code, message: this.message, details: this.details }
      : { code: this.code, message: this.message };
  }

  /** Classifies chrome.* errors: CDP errors arrive as a JSON string `{"code":..,"message":..}`. */
  static from(error: unknown): CommandFailure {
    if (error instanceof CommandFailure) return error;
    const message = error instanceof Error ? error.message : String(error);
    try {
      const parsed = JSON.parse(message) as { code?: unknown; message?: unknown }; // shape checked below
      if (typeof parsed.code === 'number' && typeof parsed.message === 'string') {
        return new CommandFailure('cdp_error', parsed.message, { protocolCode: parsed.code });
      }
    } catch {
      // not JSON: a chrome.debugger / chrome.tabs error string
    }
    if (/not attached|detached while handling|No target with given id|Target closed/i.test(message))
      return new CommandFailure('target_closed', message);
    if (/No tab with id/i.test(message)) return new CommandFailure('tab_not_found', message);
    if (/Cannot access|cannot be debugged|chrome:\/\//i.test(message))
      return new CommandFailure('forbidden_scope', message);
    return new CommandFailure('internal', message);
  }
}
