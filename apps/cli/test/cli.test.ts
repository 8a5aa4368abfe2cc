import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '@argus/client';
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
  it('suggests the nearest verb for a typo, and accepts the verbs users of other tools type', async () => {
    const typo = await argus('snapshto');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/Did you mean `argus snapshot`\?/);
    expect((await argus('scrennshot')).stderr).toMatch(/Did you mean `argus screenshot`/);
    // nothing near: no guess, only the pointer to help
    expect((await argus('frobnicate')).stderr).not.toMatch(/Did you mean/);
    // aliases resolve to the same command (shown by its help)
    expect((await argus('open', '--help')).stdout).toMatch(/^Usage: argus goto <url>/);
    expect((await argus('navigate', '--help')).stdout).toMatch(/^Usage: argus goto <url>/);
    expect((await argus('close', '--help')).stdout).toMatch(/^Usage: argus closetab/);
    expect((await argus('shot', '--help')).stdout).toMatch(/^Usage: argus screenshot/);
  });
  it('--json makes errors JSON on stderr, with the same exit codes', async () => {
    const usage = await argus('goto', '--json');
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stderr)).toMatchObject({
      error: { code: 'usage', message: expect.stringMatching(/Missing <url>/) },
    });
  });
  it('--version, and help that leads with the verbs that matter and fits the terminal', async () => {
    for (const flag of ['--version', '-V']) expect((await argus(flag)).stdout).toMatch(/^argus \d+\.\d+\.\d+/);
    const help = (await argus('--help')).stdout;
    expect(help.indexOf('Start here:')).toBeLessThan(help.indexOf('Navigate and tabs:'));
    expect(help).toMatch(/role=button\[name="Sign in"\]/);
    for (const line of help.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
    const snapshot = (await argus('snapshot', '--help')).stdout;
    expect(snapshot).not.toMatch(/default false/);
    // an option label never runs into its description
    for (const line of (await argus('goto', '--help')).stdout.split('\n')) expect(line, line).not.toMatch(/>[A-Z]/);
  });
  it('a group word lists its subcommands: alone or with a wrong one exit 2, with --help exit 0', async () => {
    const alone = await argus('config');
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(
      /^usage error: `argus config` needs a subcommand: get \| list \| set\n {2}argus config get/,
    );
    for (const args of [
      ['session', '--help'],
      ['help', 'session'],
    ]) {
      const help = await argus(...args);
      expect(help.code, args.join(' ')).toBe(0);
      expect(help.stdout).toMatch(/^Usage: argus session <subcommand>[^]*argus session close <name>/);
    }
    const wrong = await argus('session', 'nope');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^usage error: "nope" is not a subcommand of `argus session`[^]*argus session close/);
    expect(existsSync(join(cli.stateDir, 'daemon.json'))).toBe(false);
  });
  it('help for an unknown verb, an unknown global option and a word for another verb are usage errors', async () => {
    const help = await argus('help', 'nosuch');
    expect(help.code).toBe(2);
    expect(help.stdout).toBe('');
    expect(help.stderr).toMatch(/^usage error: Unknown command "nosuch"\./);
    expect((await argus('help', 'snapshto')).stderr).toMatch(/Did you mean `argus snapshot`/);
    const bogus = await argus('--bogus', 'url');
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toMatch(/^usage error: Unknown global option "--bogus"\. Global options: --json/);
    const markdown = await argus('markdown');
    expect(markdown.code).toBe(2);
    expect(markdown.stderr).toMatch(/Did you mean `argus fetch <url>` \(Markdown is its default output\)/);
    // the CLI's own verbs have help too (`install-browser --help` used to install)
    const own = await argus('install-browser', '--help');
    expect(own.code).toBe(0);
    expect(own.stdout).toMatch(/^Usage: argus install-browser\n/);
  });
  it('output into a pipe whose reader has gone ends quietly with 141, as cat does', async () => {
    const help = await cli.argusIntoClosingPipe(0, '--help');
    expect(help.stderr).toBe('');
    expect(help.code).toBe(141);
  });
  it('status and stop with no daemon running say so and start none', async () => {
    const status = await argus('status');
    expect(status.code).toBe(3);
    expect(status.stdout).toMatch(/no Argus daemon is running/);
    expect(JSON.parse((await argus('status', '--json')).stdout)).toMatchObject({ running: false });
    const stop = await argus('stop');
    expect(stop.code).toBe(0);
    expect(stop.stdout).toMatch(/nothing to stop/);
    expect(existsSync(join(cli.stateDir, 'daemon.json'))).toBe(false);
  });
});

