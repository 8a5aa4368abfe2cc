import { ArgusError, type ErrorCode, isArgusError, isRetryable } from '@argus/protocol/errors';

/** The codes a provider raises (all in the one table of `@argus/protocol`). */
export type ProviderErrorCode =
  | 'invalid_input'
  | 'timeout'
  | 'network'
  | 'rate_limited'
  | 'auth'
  | 'upstream'
  | 'not_found'
  | 'policy_blocked'
  | 'circuit_open'
  | 'too_large';

export interface ProviderErrorOptions {
  retryable?: boolean;
  details?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * An ArgusError whose `details.retryable` is always set, so a caller (or an agent reading the JSON)
 * knows whether trying again can help without knowing the code table.
 */
export function providerError(
  code: ProviderErrorCode,
  message: string,
  options: ProviderErrorOptions = {},
): ArgusError {
  const probe = new ArgusError(code, message);
  const retryable = options.retryable ?? isRetryable(probe);
  return new ArgusError(code, message, {
    details: { ...options.details, retryable },
    ...(options.cause === undefined ? {} : { cause: options.cause }),
  });
}

/** Whether the retry policy may try again at once (a breaker that is open is waited out, not hammered). */
export function shouldRetry(error: unknown): boolean {
  return isArgusError(error) && error.code !== 'circuit_open' && isRetryable(error);
}

/** Whether a failure says something about the host's health (and so counts toward its breaker). */
export function countsAgainstHost(error: unknown): boolean {
  if (!isArgusError(error)) return false;
  const codes: ErrorCode[] = ['timeout', 'network', 'rate_limited', 'upstream'];
  return codes.includes(error.code) && isRetryable(error);
}

/** `Retry-After` in milliseconds carried by a rate_limited/upstream error, if any. */
export function retryAfterOf(error: unknown): number | undefined {
  if (!isArgusError(error)) return undefined;
  const value = error.details?.['retryAfterMs'];
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from now. */
export function parseRetryAfter(header: string | undefined, now = Date.now()): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
