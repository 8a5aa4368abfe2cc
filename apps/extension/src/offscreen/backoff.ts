/**
 * Bounded exponential backoff with "equal jitter": half the delay is fixed, half random, so a fleet
 * of extensions restarting together does not reconnect in lockstep, yet none waits longer than maxMs.
 */
export function backoffDelay(
  attempt: number,
  options: { baseMs?: number; maxMs?: number; random?: () => number } = {},
): number {
  const base = options.baseMs ?? 250;
  const max = options.maxMs ?? 5000;
  const random = options.random ?? Math.random;
  const capped = Math.min(max, base * 2 ** Math.max(0, Math.min(attempt, 20)));
  return Math.round(capped / 2 + random() * (capped / 2));
}
