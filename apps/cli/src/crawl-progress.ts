import { randomBytes } from 'node:crypto';
import type { Connection } from '@argus/client';
import type { OutputOf } from '@argus/protocol/render';

/** One progress event: the `web.crawlProgress` output the manifest declares. */
type Progress = OutputOf<'web.crawlProgress'>;

/** At most one line a second on stderr (a 500-page crawl reports every page), and always the last. */
const EVERY_MS = 1_000;

export function progressLine(event: Progress): string {
  return `crawl: ${event.done} done, ${event.queued} queued, ${event.failed} failed, ${event.skipped} skipped (${event.pagesPerSecond} pages/s)`;
}

/**
 * Runs a crawl while following its progress (`web.crawlProgress`, over a WebSocket of its own) and
 * printing it on stderr; stdout keeps only the result. The crawl gets a random job id to report under.
 */
export async function withCrawlProgress<T>(
  connection: Connection,
  input: Record<string, unknown>,
  err: (line: string) => void,
  run: (input: Record<string, unknown>) => Promise<T>,
): Promise<T> {
  const { subscribe } = await import('./connection.js');
  const job = randomBytes(12).toString('base64url');
  const controller = new AbortController();
  let last = 0;
  let pending: Progress | undefined;
  let started!: () => void;
  const ready = new Promise<void>((resolve) => (started = resolve));
  const watching = subscribe(
    connection,
    'web.crawlProgress',
    { job },
    {
      signal: controller.signal,
      onStarted: () => started(),
      onData: (value) => {
        const event = value as Progress;
        const now = performance.now();
        if (event.finished || now - last >= EVERY_MS) {
          err(progressLine(event));
          last = now;
          pending = undefined;
        } else pending = event;
      },
    },
  ).catch(() => undefined); // progress is a courtesy: the crawl's own result decides the exit code
  // the crawl starts once the watch is in place (or failed), so its first pages are not missed
  await Promise.race([ready, watching]);
  try {
    return await run({ ...input, progress: job });
  } finally {
    controller.abort();
    await watching;
    if (pending) err(progressLine(pending));
  }
}