describe('commands through an auto-started daemon', () => {
  it('goto, snapshot -i, click a ref, text', async () => {
    const goto = await argus('goto', cli.server.urlFor('/buttons.html'));
    // the first command starts the daemon and Chromium: it says so on stderr instead of sitting silent
    // (on a loaded machine a start past 15 s also prints the progress lines of a slow command)
    const [notice, ...progress] = goto.stderr.split('\n').filter(Boolean);
    expect(notice).toBe('argus: starting the daemon and Chromium…');
    for (const line of progress) expect(line).toMatch(/^waiting for \S+ … \d+ s$/);
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
    expect(JSON.parse(result.stdout)).toMatchObject({
      url: cli.server.urlFor('/buttons.html'),
      title: expect.any(String),
    });
  });

  it('command errors print error[code] and exit 1; bad input exits 2; the daemon keeps serving', async () => {
    const missing = await argus('click', 'e4242');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error\[ref_not_found\]: .*snapshot/);
    const bad = await argus('goto', 'http://');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error\[invalid_input\]/);
    const badJson = await argus('goto', 'javascript:alert(1)', '--json');
    expect(badJson.code).toBe(2);
    expect(JSON.parse(badJson.stderr).error).toMatchObject({ code: 'invalid_input', message: expect.any(String) });
    const thrown = await argus('eval', 'throw new Error("nope")');
    expect(thrown.code).toBe(1);
    expect(thrown.stderr).toMatch(/^error\[eval_failed\]: .*nope/);
    const nothing = await argus('click', '#nothing-here', '--timeout-ms', '300');
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(/^error\[element_not_found\]/);
    expect((await argus('url')).code).toBe(0);
  });

  it('daemon output into a reader that stops early (`argus eval … | head -c 100`) ends quietly with 141', async () => {
    // 300 kB: far more than a pipe buffers, so the CLI is still writing when the reader goes
    const big = await cli.argusIntoClosingPipe(100, 'eval', "'x'.repeat(300000)", '--max-chars', '400000');
    expect(big.read).toBeGreaterThanOrEqual(100);
    expect(big.read).toBeLessThan(300_000);
    expect(big.stderr).not.toMatch(/Unhandled|EPIPE|error/i);
    expect(big.code).toBe(141);
    expect((await argus('url')).code).toBe(0);
  });

  it('--untrusted-envelope marks page content', async () => {
    const result = await argus('text', '#count', '--untrusted-envelope');
    expect(result.stdout).toMatch(/^<<page [0-9a-f]{12}>>\n/);
    expect(result.stdout).toMatch(/Count: 2/);
  });

  it('a right, middle or double click says which it was', async () => {
    expect((await argus('goto', cli.server.urlFor('/buttons.html'))).code).toBe(0);
    const target = '#below';
    const right = await argus('click', target, '--button', 'right');
    expect(right.code, right.stderr).toBe(0);
    expect(right.stdout).toMatch(/^right-click button "Below the fold"/);
    expect((await argus('click', target, '--button', 'middle')).stdout).toMatch(
      /^middle-click button "Below the fold"/,
    );
    expect((await argus('click', target, '--double')).stdout).toMatch(/^double-click button "Below the fold"/);
    expect((await argus('click', target)).stdout).toMatch(/^click button "Below the fold"/);
  });

  it('status shows the running browser, stop ends the daemon and removes the state file', async () => {
    const status = await argus('status');
    expect(status.stdout).toMatch(/browser running/);
    const pid = JSON.parse(readFileSync(join(cli.stateDir, 'daemon.json'), 'utf8')).pid as number;
    // the daemon's Chromium (the CLI launched it and handed it over: it is not the daemon's child)
    const browserPid = (JSON.parse((await argus('status', '--json')).stdout) as { browser: { pid: number } }).browser
      .pid;
    const browsers = listArgusChromeProcesses().filter((chrome) => chrome.pid === browserPid);
    expect(browsers).toHaveLength(1);
    expect((await argus('stop')).code).toBe(0);
    // `stop` returns once the daemon has exited: no wait needed here, and its browser is gone with it
    // (either may still be a zombie: exited, not yet reaped by init, which here does it seconds later)
    expect(isProcessAlive(pid)).toBe(false);
    expect(isProcessAlive(browsers[0]!.pid)).toBe(false);
    expect(existsSync(join(cli.stateDir, 'daemon.json'))).toBe(false);
  });
});
