import { asyncSlot, CommandCancelledError, currentCommandScope } from '@argus/cdp';

/** Tab commands running at once across tabs when the configuration does not say (maxParallelCommands). */
export const DEFAULT_MAX_PARALLEL = 8;

export interface QueueStats {
  running: number;
  waiting: number;
  maxParallel: number;
}

/**
 * Commands on one tab run strictly FIFO; commands on different tabs run in parallel, at most
 * `maxParallel` at once. A failed command never blocks the ones queued behind it.
 *
 * Fairness: a command takes a slot only once the command before it on its tab has finished, so each
 * tab (and the '__structure__' key) has at most one command waiting for a slot, and slots are handed
 * out in the order those commands asked: a busy tab cannot starve another one. A run started from
 * inside a running command (a nested queue) already holds a slot and never waits for another, so
 * the cap cannot deadlock.
 */
export class TabQueues {
  private readonly tails = new Map<string, Promise<unknown>>();
  private readonly slotWaiters: Array<() => void> = [];
  private readonly holding = asyncSlot<true>('tab queue slot');
  private running = 0;

  constructor(readonly maxParallel = DEFAULT_MAX_PARALLEL) {
    if (!Number.isInteger(maxParallel) || maxParallel < 1)
      throw new RangeError(`maxParallel must be a positive integer, got ${maxParallel}`);
  }

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    // a command whose caller went away while it waited its turn never runs
    const signal = currentCommandScope()?.signal;
    const cancelled = () =>
      Promise.reject(new CommandCancelledError('The command was cancelled before it ran: its caller went away'));
    const start = () => (signal?.aborted ? cancelled() : this.inSlot(task, () => signal?.aborted === true, cancelled));
    const next = previous.then(start, start);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }

  /** Settles once the commands queued on `key` now have run (at once when none is): nothing new waits on it. */
  idle(key: string): Promise<void> {
    return (this.tails.get(key) ?? Promise.resolve()).then(() => undefined);
  }

  stats(): QueueStats {
    return { running: this.running, waiting: this.slotWaiters.length, maxParallel: this.maxParallel };
  }

  private async inSlot<T>(task: () => Promise<T>, aborted: () => boolean, cancelled: () => Promise<never>): Promise<T> {
    if (this.holding.get()) return task();
    await this.acquire();
    try {
      if (aborted()) return await cancelled();
      return await this.holding.run(true, task);
    } finally {
      this.releaseSlot();
    }
  }

  private acquire(): Promise<void> {
    if (this.running < this.maxParallel) {
      this.running++;
      return Promise.resolve();
    }
    // the slot is handed over by releaseSlot: `running` stays counted
    return new Promise<void>((resolve) => this.slotWaiters.push(resolve));
  }

  private releaseSlot(): void {
    const next = this.slotWaiters.shift();
    if (next) next();
    else this.running--;
  }
}
