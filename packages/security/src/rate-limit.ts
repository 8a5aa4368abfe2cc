/**
 * Per-key token bucket. Cheap endpoints (pairing above all) are easy to hammer; a bucket per key
 * (an Origin, a token) keeps one runaway caller from starving the others. Every local process
 * shares the loopback address, so the key is never the IP alone.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updatedAt: number }>();

  constructor(
    private readonly capacity: number,
    private readonly refillPerSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  take(key: string): boolean {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.capacity, updatedAt: now };
    bucket.tokens = Math.min(this.capacity, bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.refillPerSecond);
    bucket.updatedAt = now;
    if (bucket.tokens < 1) {
      this.buckets.set(key, bucket);
      return false;
    }
    bucket.tokens -= 1;
    this.buckets.set(key, bucket);
    // keep the map bounded: forget keys whose bucket is full again
    if (this.buckets.size > 1000) {
      for (const [k, b] of this.buckets) if (b.tokens >= this.capacity - 1) this.buckets.delete(k);
    }
    return true;
  }
}

/** Counts open connections per key and refuses past a cap (sockets per client). */
export class ConnectionLimiter {
  private readonly open = new Map<string, number>();

  constructor(private readonly perKey: number) {}

  /** Reserves a slot; returns the release function, or undefined when the key is at its cap. */
  acquire(key: string): (() => void) | undefined {
    const count = this.open.get(key) ?? 0;
    if (count >= this.perKey) return undefined;
    this.open.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(key) ?? 1) - 1;
      if (left <= 0) this.open.delete(key);
      else this.open.set(key, left);
    };
  }

  count(key: string): number {
    return this.open.get(key) ?? 0;
  }
}
