import type { Page } from '@argus/cdp';

/** One JPEG frame of a tab's screencast. */
export interface ScreencastFrame {
  seq: number;
  data: Buffer;
  /** When the daemon received it (ms since the epoch). */
  at: number;
  /** The viewport the frame shows, in CSS pixels (clicks are mapped onto it). */
  width: number;
  height: number;
}

/** Something that takes a tab's frames: a watch viewer or a recording. */
export interface FrameSink {
  frame(frame: ScreencastFrame): void;
  /** The screencast ended for good (the tab closed). */
  ended(reason: 'tab_closed'): void;
}

/** JPEG quality of the shared screencast: a fair picture at a fraction of PNG's size. */
const QUALITY = 70;

/**
 * The one screencast of a tab, shared by every sink: started when the first sink arrives, stopped
 * when the last leaves. Each frame is acknowledged as soon as it arrives (Chrome sends the next one
 * only after the ack), so a slow sink never holds Chrome back; sinks drop what they cannot take.
 * The last frame is kept so a sink that joins a still page sees it at once.
 */
class TabScreencast {
  private readonly sinks = new Map<FrameSink, number>();
  private last: ScreencastFrame | undefined;
  private seq = 0;
  private size = 0;
  private offs: Array<() => void> = [];

  constructor(
    private readonly page: Page,
    private readonly onEmpty: () => void,
    /** Runs the tab's screencast CDP calls in order, across successive screencasts of the tab. */
    private readonly queue: (task: () => Promise<void>) => void,
  ) {
    this.offs.push(
      page.session.on('Page.screencastFrame', (event) => this.onFrame(event)),
      page.session.onDetach(() => this.end()),
    );
  }

  get empty(): boolean {
    return this.sinks.size === 0;
  }

  add(sink: FrameSink, maxSize: number): void {
    this.sinks.set(sink, maxSize);
    if (this.last) sink.frame(this.last);
    // a larger size than the running screencast's: restart it at the larger size
    if (maxSize > this.size) this.restart(maxSize);
  }

  remove(sink: FrameSink): void {
    if (!this.sinks.delete(sink)) return;
    if (this.sinks.size > 0) return;
    this.dispose();
    this.queue(async () => {
      await this.page.session.send('Page.stopScreencast').catch(() => undefined);
    });
  }

  private restart(maxSize: number): void {
    const wasRunning = this.size > 0;
    this.size = maxSize;
    this.queue(async () => {
      if (this.page.closed || this.sinks.size === 0) return;
      if (wasRunning) await this.page.session.send('Page.stopScreencast').catch(() => undefined);
      await this.page.session
        .send('Page.startScreencast', { format: 'jpeg', quality: QUALITY, maxWidth: maxSize, maxHeight: maxSize })
        .catch(() => undefined);
    });
  }

  private onFrame(event: {
    data: string;
    sessionId: number;
    metadata: { deviceWidth: number; deviceHeight: number };
  }): void {
    // acknowledged first: Chrome waits for it before sending the next frame
    void this.page.session.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => undefined);
    if (this.sinks.size === 0) return;
    const frame: ScreencastFrame = {
      seq: ++this.seq,
      data: Buffer.from(event.data, 'base64'),
      at: Date.now(),
      width: event.metadata.deviceWidth,
      height: event.metadata.deviceHeight,
    };
    this.last = frame;
    for (const sink of [...this.sinks.keys()]) sink.frame(frame);
  }

  /** The tab closed: every sink hears it once. */
  end(): void {
    const sinks = [...this.sinks.keys()];
    this.sinks.clear();
    this.dispose();
    for (const sink of sinks) sink.ended('tab_closed');
  }

  private dispose(): void {
    for (const off of this.offs) off();
    this.offs = [];
    this.last = undefined;
    this.onEmpty();
  }
}

/** Screencasts by tab: one per tab however many viewers and recordings use it. */
export class ScreencastHub {
  private readonly casts = new Map<Page, TabScreencast>();
  /** Per tab, so a stop of a screencast that ended never overtakes the start of the next one. */
  private readonly chains = new WeakMap<Page, Promise<void>>();

  /** Sends the tab's frames to `sink` until the returned function runs (or the tab closes). */
  subscribe(page: Page, sink: FrameSink, maxSize: number): () => void {
    if (page.closed) {
      queueMicrotask(() => sink.ended('tab_closed'));
      return () => {};
    }
    let cast = this.casts.get(page);
    if (!cast) {
      const created: TabScreencast = new TabScreencast(
        page,
        () => {
          if (this.casts.get(page) === created) this.casts.delete(page);
        },
        (task) => {
          const next = (this.chains.get(page) ?? Promise.resolve()).then(task, task);
          this.chains.set(page, next);
        },
      );
      cast = created;
      this.casts.set(page, cast);
    }
    cast.add(sink, maxSize);
    const owner = cast;
    return () => owner.remove(sink);
  }

  /** Called when the browser drops a tab (closed, crashed, detached): its sinks end now. */
  pageClosed(page: Page): void {
    this.casts.get(page)?.end();
  }

  /** Tabs with a screencast running (for tests and status). */
  get active(): number {
    return this.casts.size;
  }
}
