import { EventEmitter } from 'node:events';
import type { OutputOf } from '@argus/protocol/render';

/** One progress event: the `web.crawlProgress` output the manifest declares. */
export type CrawlProgressEvent = OutputOf<'web.crawlProgress'>;

/**
 * Progress of running crawls by the job id their caller chose (`web.crawl --progress <id>`), for
 * `web.crawlProgress` subscribers: the CLI prints it on stderr while its crawl call runs.
 */
export class CrawlProgressHub {
  private readonly emitter = new EventEmitter();

  constructor() {
    // one listener per watcher of a job; jobs are short-lived and their listeners removed at the end
    this.emitter.setMaxListeners(0);
  }

  emit(job: string, event: CrawlProgressEvent): void {
    this.emitter.emit(job, event);
  }

  on(job: string, listener: (event: CrawlProgressEvent) => void): () => void {
    this.emitter.on(job, listener);
    return () => this.emitter.off(job, listener);
  }
}
