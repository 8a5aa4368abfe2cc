/**
 * The journal's SQLite file (`<state dir>/journal.db`) through better-sqlite3: schema, retention,
 * batched inserts, filtered reads. WAL mode (readers such as `sqlite3` never block the writer), file
 * 0600, auto_vacuum incremental so retention gives space back without a full VACUUM.
 */
import { chmodSync, closeSync, existsSync, openSync, statSync } from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';

type Database = BetterSqlite3.Database;

export interface JournalRow {
  ts: number;
  client: string | null;
  clientKind: string;
  scope: string;
  session: string | null;
  tab: string | null;
  urlBefore: string | null;
  urlAfter: string | null;
  command: string;
  input: string | null;
  durationMs: number;
  ok: boolean;
  errorCode: string | null;
  error: string | null;
}

export interface StoredRow extends JournalRow {
  id: number;
}

export interface JournalQuery {
  sinceMs?: number | undefined;
  command?: string | undefined;
  errors?: boolean | undefined;
  session?: string | undefined;
  limit: number;
}

export interface Retention {
  maxAgeMs: number;
  maxBytes: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS commands (
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,
  client TEXT,
  client_kind TEXT NOT NULL,
  scope TEXT NOT NULL,
  session TEXT,
  tab TEXT,
  url_before TEXT,
  url_after TEXT,
  command TEXT NOT NULL,
  input TEXT,
  duration_ms REAL NOT NULL,
  ok INTEGER NOT NULL,
  error_code TEXT,
  error TEXT
);
CREATE INDEX IF NOT EXISTS commands_ts ON commands (ts);
CREATE INDEX IF NOT EXISTS commands_command ON commands (command, ts);
`;

const COLUMNS = `id, ts, client, client_kind AS clientKind, scope, session, tab, url_before AS urlBefore,
  url_after AS urlAfter, command, input, duration_ms AS durationMs, ok, error_code AS errorCode, error`;

/** Loads the native driver lazily: a missing or broken binding becomes a journal error, never a daemon crash. */
async function loadDriver(): Promise<typeof BetterSqlite3> {
  const module = (await import('better-sqlite3')) as { default: typeof BetterSqlite3 };
  return module.default;
}

export class JournalDb {
  private readonly insert: BetterSqlite3.Statement;
  private readonly insertMany: (rows: readonly JournalRow[]) => void;

  private constructor(
    readonly path: string,
    private readonly db: Database,
  ) {
    this.insert = db.prepare(`INSERT INTO commands (ts, client, client_kind, scope, session, tab, url_before, url_after,
      command, input, duration_ms, ok, error_code, error) VALUES (@ts, @client, @clientKind, @scope, @session, @tab,
      @urlBefore, @urlAfter, @command, @input, @durationMs, @ok, @errorCode, @error)`);
    // one transaction per batch: one fsync-free WAL append for many rows
    this.insertMany = db.transaction((rows: readonly JournalRow[]) => {
      for (const row of rows) this.insert.run({ ...row, ok: row.ok ? 1 : 0 });
    });
  }

  /** Opens (creating) the journal file; throws when the driver or the file cannot be used. */
  static async open(path: string): Promise<JournalDb> {
    const Driver = await loadDriver();
    const fresh = !existsSync(path);
    // created 0600 before SQLite opens it: SQLite gives the -wal and -shm files the same mode
    if (fresh) closeSync(openSync(path, 'a', 0o600));
    const db = new Driver(path);
    try {
      // before the first table: incremental auto-vacuum lets retention shrink the file in place
      if (fresh) db.pragma('auto_vacuum = INCREMENTAL');
      db.pragma('journal_mode = WAL');
      // WAL + NORMAL: durable up to the last checkpoint, no fsync per batch (a journal, not a ledger)
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 2000');
      db.exec(SCHEMA);
      for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
      return new JournalDb(path, db);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  write(rows: readonly JournalRow[]): void {
    this.insertMany(rows);
  }

  /** Bytes in use (pages minus free pages): what the size limit counts. */
  usedBytes(): number {
    const pageSize = Number(this.db.pragma('page_size', { simple: true }));
    const pages = Number(this.db.pragma('page_count', { simple: true }));
    const free = Number(this.db.pragma('freelist_count', { simple: true }));
    return (pages - free) * pageSize;
  }

  /**
   * Drops rows older than the age limit, then the oldest tenth at a time until the rows fit the size
   * limit; gives the space back. Returns how many rows went.
   */
  applyRetention(retention: Retention, now = Date.now()): number {
    let deleted = this.db.prepare('DELETE FROM commands WHERE ts < ?').run(now - retention.maxAgeMs).changes;
    const count = this.db.prepare('SELECT COUNT(*) AS n FROM commands');
    while (this.usedBytes() > retention.maxBytes) {
      const rows = (count.get() as { n: number }).n;
      if (rows === 0) break;
      const cut = Math.max(1, Math.ceil(rows / 10));
      deleted += this.db
        .prepare('DELETE FROM commands WHERE id IN (SELECT id FROM commands ORDER BY id LIMIT ?)')
        .run(cut).changes;
    }
    if (deleted > 0) {
      this.db.pragma('incremental_vacuum');
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    }
    return deleted;
  }

  /** The newest `limit` rows matching the filters, oldest first. */
  query(filter: JournalQuery): StoredRow[] {
    const where: string[] = [];
    const params: Array<string | number> = [];
    if (filter.sinceMs !== undefined) {
      where.push('ts >= ?');
      params.push(filter.sinceMs);
    }
    if (filter.command !== undefined) {
      where.push('command = ?');
      params.push(filter.command);
    }
    if (filter.errors) where.push('ok = 0');
    if (filter.session !== undefined) {
      // the default session is stored as NULL
      if (filter.session === 'default') where.push('session IS NULL');
      else {
        where.push('session = ?');
        params.push(filter.session);
      }
    }
    const sql = `SELECT ${COLUMNS} FROM commands ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`;
    const rows = this.db.prepare(sql).all(...params, filter.limit) as Array<Omit<StoredRow, 'ok'> & { ok: number }>;
    return rows.reverse().map((row) => ({ ...row, ok: row.ok === 1 }));
  }

  fileBytes(): number {
    return statSync(this.path, { throwIfNoEntry: false })?.size ?? 0;
  }

  close(): void {
    try {
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      this.db.close();
    }
  }
}
