import { appendFileSync, openSync } from 'node:fs';
import { redactText } from '@argus/security';
import { type DestinationStream, pino } from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** What pino.destination() returns: a SonicBoom, an event emitter we listen to for errors and writes. */
type Destination = DestinationStream & {
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'write', listener: (bytes: number) => void): unknown;
  end(): void;
  flushSync(): void;
};

/**
 * Structured JSON-lines log (`{"level","time","event",...fields}`) through pino with an
 * asynchronous file destination, so a busy daemon never blocks on a write per line. Secrets (every
 * known token) are masked in the finished line, before it reaches the file. The file is created
 * 0600. `flush()` resolves once every line logged so far is written; the daemon awaits it on stop,
 * and pino flushes synchronously on process exit.
 */
export class Logger {
  /** Absent when the file could not be opened: the logger then drops lines. */
  private readonly destination: Destination | undefined;
  private readonly pino: pino.Logger;
  /** Bytes handed to the destination, and bytes it reports written: equal when nothing is pending. */
  private queued = 0;
  private written = 0;
  private readonly settled = new Set<() => void>();
  private broken = false;
  private closed = false;

  constructor(
    readonly file: string,
    private readonly secrets: () => readonly string[] = () => [],
  ) {
    // Opened here, synchronously (once, at start): the destination is ready at once, so pino's
    // synchronous flush on process exit never meets a file still opening; a file that cannot be
    // opened leaves a logger that drops lines, never one that throws.
    let fd = -1;
    try {
      fd = openSync(file, 'a', 0o600);
    } catch {
      this.broken = true;
    }
    const destination = this.broken ? undefined : (pino.destination({ fd, sync: false }) as Destination);
    this.destination = destination;
    destination?.on('error', () => {
      // logging must never take the daemon down: a failing log file stops logging, nothing else,
      // and the exit-time flush becomes a no-op instead of throwing while the process exits
      this.broken = true;
      destination.flushSync = () => undefined;
      this.release();
    });
    destination?.on('write', (bytes) => {
      this.written += bytes;
      if (this.written >= this.queued) this.release();
    });
    this.pino = pino(
      {
        level: 'debug',
        base: undefined,
        messageKey: 'event',
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
        hooks: {
          streamWrite: (line) => {
            const redacted = redactText(line, this.secrets());
            this.queued += Buffer.byteLength(redacted);
            return redacted;
          },
        },
      },
      destination ?? { write: () => undefined },
    );
  }

  log(level: LogLevel, event: string, fields: Record<string, unknown> = {}): void {
    if (this.broken) return;
    try {
      if (this.closed) {
        // a straggler after stop (an error while exiting): write it the slow way rather than lose it
        const line = JSON.stringify({ level, time: new Date().toISOString(), ...fields, event });
        appendFileSync(this.file, `${redactText(line, this.secrets())}\n`, { mode: 0o600 });
        return;
      }
      this.pino[level](fields, event);
    } catch {
      // logging must never take the daemon down
    }
  }

  info(event: string, fields?: Record<string, unknown>): void {
    this.log('info', event, fields);
  }

  warn(event: string, fields?: Record<string, unknown>): void {
    this.log('warn', event, fields);
  }

  error(event: string, fields?: Record<string, unknown>): void {
    this.log('error', event, fields);
  }

  /** Resolves once every line logged so far is in the file (or the file failed). */
  flush(): Promise<void> {
    if (this.broken || this.written >= this.queued) return Promise.resolve();
    return new Promise((resolve) => this.settled.add(resolve));
  }

  /** Flushes, then closes the file; later lines are appended synchronously. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.broken) {
      this.closed = true;
      return;
    }
    await this.flush();
    this.closed = true;
    try {
      this.destination?.end();
    } catch {
      // already closed or never opened
    }
  }

  private release(): void {
    for (const resolve of [...this.settled]) resolve();
    this.settled.clear();
  }
}
