/**
 * Frames waiting for the socket. Bounded: when full, the oldest event goes first (events are
 * replaceable, terminal results are not); results go only if nothing but results is left.
 */
export class OutboundQueue {
  private items: Array<{ kind: 'result' | 'event'; data: string }> = [];
  dropped = 0;

  constructor(private readonly max = 500) {}

  push(kind: 'result' | 'event', data: string): void {
    this.items.push({ kind, data });
    while (this.items.length > this.max) {
      const eventIndex = this.items.findIndex((item) => item.kind === 'event');
      this.items.splice(eventIndex === -1 ? 0 : eventIndex, 1);
      this.dropped += 1;
    }
  }

  /** A new relay connection does not want events from before it existed; results it does. */
  dropEvents(): void {
    this.items = this.items.filter((item) => item.kind === 'result');
  }

  drain(): string[] {
    const out = this.items.map((item) => item.data);
    this.items = [];
    return out;
  }

  get size(): number {
    return this.items.length;
  }
}
