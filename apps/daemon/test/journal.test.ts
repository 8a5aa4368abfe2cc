import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createArgusClient } from '@argus/client';
import { startFixtureServer } from '@argus/test-kit';
import Database from 'better-sqlite3';
import { commandByName } from '@argus/protocol';
import { describe, expect, it, vi } from 'vitest';
import { startDaemon } from '../src/index.js';
import { Journal } from '../src/journal/journal.js';
import { JournalDb } from '../src/journal/journal-db.js';
import { runAfterReply } from '../src/after-reply.js';
import { codeOf, refOf, TEST_CHROME_FLAGS, useHarness } from './harness.js';

/** Secrets the commands below carry: none may reach the journal file in any form. */
const PASSWORD = 'hunter2-Pw-7xq';
const COOKIE_VALUE = 'CookieSecret-93ka';
const STORAGE_VALUE = 'StorageSecret-51zz';
const HEADER_VALUE = 'HeaderSecret-40mv';

/** Every byte SQLite keeps for the journal: the database, its write-ahead log, the shared-memory index. */
function journalBytes(stateDir: string): Buffer {
  const base = join(stateDir, 'journal.db');
  return Buffer.concat(
    [base, `${base}-wal`, `${base}-shm`].filter((file) => existsSync(file)).map((file) => readFileSync(file)),
  );
}

describe('the command journal (real daemon, real SQLite)', () => {
  const h = useHarness();
  const stateDir = () => join(h.workspace, '.argus');

  it('records every command with its client, tab, URLs, outcome and redacted input', async () => {
    const url = h.server.urlFor('/form.html');
    await h.client.page.goto.mutate({ url });
    const snapshot = (await h.client.snapshot.take.mutate({ interactive: true })).text;
    // refs, not #password: the password field is recognised from the fill's own result, not its locator
    const name = refOf(snapshot, /textbox "Name"/);
    const password = refOf(snapshot, /textbox "Password"/);
    await h.client.input.fill.mutate({ target: name, text: 'Ada Lovelace' });
    await h.client.input.fill.mutate({ target: password, text: PASSWORD });
    await h.client.state.cookieSet.mutate({ cookie: `sid=${COOKIE_VALUE}` });
    await h.client.inspect.storageSet.mutate({ key: 'draft', value: STORAGE_VALUE });
    await h.client.emulation.header.mutate({ header: `X-Api-Key: ${HEADER_VALUE}` });
    expect(await codeOf(h.client.input.click.mutate({ target: 'e9999' }))).toBe('ref_not_found');

    const { entries, journal } = await h.client.journal.list.query({ limit: 50 });
    expect(journal).toMatchObject({ ok: true, error: null, dropped: 0, path: join(stateDir(), 'journal.db') });
    const commands = entries.map((entry) => entry.command);
    expect(commands).toEqual(
      expect.arrayContaining([
        'page.goto',
        'snapshot.take',
        'input.fill',
        'state.cookieSet',
        'inspect.storageSet',
        'emulation.header',
        'input.click',
      ]),
    );
    const goto = entries.find((entry) => entry.command === 'page.goto');
    expect(goto).toMatchObject({ ok: true, clientKind: 'trpc', scope: 'admin', session: null, urlAfter: url });
    expect(goto?.tab).toMatch(/^[0-9A-F]{32}$/i);
    expect(goto?.durationMs).toBeGreaterThan(0);
    const fills = entries.filter((entry) => entry.command === 'input.fill');
    expect(JSON.parse(fills[0]?.input ?? '{}')).toMatchObject({ target: name, text: 'Ada Lovelace' });
    expect(JSON.parse(fills[1]?.input ?? '{}')).toMatchObject({ target: password, text: '[redacted]' });
    const cookie = entries.find((entry) => entry.command === 'state.cookieSet');
    expect(JSON.parse(cookie?.input ?? '{}')).toMatchObject({ cookie: 'sid=[redacted]' });
    const header = entries.find((entry) => entry.command === 'emulation.header');
    expect(JSON.parse(header?.input ?? '{}')).toMatchObject({ header: 'X-Api-Key: [redacted]' });
    const click = entries.find((entry) => entry.command === 'input.click');
    expect(click).toMatchObject({ ok: false, errorCode: 'ref_not_found', urlBefore: url, urlAfter: url });

    const errors = await h.client.journal.list.query({ errors: true, command: 'click' });
    expect(errors.entries.map((entry) => entry.command)).toEqual(['input.click']);
  });

  it("records a named session's calls under its name, with the session's own tab and URL", async () => {
    const shop = createArgusClient({
      url: `http://127.0.0.1:${h.daemon.port}`,
      token: h.daemon.token,
      session: 'shop',
    });
    try {
      const url = h.server.urlFor('/styles.html');
      const tab = (await shop.client.tabs.open.mutate({ url })).id;
      await shop.client.page.eval.mutate({ js: '1 + 1' });
      const { entries } = await h.client.journal.list.query({ session: 'shop', limit: 10 });
      const evaluated = entries.find((entry) => entry.command === 'page.eval');
      expect(evaluated).toMatchObject({ session: 'shop', tab, urlBefore: url, urlAfter: url });
      const defaults = await h.client.journal.list.query({ session: 'default', limit: 100 });
      expect(defaults.entries.some((entry) => entry.tab === tab)).toBe(false);
    } finally {
      shop.close();
    }
  });

  it('is a plain SQLite file (WAL, 0600) that another reader opens read-only, with no secret in any byte', async () => {
    // the previous list flushed the queue; this one makes sure the last rows are written
    await h.client.journal.list.query({ limit: 1 });
    const path = join(stateDir(), 'journal.db');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      const rows = db
        .prepare('SELECT command, client_kind, scope, tab, url_after, input, ok, error_code FROM commands')
        .all();
      expect(rows.length).toBeGreaterThanOrEqual(8);
      expect(rows).toContainEqual(
        expect.objectContaining({ command: 'input.click', ok: 0, error_code: 'ref_not_found', client_kind: 'trpc' }),
      );
    } finally {
      db.close();
    }
    const bytes = journalBytes(stateDir());
    expect(bytes.includes('Ada Lovelace')).toBe(true); // the check reads what was written
    for (const secret of [PASSWORD, COOKIE_VALUE, STORAGE_VALUE, HEADER_VALUE]) {
      expect(bytes.includes(secret), secret).toBe(false);
      expect(bytes.includes(Buffer.from(secret, 'utf16le')), secret).toBe(false);
    }
  });

  it('exports JSON lines through the same filters', async () => {
    const exported = await h.client.journal.export.mutate({ command: 'page.goto' });
    const lines = (exported.jsonl ?? '').trim().split('\n');
    expect(exported.count).toBe(lines.length);
    expect(lines.map((line) => (JSON.parse(line) as { command: string }).command)).toEqual(
      Array(lines.length).fill('page.goto'),
    );
    expect(await codeOf(h.client.journal.list.query({ command: 'no-such-verb' }))).toBe('invalid_input');
  });
});

