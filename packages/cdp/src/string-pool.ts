/** Distinct values pooled at most; the pool starts again when full. */
const POOL_SIZE = 2_048;
/** Characters pooled at most, over all values (the pool starts again past it). */
const POOL_CHARS = 2_000_000;
/** Values longer than this are not pooled. */
const POOLED_MAX_LENGTH = 100_000;

/**
 * One copy of each string a tab's network ring sees again and again. Each message from Chrome is
 * parsed into fresh strings, so the ring held the same User-Agent, Accept, sec-ch-ua and referrer
 * once per request, and the same inline `data:` image URL (often kilobytes) once per page load.
 * Bounded by entries and by characters: a pool that fills is dropped and refilled by what comes
 * next (the common values come back at once).
 */
export class StringPool {
  private readonly values = new Map<string, string>();
  private chars = 0;

  constructor(
    private readonly size = POOL_SIZE,
    private readonly maxChars = POOL_CHARS,
    private readonly maxLength = POOLED_MAX_LENGTH,
  ) {}

  get pooled(): number {
    return this.values.size;
  }

  get pooledChars(): number {
    return this.chars;
  }

  intern(value: string): string {
    if (value.length > this.maxLength) return value;
    const known = this.values.get(value);
    if (known !== undefined) return known;
    if (this.values.size >= this.size || this.chars + value.length > this.maxChars) {
      this.values.clear();
      this.chars = 0;
    }
    this.values.set(value, value);
    this.chars += value.length;
    return value;
  }
}
