/**
 * Fixed-capacity FIFO with O(1) append: the oldest entry is overwritten once full. Every entry gets
 * a monotonically increasing sequence number, so readers can ask for "everything since N".
 */
export class RingBuffer<T> {
  private readonly items: Array<T | undefined>;
  private start = 0;
  private length = 0;
  private nextSeq = 1;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    this.items = new Array<T | undefined>(capacity);
  }

  /** Appends and returns the entry's sequence number. */
  push(item: T): number {
    const index = (this.start + this.length) % this.capacity;
    this.items[index] = item;
    if (this.length < this.capacity) this.length++;
    else this.start = (this.start + 1) % this.capacity;
    return this.nextSeq++;
  }

  get size(): number {
    return this.length;
  }

  /** Sequence number the next push will get. */
  get seq(): number {
    return this.nextSeq;
  }

  /** Number of entries dropped because the buffer was full. */
  get dropped(): number {
    return this.nextSeq - 1 - this.length;
  }

  /** Entries with sequence number >= since (all by default), oldest first, each with its seq. */
  entries(since = 0): Array<{ seq: number; item: T }> {
    const firstSeq = this.nextSeq - this.length;
    const from = Math.max(since, firstSeq);
    const out: Array<{ seq: number; item: T }> = [];
    for (let seq = from; seq < this.nextSeq; seq++) {
      const item = this.items[(this.start + (seq - firstSeq)) % this.capacity];
      out.push({ seq, item: item as T });
    }
    return out;
  }

  /** The entry with this sequence number, if it is still in the buffer (O(1)). */
  at(seq: number): T | undefined {
    const firstSeq = this.nextSeq - this.length;
    if (!Number.isInteger(seq) || seq < firstSeq || seq >= this.nextSeq) return undefined;
    return this.items[(this.start + (seq - firstSeq)) % this.capacity];
  }

  clear(): void {
    this.items.fill(undefined);
    this.start = 0;
    this.length = 0;
  }
}
