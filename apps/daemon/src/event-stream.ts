/**
 * Turns a listener-based source into an async iterable for a tRPC subscription. `start` registers
 * listeners (it may push buffered items first, synchronously, so nothing falls in a gap) and
 * returns their cleanup; `end` finishes the stream (e.g. the tab closed). The stream ends when the
 * caller's signal aborts; listeners are removed in every case. A slow consumer loses the oldest
 * queued items beyond `maxQueued`, never memory.
 */
export async function* eventStream<T>(options: {
  start: (push: (item: T) => void, end: () => void) => () => void;
  signal?: AbortSignal | undefined;
  maxQueued?: number;
  /** Beyond maxQueued: drop the oldest item (default), or end the stream (when a gap would corrupt the consumer). */
  overflow?: 'drop-oldest' | 'end';
}): AsyncGenerator<T, void, undefined> {
  const maxQueued = options.maxQueued ?? 10_000;
  const queue: T[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const signal = options.signal;
  const onAbort = () => {
    ended = true;
    notify();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  const stop = options.start((item) => {
    if (ended) return;
    queue.push(item);
    if (queue.length > maxQueued) {
      if (options.overflow === 'end') {
        queue.length = 0;
        ended = true;
      } else queue.shift();
    }
    notify();
  }, onAbort);
  try {
    for (;;) {
      while (queue.length > 0 && !signal?.aborted) yield queue.shift() as T;
      if (ended || signal?.aborted) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    stop();
    signal?.removeEventListener('abort', onAbort);
  }
}
