/**
 * FIFO leases keyed by target: the head of each queue holds the lease, everyone behind it waits.
 * Two raw CDP clients never interleave commands on one tab.
 */
export class LeaseQueue {
  private readonly queues = new Map<string, Array<() => void>>();

  /** `onGranted` runs once, when this caller reaches the head. Returns the release function. */
  acquire(key: string, onGranted: () => void): { position: number; release: () => void } {
    const queue = this.queues.get(key) ?? [];
    this.queues.set(key, queue);
    queue.push(onGranted);
    const position = queue.length - 1;
    if (position === 0) onGranted();
    let released = false;
    return {
      position,
      release: () => {
        if (released) return;
        released = true;
        const index = queue.indexOf(onGranted);
        if (index === -1) return;
        queue.splice(index, 1);
        if (queue.length === 0) this.queues.delete(key);
        else if (index === 0) queue[0]?.();
      },
    };
  }

  waiting(key: string): number {
    return Math.max(0, (this.queues.get(key)?.length ?? 0) - 1);
  }
}
