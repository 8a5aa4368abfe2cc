import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Logger } from './logger.js';

const dirs: string[] = [];
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'argus-log-'));
  dirs.push(dir);
  return join(dir, 'daemon.log');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('Logger (pino, asynchronous file destination)', () => {
  it('writes one JSON line per event with level, ISO time and fields, in order, to a 0600 file', async () => {
    const file = tempFile();
    const log = new Logger(file);
    for (let index = 0; index < 500; index++) log.info('tick', { index });
    log.warn('command.failed', { path: 'page.goto', code: 'timeout' });
    log.error('boom', { message: 'x' });
    log.log('debug', 'relay', { message: 'detail' });
    await log.flush();
    const written = lines(file);
    expect(written).toHaveLength(503);
    expect(written.slice(0, 500).map((line) => line.index)).toEqual([...Array(500).keys()]);
    expect(written[500]).toEqual({
      level: 'warn',
      time: expect.any(String),
      event: 'command.failed',
      path: 'page.goto',
      code: 'timeout',
    });
    expect(Date.parse(String(written[500]?.time))).not.toBeNaN();
    expect(written.slice(501).map((line) => [line.level, line.event])).toEqual([
      ['error', 'boom'],
      ['debug', 'relay'],
    ]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await log.close();
  });

  it('masks every known secret and any Bearer value before the line reaches the file', async () => {
    const file = tempFile();
    const tokens = ['first-secret-token-0123456789'];
    const log = new Logger(file, () => tokens);
    log.warn('auth.refused', { header: `Bearer ${tokens[0]}`, note: `token=${tokens[0]}` });
    tokens.push('minted-later-token-abcdefghij'); // a token minted after start is masked too
    log.info('token.used', { value: 'minted-later-token-abcdefghij', other: 'Bearer zzzzzzzzzzzz' });
    await log.close();
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('first-secret-token');
    expect(text).not.toContain('minted-later-token');
    expect(text).not.toContain('zzzzzzzzzzzz');
    expect(lines(file).map((line) => line.note ?? line.value)).toEqual(['token=[redacted]', '[redacted]']);
  });

  it('close() flushes; a line logged after close still reaches the file, redacted', async () => {
    const file = tempFile();
    const log = new Logger(file, () => ['late-secret-0123456789']);
    log.info('daemon.stopped', { reason: 'test' });
    await log.close();
    expect(lines(file).map((line) => line.event)).toEqual(['daemon.stopped']);
    log.error('uncaught_exception', { message: 'late-secret-0123456789 leaked?' });
    await log.close(); // idempotent
    expect(lines(file).map((line) => [line.event, line.message])).toEqual([
      ['daemon.stopped', undefined],
      ['uncaught_exception', '[redacted] leaked?'],
    ]);
  });

  it('never throws when the file cannot be written, and flush() still resolves', async () => {
    const log = new Logger(join(tempFile(), 'no-such-dir', 'daemon.log'));
    expect(() => log.info('lost', { a: 1 })).not.toThrow();
    await log.flush();
    await new Promise((resolve) => setTimeout(resolve, 50)); // let the failed open report
    expect(() => log.info('lost again')).not.toThrow();
    await log.flush();
    await log.close();
  });
});
