import {
  BrokenCircuitError,
  CircuitState,
  ConsecutiveBreaker,
  DelegateBackoff,
  type CircuitBreakerPolicy,
  circuitBreaker,
  handleWhen,
  retry,
} from 'cockatiel';
import pLimit, { type LimitFunction } from 'p-limit';
import { countsAgainstHost, providerError, retryAfterOf, shouldRetry } from './provider-error.js';

export interface ResilienceOptions {
  /** Attempts after the first, for retryable errors only. */
  retries?: number;
  /** First backoff; doubles each attempt, full jitter. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Consecutive host failures that open its breaker. */
  breakerThreshold?: number;
  /** How long an open breaker fails fast before letting one probe through (half-open). */
  breakerCooldownMs?: number;
  globalConcurrency?: number;
  perProviderConcurrency?: number;
  perHostConcurrency?: number;
  /** Randomness for the jitter (tests pass a fixed one). */
  random?: () => number;
}

export interface RetryEvent {
  key: string;
  attempt: number;
  delayMs: number;
  error: unknown;
}

const DEFAULTS = {
  retries: 2,
  backoffMs: 250,
  maxBackoffMs: 10_000,
  breakerThreshold: 5,
  breakerCooldownMs: 30_000,
  globalConcurrency: 16,
  perProviderConcurrency: 8,
  perHostConcurrency: 4,
};

/**
 * Retries, breakers and concurrency limits around provider calls, keyed by host (or by engine for
 * search). cockatiel does the retry (exponential backoff with full jitter, `Retry-After` taking
 * precedence) and the breaker (consecutive failures open it; after the cooldown one half-open probe
 * decides). p-limit holds the per-key, per-provider and global in-flight limits, taken in that order
 * (a call queued behind its busy host holds no global slot). Limits sit outside the retry (a waiting
 * retry keeps its slot, so a host never sees more than its limit), the breaker inside (each attempt
 * counts, and an open breaker fails fast without touching the network).
 */
export class Resilience {
  private readonly options: Required<Omit<ResilienceOptions, 'random'>> & { random: () => number };
  private readonly breakers = new Map<string, CircuitBreakerPolicy>();
  /** When each key's breaker last opened: cockatiel moves to half-open only on the next call. */
  private readonly openedAt = new Map<string, number>();
  private readonly keyLimits = new Map<string, LimitFunction>();
  private readonly providerLimits = new Map<string, LimitFunction>();
  private readonly globalLimit: LimitFunction;
  private readonly retryListeners = new Set<(event: RetryEvent) => void>();

  constructor(options: ResilienceOptions = {}) {
    this.options = { ...DEFAULTS, random: Math.random, ...stripUndefined(options) };
    this.globalLimit = pLimit(this.options.globalConcurrency);
  }

  onRetry(listener: (event: RetryEvent) => void): () => void {
    this.retryListeners.add(listener);
    return () => this.retryListeners.delete(listener);
  }

  /** The breaker state of a key, for status output and tests. */
  state(key: string): 'closed' | 'open' | 'half-open' {
    const state = this.breakers.get(key)?.state;
    if (state === CircuitState.Isolated) return 'open';
    if (state === CircuitState.Open) {
      const opened = this.openedAt.get(key) ?? Date.now();
      return Date.now() - opened >= this.options.breakerCooldownMs ? 'half-open' : 'open';
    }
    if (state === CircuitState.HalfOpen) return 'half-open';
    return 'closed';
  }

