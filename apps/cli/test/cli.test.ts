import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { listArgusChromeProcesses } from '@argus/test-kit';
import { describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';

const cli = useCli('argus-cli-');
const argus = cli.argus;

describe('usage errors exit 2 without touching the daemon', () => {
  it('prints help', async () => {
    const help = await argus('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/snapshot/);
    expect((await argus('goto', '--help')).stdout).toMatch(/Usage: argus goto <url>/);
  });
  it('unknown verb, missing argument, bad flag value, unknown flag', async () => {
    for (const args of [['frobnicate'], ['goto'], ['snapshot', '--depth', 'deep'], ['click', 'e1', '--bogus']]) {
      const result = await argus(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^usage error: /);
    }
    expect(existsSync(join(cli.stateDir, 'daemon.json'))).toBe(false);
  });
});

describe('commands through an auto-started daemon', () => {
  it('goto, snapshot -i, click a ref, text', async () => {
    const goto = await argus('goto', cli.server.urlFor('/buttons.html'));
    // the first command starts the daemon and Chromium: it says so on stderr instead of sitting silent
    expect(goto.stderr).toBe('argus: starting the daemon and Chromium…\n');
    expect(goto.code).toBe(0);
    const state = join(cli.stateDir, 'daemon.json');
    expect(statSync(state).mode & 0o777).toBe(0o600);
    const snap = await argus('snapshot', '-i');
    expect(snap.code).toBe(0);
    expect(snap.stderr).toBe(''); // a running daemon: nothing to announce
    const ref = /button "Increment" (e\d+)/.exec(snap.stdout)?.[1];
    expect(ref, snap.stdout).toBeTruthy();
    const click = await argus('click', ref!);
    expect(click.code).toBe(0);
    expect(click.stdout).toMatch(/^click button "Increment"/);
    expect((await argus('text', '#count')).stdout.trim()).toBe('Count: 1');
    // a locator instead of a ref
    const byRole = await argus('click', 'role=button[name="Increment"]');
    expect(byRole.stdout).toMatch(/^click button "Increment" \[e\d+\]/);
    expect((await argus('text', 'text=Count:')).stdout.trim()).toBe('Count: 2');
  });

  it('--json prints the raw output object', async () => {
    const result = await argus('url', '--json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ url: cli.server.urlFor('/buttons.html'), title: expect.any(String) });
  });

  it('command errors print error[code] and exit 1; bad input exits 2; the daemon keeps serving', async () => {
    const missing = await argus('click', 'e4242');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error\[ref_not_found\]: .*snapshot/);
    const bad = await argus('goto', 'http://');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error\[invalid_input\]/);
    const thrown = await argus('eval', 'throw new Error("nope")');
    expect(thrown.code).toBe(1);
    expect(thrown.stderr).toMatch(/^error\[eval_failed\]: .*nope/);
    const nothing = await argus('click', '#nothing-here', '--timeout-ms', '300');
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(/^error\[element_not_found\]/);
    expect((await argus('url')).code).toBe(0);
  });

  it('--untrusted-envelope marks page content', async () => {
    const result = await argus('text', '#count', '--untrusted-envelope');
    expect(result.stdout).toMatch(/^<<page [0-9a-f]{12}>>\n/);
    expect(result.stdout).toMatch(/Count: 2/);
  });

  it('status shows the running browser, stop ends the daemon and removes the state file', async () => {
    const status = await argus('status');
    expect(status.stdout).toMatch(/browser running/);
    const pid = JSON.parse(readFileSync(join(cli.stateDir, 'daemon.json'), 'utf8')).pid as number;
    // the daemon's own Chromium: the Argus-profile process whose parent is the daemon
    const parentOf = (child: number) => Number(readFileSync(`/proc/${child}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1]);
    const browsers = listArgusChromeProcesses().filter((chrome) => parentOf(chrome.pid) === pid);
    expect(browsers).toHaveLength(1);
    expect((await argus('stop')).code).toBe(0);
    // `stop` returns once the daemon has exited: no wait needed here, and its browser is gone with it
    expect(() => process.kill(pid, 0)).toThrow();
    expect(() => process.kill(browsers[0]!.pid, 0)).toThrow();
    expect(existsSync(join(cli.stateDir, 'daemon.json'))).toBe(false);
  });
});
