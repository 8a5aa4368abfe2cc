import { CommandCancelledError, currentCommandScope } from '@argus/cdp';

/**
 * Commands on one tab run strictly FIFO; commands on different tabs run in parallel. A failed
 * command never blocks the ones queued behind it.
 */
export class TabQueues {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    // a command whose caller went away while it waited its turn never runs
    const signal = currentCommandScope()?.signal;
    const start = () =>
      signal?.aborted
        ? Promise.reject(new CommandCancelledError('The command was cancelled before it ran: its caller went away'))
        : task();
    const next = previous.then(start, start);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}