  /**
   * Runs `fn` under `key`'s, `provider`'s and the global limit, with retry and `key`'s breaker.
   * `timeoutMs` bounds the whole run, waits and retries included: `fn`'s signal aborts at the
   * deadline, no backoff outlasts it, and a run past it fails with `timeout`.
   */
  run<T>(
    key: string,
    fn: (signal: AbortSignal) => Promise<T>,
    options: { provider?: string; signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<T> {
    const { timeoutMs } = options;
    if (timeoutMs === undefined) return this.limited(key, fn, options.provider, options.signal, undefined);
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
    let attempts = 0;
    const counted = (attemptSignal: AbortSignal): Promise<T> => {
      attempts += 1;
      return fn(attemptSignal);
    };
    return this.limited(key, counted, options.provider, signal, Date.now() + timeoutMs).catch((error: unknown) => {
      if (!deadline.aborted || options.signal?.aborted) throw error;
      const tried =
        attempts === 0 ? 'never asked: waiting for a free slot' : `${attempts} attempt${attempts === 1 ? '' : 's'}`;
      throw providerError(
        'timeout',
        `${key} did not answer within ${timeoutMs} ms (${tried}, retries and waits included). Retry later or raise --timeout-ms.`,
        { details: { key, timeoutMs, attempts }, cause: error },
      );
    });
  }

  private limited<T>(
    key: string,
    fn: (signal: AbortSignal) => Promise<T>,
    provider: string | undefined,
    signal: AbortSignal | undefined,
    deadlineAt: number | undefined,
  ): Promise<T> {
    const keyLimit = limitIn(this.keyLimits, key, this.options.perHostConcurrency);
    const providerLimit = limitIn(this.providerLimits, provider ?? 'default', this.options.perProviderConcurrency);
    return keyLimit(() => providerLimit(() => this.globalLimit(() => this.attempt(key, fn, signal, deadlineAt))));
  }

  private async attempt<T>(
    key: string,
    fn: (signal: AbortSignal) => Promise<T>,
    signal: AbortSignal | undefined,
    deadlineAt: number | undefined,
  ): Promise<T> {
    const breaker = this.breakerFor(key);
    const { backoffMs, maxBackoffMs, random } = this.options;
    // a server that asks for more than the longest backoff is not retried: waiting the backoff and
    // asking again would only be refused again, so the error (it says how long to wait) goes back now
    // nor is one past the caller's deadline (cockatiel's backoff wait does not watch the signal)
    const left = () => (deadlineAt === undefined ? Infinity : deadlineAt - Date.now());
    const retryable = (error: Error) =>
      shouldRetry(error) && (retryAfterOf(error) ?? 0) <= Math.min(maxBackoffMs, left()) && left() > 0;
    const policy = retry(handleWhen(retryable), {
      maxAttempts: this.options.retries,
      backoff: new DelegateBackoff((context) => {
        const failure = 'error' in context.result ? context.result.error : undefined;
        const retryAfter = retryAfterOf(failure);
        if (retryAfter !== undefined) return retryAfter;
        const jittered = Math.round(random() * Math.min(maxBackoffMs, backoffMs * 2 ** (context.attempt - 1)));
        return Math.max(0, Math.min(jittered, left()));
      }),
    });
    const listener = policy.onRetry((event) => {
      for (const notify of this.retryListeners)
        notify({
          key,
          attempt: event.attempt,
          delayMs: event.delay,
          error: 'error' in event ? event.error : undefined,
        });
    });
    try {
      return await policy.execute(({ signal: inner }) => breaker.execute(({ signal: own }) => fn(own), inner), signal);
    } catch (error) {
      if (error instanceof BrokenCircuitError)
        throw providerError(
          'circuit_open',
          `${key} failed ${this.options.breakerThreshold} times in a row; calls to it fail fast for ${Math.round(this.options.breakerCooldownMs / 1000)} s before one probe is let through. Try again later or another source.`,
          { details: { key, retryAfterMs: this.options.breakerCooldownMs } },
        );
      throw error;
    } finally {
      listener.dispose();
    }
  }

  private breakerFor(key: string): CircuitBreakerPolicy {
    let breaker = this.breakers.get(key);
    if (!breaker) {
      breaker = circuitBreaker(handleWhen(countsAgainstHost), {
        halfOpenAfter: this.options.breakerCooldownMs,
        breaker: new ConsecutiveBreaker(this.options.breakerThreshold),
      });
      breaker.onBreak(() => this.openedAt.set(key, Date.now()));
      this.breakers.set(key, breaker);
    }
    return breaker;
  }
}

function limitIn(limits: Map<string, LimitFunction>, key: string, concurrency: number): LimitFunction {
  let limit = limits.get(key);
  if (!limit) {
    limit = pLimit(concurrency);
    limits.set(key, limit);
  }
  return limit;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
