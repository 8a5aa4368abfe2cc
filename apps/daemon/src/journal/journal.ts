/**
 * The command journal: every call through the router's `observe` seam becomes one row in
 * `<state dir>/journal.db`. Write-only from the command path: a call only pushes a small object onto
 * an in-memory queue; the rows are written in one transaction per batch on a timer, off the command's
 * path. A journal that cannot open or write reports itself in `status` and drops rows (bounded
 * queue); it never delays or fails a command.
 */
import { join } from 'node:path';
import { type AnyCommand, type CallContext, isArgusError } from '@argus/protocol';
import type { ObserveCall } from '@argus/protocol/router';
import { JournalDb, type JournalQuery, type JournalRow, type Retention, type StoredRow } from './journal-db.js';
import { redactInput, redactMessage, redactUrl } from './journal-redact.js';
import { afterReply, runAfterReply } from '../after-reply.js';

/** Where the command ran: its tab and that tab's URL, read without touching the browser. */
export type LocateTab = (ctx: CallContext, input: unknown) => { tab: string | null; url: string | null };

export interface JournalOptions {
  stateDir: string;
  locate: LocateTab;
  retention?: Partial<Retention>;
  /** Batch window: rows collected this long are written in one transaction. */
  flushMs?: number;
  /** Rows held while the file cannot be written; older ones are dropped (and counted) past this. */
  maxQueued?: number;
  onError?: (message: string) => void;
}

export interface JournalState {
  path: string;
  ok: boolean;
  error: string | null;
  written: number;
  dropped: number;
  queued: number;
}

export const DEFAULT_RETENTION: Retention = { maxAgeMs: 30 * 24 * 3_600_000, maxBytes: 200 * 1024 * 1024 };
/** A full batch is written at once rather than waiting for the timer. */
const FLUSH_AT = 1_000;

/** Who called, as a kind: the client's self-given name says cli or mcp; a shared token is remote. */
function clientKind(ctx: CallContext): string {
  if (ctx.owner !== undefined) return 'remote';
  if (ctx.client === 'cli') return 'cli';
  if (ctx.client?.startsWith('mcp') || ctx.client?.startsWith('opencode')) return 'mcp';
  return 'trpc';
}

export class Journal {
  readonly path: string;
  private db: JournalDb | undefined;
  private queue: JournalRow[] = [];
  private timer: NodeJS.Timeout | undefined;
  private error: string | null = null;
  private written = 0;
  private dropped = 0;
  private closed = false;
  /** The file's opening, started by the first row's flush or a read (ready). */
  private opening: Promise<void> | undefined;
  /** The file could not be opened: rows are dropped from then on (counted), and it is not tried again. */
  private unopenable = false;
  private readonly flushMs: number;
  private readonly maxQueued: number;
  private readonly retention: Retention;

  constructor(private readonly options: JournalOptions) {
    this.path = join(options.stateDir, 'journal.db');
    this.flushMs = options.flushMs ?? 100;
    this.maxQueued = options.maxQueued ?? 10_000;
    this.retention = { ...DEFAULT_RETENTION, ...options.retention };
  }

  /**
   * Opens the file once, when there is first something to write or read, never at the daemon's start:
   * loading the SQLite driver, opening the file and applying retention is CPU the daemon's cold start
   * would otherwise spend while its Chromium starts on the same cores (issue 16). Rows queue meanwhile.
   * Resolves once it is open or failed to open: tests and `journal` reads wait on it.
   */
  ready(): Promise<void> {
    this.opening ??= JournalDb.open(this.path).then(
      (db) => {
        if (this.closed) return db.close();
        this.db = db;
        try {
          db.applyRetention(this.retention);
        } catch (error) {
          this.fail(`retention failed: ${(error as Error).message}`);
        }
        this.schedule();
      },
      (error: unknown) => {
        // what keeps a file from opening (no native build, the path taken by a directory, a state dir
        // gone or not writable) does not mend while the daemon runs: the rows go, no timer waits for it
        this.unopenable = true;
        this.fail(`cannot open ${this.path}: ${(error as Error).message}`);
        clearTimeout(this.timer);
        this.timer = undefined;
        this.dropped += this.queue.length;
        this.queue = [];
      },
    );
    return this.opening;
  }