describe('the journal file', () => {
  it("is not opened at the daemon's start, and a command answered just before a stop is still written", async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'argus-ws-'));
    const stateDir = join(workspace, '.argus');
    const daemon = await startDaemon({
      stateDir,
      workspace,
      env: { ...process.env, ARGUS_CHROME_FLAGS: TEST_CHROME_FLAGS },
    });
    const handle = createArgusClient({ url: `http://127.0.0.1:${daemon.port}`, token: daemon.token });
    try {
      // the SQLite driver and file wait for the first row (cold-start CPU stays with Chromium's start)
      expect(existsSync(join(stateDir, 'journal.db'))).toBe(false);
      expect((await handle.client.daemon.status.query()).journal).toMatchObject({ ok: true, error: null });
      await handle.client.page.goto.mutate({ url: 'data:text/html,<title>t</title>' });
    } finally {
      handle.close();
      // at once: before the queue's first flush (100 ms) would have opened the file
      await daemon.stop('test done');
    }
    const db = new Database(join(stateDir, 'journal.db'), { readonly: true });
    try {
      const commands = (db.prepare('SELECT command FROM commands ORDER BY id').all() as { command: string }[]).map(
        (row) => row.command,
      );
      expect(commands).toEqual(['daemon.status', 'page.goto']);
    } finally {
      db.close();
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});

describe('a broken journal', () => {
  it('does not fail commands and shows in status', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'argus-ws-'));
    // the journal's path is taken by a directory: SQLite cannot open it
    mkdirSync(join(workspace, '.argus', 'journal.db'), { recursive: true });
    const server = await startFixtureServer();
    const daemon = await startDaemon({
      stateDir: join(workspace, '.argus'),
      workspace,
      env: { ...process.env, ARGUS_CHROME_FLAGS: TEST_CHROME_FLAGS },
    });
    const handle = createArgusClient({ url: `http://127.0.0.1:${daemon.port}`, token: daemon.token });
    try {
      await daemon.services.journal.ready();
      await handle.client.page.goto.mutate({ url: server.urlFor('/form.html') });
      expect((await handle.client.read.title.query({})).title).toBe('Sign up');
      const status = await handle.client.daemon.status.query();
      expect(status.journal).toMatchObject({ ok: false });
      expect(status.journal?.error).toMatch(/cannot open/);
      expect(await codeOf(handle.client.journal.list.query({}))).toBe('journal_unavailable');
    } finally {
      handle.close();
      await daemon.stop('test done');
      await server.close();
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});

