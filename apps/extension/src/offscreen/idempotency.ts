import type { ResultFrame } from '@argus/relay/wire';

/**
 * Idempotency by command key: a frame the relay replays (after a reconnect, or a client retry after
 * a relay restart) is answered from here instead of running its side effect again.
 */
export class IdempotencyCache {
  private readonly done = new Map<string, ResultFrame>();
  private readonly running = new Set<string>();

  constructor(private readonly max = 1000) {}

  /** 'run' when the key is new (and marks it running), else what to do with the replay. */
  admit(key: string): { action: 'run' } | { action: 'replay'; frame: ResultFrame } | { action: 'wait' } {
    const frame = this.done.get(key);
    if (frame) return { action: 'replay', frame };
    if (this.running.has(key)) return { action: 'wait' };
    this.running.add(key);
    return { action: 'run' };
  }

  complete(frame: ResultFrame): void {
    this.running.delete(frame.id);
    this.done.set(frame.id, frame);
    while (this.done.size > this.max) {
      const oldest = this.done.keys().next().value;
      if (oldest === undefined) break;
      this.done.delete(oldest);
    }
  }

  /** Keys whose executor went away (service worker restarted) and will never complete. */
  abandonRunning(): string[] {
    const keys = [...this.running];
    this.running.clear();
    return keys;
  }
}
