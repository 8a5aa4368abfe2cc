import type { Session } from './session.js';

/**
 * A tab's title from its own document. Headless Chromium never updates a target's title (a tab
 * opened at a URL keeps the URL as its title), so the page reads `document.title` on the load
 * events its session already receives; nothing polls.
 */
export class PageTitle {
  /** The read a load event started, while it is on its way. */
  private pending: Promise<string> | undefined;

  constructor(
    private readonly session: Session,
    private readonly holder: { title: string },
  ) {}

  /** Reads document.title now (the last known title when the page cannot answer). */
  async read(): Promise<string> {
    try {
      const { result } = await this.session.send('Runtime.evaluate', {
        expression: 'document.title',
        returnByValue: true,
      });
      if (typeof result.value === 'string') this.holder.title = result.value;
    } catch {
      // keep the last known title
    }
    return this.holder.title;
  }

  /** Starts a read in the background (on DOMContentLoaded and load). */
  refresh(): void {
    const read = this.read();
    this.pending = read;
    void read.finally(() => {
      if (this.pending === read) this.pending = undefined;
    });
  }

  /**
   * The title once a read under way has answered, so a list made right after a load shows the
   * document's title. Bounded: a page whose main thread is stuck keeps its last one.
   */
  async settled(waitMs: number): Promise<string> {
    const read = this.pending;
    if (!read) return this.holder.title;
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(this.holder.title), waitMs)));
    try {
      return await Promise.race([read, gaveUp]);
    } finally {
      clearTimeout(timer);
    }
  }
}