describe('a journal row is built after the reply', () => {
  it('the observer only notes the outcome on the command’s path; redaction and the row come after the turn', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'argus-ws-'));
    const stateDir = join(workspace, '.argus');
    mkdirSync(stateDir);
    const journal = new Journal({ stateDir, locate: () => ({ tab: 'T1', url: null }) });
    const fill = commandByName('input.fill');
    if (!fill) throw new Error('input.fill is not in the manifest');
    try {
      journal.observe({ scopes: ['write'], client: 'cli' }, fill, { target: '#pass', text: 'hunter2' })?.(
        undefined,
        {},
      );
      expect(journal.state().queued).toBe(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(journal.state().queued).toBe(1);
      const [row] = (await journal.read({ limit: 5 })) ?? [];
      expect(row).toMatchObject({ command: 'input.fill', tab: 'T1', ok: true });
      expect(row?.input).not.toContain('hunter2');
    } finally {
      await journal.close();
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});

describe('a journal whose file cannot open (real SQLite)', () => {
  it('drops its rows, counted, and sets no more timers nor tries the file again', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'argus-ws-'));
    const stateDir = join(workspace, '.argus');
    // the journal's path is taken by a directory: SQLite cannot open it
    mkdirSync(join(stateDir, 'journal.db'), { recursive: true });
    const journal = new Journal({ stateDir, locate: () => ({ tab: null, url: null }) });
    const status = commandByName('daemon.status');
    if (!status) throw new Error('daemon.status is not in the manifest');
    // one call through the observe seam and the book-keeping after its reply
    const record = () => {
      journal.observe({ scopes: ['read'], client: 'cli' }, status, {})?.(undefined, {});
      runAfterReply();
    };
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      record();
      expect(vi.getTimerCount()).toBe(1);
      // the first flush opens the file, which fails: the row it was for is dropped, not held
      await vi.advanceTimersByTimeAsync(100);
      await journal.ready();
      expect(journal.state()).toMatchObject({ ok: false, written: 0, dropped: 1, queued: 0 });
      expect(journal.state().error).toMatch(/cannot open/);

      // a path that could open now is still not tried: only a new daemon opens the file again
      rmSync(join(stateDir, 'journal.db'), { recursive: true });
      for (let i = 0; i < 50; i++) {
        record();
        expect(vi.getTimerCount()).toBe(0);
      }
      await vi.advanceTimersByTimeAsync(10_000);
      expect(journal.state()).toMatchObject({ ok: false, written: 0, dropped: 51, queued: 0 });
      expect(await journal.read({ limit: 10 })).toBeUndefined();
      await journal.close();
      expect(existsSync(join(stateDir, 'journal.db'))).toBe(false);
    } finally {
      vi.useRealTimers();
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});

describe('retention (real SQLite)', () => {
  const row = (ts: number, input: string) => ({
    ts,
    client: 'cli',
    clientKind: 'cli',
    scope: 'admin',
    session: null,
    tab: null,
    urlBefore: null,
    urlAfter: null,
    command: 'page.goto',
    input,
    durationMs: 1,
    ok: true,
    errorCode: null,
    error: null,
  });

  it('deletes rows past the age limit, then the oldest past the size limit, when the daemon starts', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'argus-ws-'));
    const stateDir = join(workspace, '.argus');
    mkdirSync(stateDir, { recursive: true });
    const seeded = await JournalDb.open(join(stateDir, 'journal.db'));
    const day = 86_400_000;
    seeded.write([row(Date.now() - 40 * day, '{"old":true}'), row(Date.now() - day, '{"recent":true}')]);
    seeded.close();
    const daemon = await startDaemon({ stateDir, workspace, env: process.env });
    const handle = createArgusClient({ url: `http://127.0.0.1:${daemon.port}`, token: daemon.token });
    try {
      const { entries } = await handle.client.journal.list.query({ command: 'page.goto' });
      expect(entries.map((entry) => entry.input)).toEqual(['{"recent":true}']);
    } finally {
      handle.close();
      await daemon.stop('test done');
    }

    // size: 2,000 rows of ~1 kB, limited to 256 kB -> the oldest go, the newest stay
    const db = await JournalDb.open(join(stateDir, 'journal.db'));
    try {
      const now = Date.now();
      db.write(
        Array.from({ length: 2_000 }, (_, i) => row(now - 2_000 + i, JSON.stringify({ i, pad: 'x'.repeat(1_000) }))),
      );
      const deleted = db.applyRetention({ maxAgeMs: 30 * day, maxBytes: 256 * 1024 });
      expect(deleted).toBeGreaterThan(1_000);
      expect(db.usedBytes()).toBeLessThanOrEqual(256 * 1024);
      const kept = db.query({ limit: 10_000 }).map((entry) => JSON.parse(entry.input ?? '{}') as { i?: number });
      // what is left is the newest rows, without a gap
      const padded = kept.flatMap((entry) => (entry.i === undefined ? [] : [entry.i]));
      expect(padded.at(-1)).toBe(1_999);
      expect(padded.length).toBeLessThan(1_000);
      expect(padded).toEqual(Array.from({ length: padded.length }, (_, k) => 2_000 - padded.length + k));
    } finally {
      db.close();
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});
