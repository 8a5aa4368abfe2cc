import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';

const cli = useCli('argus-cli-journal-');
const PASSWORD = 'Pw-cli-8812-zq';

describe('argus journal', () => {
  it('reads what the CLI did (client cli), filters by command and errors, and exports JSON lines', async () => {
    const url = cli.server.urlFor('/form.html');
    expect((await cli.argus('goto', url)).code).toBe(0);
    const filled = await cli.argus('fill', '#password', PASSWORD);
    expect(filled.code, filled.stderr).toBe(0);
    const failed = await cli.argus('click', '#no-such-button', '--timeout-ms', '500');
    expect(failed.code).toBe(1);

    const listed = await cli.argus('journal', '--json');
    expect(listed.code, listed.stderr).toBe(0);
    const { entries } = JSON.parse(listed.stdout) as {
      entries: Array<{ command: string; client: string; clientKind: string; input: string; ok: boolean }>;
    };
    expect(entries.map((entry) => entry.command)).toEqual(['page.goto', 'input.fill', 'input.click']);
    expect(entries[0]).toMatchObject({ client: 'cli', clientKind: 'cli', ok: true });
    expect(JSON.parse(entries[1]?.input ?? '{}')).toMatchObject({ target: '#password', text: '[redacted]' });

    const errors = await cli.argus('journal', '--errors');
    expect(errors.code, errors.stderr).toBe(0);
    expect(errors.stdout).toMatch(/ERR element_not_found\s+input\.click/);
    expect(errors.stdout).not.toMatch(/page\.goto/);
    const gotos = await cli.argus('journal', '--command', 'goto', '--since', '1h', '--json');
    expect((JSON.parse(gotos.stdout) as { entries: unknown[] }).entries).toHaveLength(1);

    const exported = await cli.argus('journal', 'export', '--out', 'journal.jsonl');
    expect(exported.code, exported.stderr).toBe(0);
    const file = join(cli.workspace, 'journal.jsonl');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(5); // the three commands and the two journal reads
    expect(readFileSync(file, 'utf8')).not.toContain(PASSWORD);
    expect(readFileSync(join(cli.stateDir, 'journal.db')).includes(PASSWORD)).toBe(false);
  });

  it('shows the journal in status', async () => {
    const status = await cli.argus('status');
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^journal .*journal\.db \(\d+ written\)$/m);
  });
});

describe('argus --profile (persistent profiles)', () => {
  it('keeps a cookie across daemon restarts in its profile, and only there', async () => {
    const url = cli.server.urlFor('/form.html');
    expect((await cli.argus('stop')).code).toBe(0);
    const expires = String(Math.floor(Date.now() / 1000) + 3_600);
    expect((await cli.argus('--profile', 'p1', 'goto', url)).code).toBe(0);
    const set = await cli.argus('--profile', 'p1', 'cookie', 'set', 'kept=yes', '--expires', expires);
    expect(set.code, set.stderr).toBe(0);
    const dir = join(cli.stateDir, 'profiles', 'p1');
    expect(statSync(dir).mode & 0o777).toBe(0o700);

    // a running daemon with another profile is refused rather than used
    const other = await cli.argus('--profile', 'p2', 'goto', url);
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/profile_in_use.*runs with profile "p1"/);
    const busy = await cli.argus('profile', 'rm', 'p1');
    expect(busy.stderr).toMatch(/profile_in_use/);

    expect((await cli.argus('stop')).code).toBe(0);
    expect((await cli.argus('--profile', 'p1', 'goto', url)).code).toBe(0);
    const again = await cli.argus('--profile', 'p1', 'cookies', '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('"kept"');

    expect((await cli.argus('stop')).code).toBe(0);
    expect((await cli.argus('goto', url)).code).toBe(0);
    const fresh = await cli.argus('cookies', '--json');
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stdout).not.toContain('"kept"');

    const listed = await cli.argus('profiles', '--json');
    const profiles = JSON.parse(listed.stdout) as {
      current: string | null;
      profiles: Array<{ name: string; bytes: number; lastUsed: string | null }>;
    };
    expect(profiles.current).toBeNull();
    expect(profiles.profiles).toEqual([expect.objectContaining({ name: 'p1', inUse: false })]);
    expect(profiles.profiles[0]?.bytes).toBeGreaterThan(0);
    expect(profiles.profiles[0]?.lastUsed).not.toBeNull();
    const removed = await cli.argus('profile', 'rm', 'p1');
    expect(removed.code, removed.stderr).toBe(0);
    expect(existsSync(dir)).toBe(false);
    expect((await cli.argus('profile', 'rm', '../escape')).stderr).toMatch(/invalid_input/);
  }, 300_000); // four daemon starts, three with a browser
});
