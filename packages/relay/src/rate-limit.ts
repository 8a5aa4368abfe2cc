/**
 * Per-key token bucket. HTTP endpoints (/pair above all) are cheap to hammer; a bucket per IP keeps
 * a runaway page or script from flooding the relay or brute-forcing pairing codes.
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