  /** The router's observer: notes the start, then queues one row when the call settles. */
  readonly observe: ObserveCall = (ctx: CallContext, command: AnyCommand, input: unknown) => {
    if (this.closed) return undefined;
    const started = Date.now();
    const t0 = performance.now();
    const before = this.options.locate(ctx, input);
    return (error, output) => {
      const durationMs = performance.now() - t0;
      const after = this.options.locate(ctx, input);
      // the row is built once the reply is sent (afterReply): redaction is off the command's path
      afterReply(() => {
        const redacted = redactInput(command.name, input, output, ctx.secrets);
        const failed = error !== undefined;
        this.push({
          ts: started,
          client: ctx.client ?? null,
          clientKind: clientKind(ctx),
          scope: ctx.scopes.join(','),
          session: ctx.session ?? null,
          tab: after.tab ?? before.tab,
          urlBefore: before.url === null ? null : redactUrl(before.url),
          urlAfter: after.url === null ? null : redactUrl(after.url),
          command: command.name,
          input: redacted.json,
          durationMs: Math.round(durationMs * 1000) / 1000,
          ok: !failed,
          errorCode: failed ? (isArgusError(error) ? error.code : 'internal') : null,
          error: failed
            ? redactMessage(error instanceof Error ? error.message : String(error), redacted.secrets)
            : null,
        });
      });
    };
  };

  private push(row: JournalRow): void {
    if (this.closed) return;
    if (this.unopenable) {
      this.dropped += 1;
      return;
    }
    this.queue.push(row);
    if (this.queue.length > this.maxQueued) {
      const over = this.queue.length - this.maxQueued;
      this.queue.splice(0, over);
      this.dropped += over;
    }
    if (this.queue.length >= FLUSH_AT) this.flush();
    else this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.queue.length === 0) return;
    // while the file opens, its opening schedules the flush (or drops the rows when it fails)
    if (this.opening && !this.db) return;
    // the first rows open the file at their flush, after the command that made them has answered
    this.timer = setTimeout(() => this.flush(), this.flushMs);
    this.timer.unref();
  }

  /** Writes the queued rows in one transaction. A failure drops them (counted) and shows in `status`. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queue.length === 0) return;
    if (!this.db) {
      // once open, the opening schedules the rows' flush; a file that cannot open drops them (counted)
      void this.ready();
      return;
    }
    const rows = this.queue;
    this.queue = [];
    try {
      this.db.write(rows);
      this.written += rows.length;
      this.error = null;
    } catch (error) {
      this.dropped += rows.length;
      this.fail(`cannot write: ${(error as Error).message}`);
    }
  }

  private fail(message: string): void {
    if (this.error !== message) this.options.onError?.(message);
    this.error = message;
  }

  state(): JournalState {
    return {
      path: this.path,
      // not open yet (nothing written so far) is not a fault
      ok: this.error === null,
      error: this.error,
      written: this.written,
      dropped: this.dropped,
      queued: this.queue.length,
    };
  }

  /** Reads rows (after writing what is queued, so a client sees its own last command). */
  async read(filter: JournalQuery): Promise<StoredRow[] | undefined> {
    runAfterReply();
    await this.ready();
    this.flush();
    return this.db?.query(filter);
  }

  /** Writes what is queued (opening the file for it when no row came before) and closes the file (daemon stop). */
  async close(): Promise<void> {
    if (this.closed) return;
    runAfterReply();
    if (this.queue.length > 0 && !this.db) await this.ready();
    if (this.closed) return;
    this.flush();
    this.closed = true;
    try {
      this.db?.close();
    } catch (error) {
      this.fail(`close failed: ${(error as Error).message}`);
    }
    this.db = undefined;
  }
}
