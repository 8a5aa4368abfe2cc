/**
 * Reads the cookies of a user's own Chrome-family profile: copies its SQLite database (the running
 * browser holds it open and locked) into a private temp dir, reads it with better-sqlite3, decrypts
 * each value, and returns CDP cookie parameters. Values never leave this module except as the
 * cookies to set: results and errors name cookies by domain and count only.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { ArgusError } from '@argus/protocol';
import type { CookieParam } from '../state-store.js';
import { type CookieKey, decryptCookie } from './cookie-crypto.js';

/** Microseconds between 1601-01-01 (Chrome's epoch) and 1970-01-01. */
const CHROME_EPOCH_OFFSET_S = 11_644_473_600;
const SAME_SITE: Record<number, CookieParam['sameSite']> = { 0: 'None', 1: 'Lax', 2: 'Strict' };

interface Row {
  host_key: string;
  name: string;
  value: string;
  encrypted_value: Buffer | null;
  path: string;
  expires_utc: number | bigint;
  is_secure: number;
  is_httponly: number;
  samesite: number;
  persistent: number;
  top_frame_site_key: string | null;
}

export interface ReadCookies {
  cookies: CookieParam[];
  /** Why cookies were left out, counted per reason. */
  skipped: Map<string, number>;
}

/** Whether `host` (a cookie's host_key) is one of `domains` or under one. */
export function matchesDomain(host: string, domains: readonly string[]): boolean {
  const bare = host.replace(/^\./, '').toLowerCase();
  return domains.some((domain) => {
    const wanted = domain.replace(/^\./, '').toLowerCase();
    return bare === wanted || bare.endsWith(`.${wanted}`);
  });
}

async function openCopy(database: string, dir: string): Promise<BetterSqlite3.Database> {
  let Driver: typeof BetterSqlite3;
  try {
    Driver = ((await import('better-sqlite3')) as { default: typeof BetterSqlite3 }).default;
  } catch (error) {
    throw new ArgusError(
      'unsupported',
      `Reading browser cookies needs the SQLite driver (better-sqlite3), which is not installed: ${(error as Error).message}. Install g++, make and python3, then reinstall.`,
    );
  }
  const copy = join(dir, 'Cookies');
  copyFileSync(database, copy);
  for (const suffix of ['-wal', '-journal']) {
    if (existsSync(database + suffix)) copyFileSync(database + suffix, copy + suffix);
  }
  try {
    return new Driver(copy, { fileMustExist: true });
  } catch (error) {
    throw new ArgusError('invalid_input', `${database} is not a readable cookie database: ${(error as Error).message}`);
  }
}

export async function readBrowserCookies(
  database: string,
  keys: readonly CookieKey[],
  domains: readonly string[],
  nowS = Date.now() / 1000,
): Promise<ReadCookies> {
  const dir = mkdtempSync(join(tmpdir(), 'argus-cookies-'));
  try {
    const db = await openCopy(database, dir);
    try {
      return collect(db, keys, domains, nowS, database);
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function collect(
  db: BetterSqlite3.Database,
  keys: readonly CookieKey[],
  domains: readonly string[],
  nowS: number,
  database: string,
): ReadCookies {
  let version = 0;
  let rows: Row[];
  try {
    const meta = db.prepare("SELECT value FROM meta WHERE key = 'version'").get() as { value: string } | undefined;
    version = Number(meta?.value ?? 0);
    const columns = new Set(
      (db.prepare('PRAGMA table_info(cookies)').all() as Array<{ name: string }>).map((c) => c.name),
    );
    const persistent = columns.has('is_persistent')
      ? 'is_persistent'
      : columns.has('has_expires')
        ? 'has_expires'
        : '1';
    const topFrame = columns.has('top_frame_site_key') ? 'top_frame_site_key' : 'NULL';
    const samesite = columns.has('samesite') ? 'samesite' : '-1';
    rows = db
      .prepare(
        `SELECT host_key, name, value, encrypted_value, path, expires_utc, is_secure, is_httponly,
          ${samesite} AS samesite, ${persistent} AS persistent, ${topFrame} AS top_frame_site_key FROM cookies`,
      )
      .all() as Row[];
  } catch (error) {
    throw new ArgusError('invalid_input', `${database} is not a Chrome cookie database: ${(error as Error).message}`);
  }
  const cookies: CookieParam[] = [];
  const skipped = new Map<string, number>();
  const skip = (reason: string) => skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
  for (const row of rows) {
    if (domains.length > 0 && !matchesDomain(row.host_key, domains)) continue;
    if (row.top_frame_site_key) {
      skip('partitioned (CHIPS) cookie');
      continue;
    }
    const expires = row.persistent ? Number(row.expires_utc) / 1e6 - CHROME_EPOCH_OFFSET_S : undefined;
    if (expires !== undefined && expires <= nowS) {
      skip('expired');
      continue;
    }
    let value = row.value;
    if (row.encrypted_value && row.encrypted_value.length > 0) {
      const decrypted = decryptCookie(row.encrypted_value, row.host_key, keys, version);
      if ('skip' in decrypted) {
        skip(decrypted.skip);
        continue;
      }
      value = decrypted.value;
    }
    const secure = row.is_secure === 1;
    const hostOnly = !row.host_key.startsWith('.');
    cookies.push({
      name: row.name,
      value,
      path: row.path || '/',
      secure,
      httpOnly: row.is_httponly === 1,
      // a host-only cookie is set through its URL; a domain cookie keeps its leading dot
      ...(hostOnly
        ? { url: `${secure ? 'https' : 'http'}://${row.host_key}${row.path || '/'}` }
        : { domain: row.host_key }),
      ...(SAME_SITE[row.samesite] ? { sameSite: SAME_SITE[row.samesite] } : {}),
      ...(expires !== undefined ? { expires } : {}),
    });
  }
  return { cookies, skipped };
}
