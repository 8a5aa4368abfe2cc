import { existsSync } from 'node:fs';
import { type FixtureServer, runProcess, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, useCli } from './cli-harness.js';

// Rough edges a new user hit, each as they typed it, through the real CLI against a real daemon.

const PAGES = {
  '/a': '<!doctype html><title>Page A</title><h1>A</h1>',
  '/b': '<!doctype html><title>Page B</title><h1>B</h1>',
  // the new tab's document takes long to come: it has no committed URL meanwhile
  '/opener': '<!doctype html><title>Opener</title><a id="pop" href="/slow?ms=8000" target="_blank">open</a>',
};

/** A CDP target id (32 hex digits), as the CLI's text must never show a tab. */
const FULL_ID = /\b[0-9A-F]{32}\b/;

describe('commands before any daemon', () => {
  const cli = useCli('argus-rough-idle-');

  it('a group word alone lists its subcommands and starts nothing', async () => {
    const result = await cli.argus('config');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/`argus config` needs a subcommand: get \| list \| set/);
    // before: the daemon was started early (state dir, log) and stopped again after the usage error
    expect(existsSync(cli.stateDir)).toBe(false);
    expect(result.stderr).not.toMatch(/starting the daemon/);
  });

  it.runIf(process.platform === 'linux')(
    'a state dir that cannot be made is a typed error at once (Node 20 spun forever making one under /proc)',
    async () => {
      // killed after 15 s (a hang then fails the exit code below)
      const result = await runProcess(process.execPath, [CLI, 'goto', 'http://127.0.0.1:1/'], {
        env: { ...process.env, ARGUS_STATE_DIR: '/proc/argus-no-state-dir' },
        timeoutMs: 15_000,
      });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain('error[invalid_input]: Cannot make the state dir /proc/argus-no-state-dir');
      expect(result.stderr).toContain('Set ARGUS_STATE_DIR');
      // and no word of a start that never began
      expect(result.stderr).not.toMatch(/starting the daemon/);
    },
  );

  it('an unknown command in a chain step gets the same hint as typed alone', async () => {
    const result = await cli.argusWithStdin('[["markdown","https://example.com"]]', 'chain');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/chain step 0: Unknown command "markdown"\. Did you mean `argus fetch <url>`/);
    const group = await cli.argusWithStdin('[["config"]]', 'chain');
    expect(group.stderr).toMatch(/chain step 0: `argus config` needs a subcommand/);
  });

  it("`url`'s help promises what its plain output prints", async () => {
    const help = await cli.argus('url', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).not.toMatch(/URL and title/);
    expect(help.stdout).toMatch(/Print the URL of a tab \(--json: with its title\)/);
  });
});

describe('tabs, URLs and output a new user met', () => {
  const cli = useCli('argus-rough-');
  let site: FixtureServer;
  beforeAll(async () => {
    site = await startFixtureServer({ pages: PAGES });
  });
  afterAll(async () => {
    await site.close();
  });

  it('refuses a garbled scheme with a hint, and keeps bare hosts working', async () => {
    const bad = await cli.argus('goto', 'ht!tp://bad');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error\[invalid_input\]: .*"ht!tp:\/\/bad" does not start with a valid scheme/m);
    expect(bad.stderr).toMatch(/Did you mean http:\/\/bad\?/);
    const missingColon = await cli.argus('goto', 'http//example.com');
    expect(missingColon.code).toBe(2);
    expect(missingColon.stderr).toMatch(/Did you mean http:\/\/example\.com\?/);
    // `127.0.0.1:PORT/a` typed bare still means http://
    const bare = await cli.argus('goto', `${site.origin.replace(/^http:\/\//, '')}/a`);
    expect(bare.code, bare.stderr).toBe(0);
    expect(bare.stdout).toContain(`${site.origin}/a`);
  });

  it('--tab before the verb acts like --tab after it', async () => {
    expect((await cli.argus('goto', `${site.origin}/a`)).code).toBe(0);
    expect((await cli.argus('newtab', `${site.origin}/b`)).code).toBe(0);
    const before = await cli.argus('--tab', '1', 'reload');
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toMatch(/^Page A/);
    const after = await cli.argus('reload', '--tab', '1');
    expect(after.stdout).toBe(before.stdout);
    expect((await cli.argus('--tab', '1', 'url')).stdout).toBe(`${site.origin}/a\n`);
    expect((await cli.argus('--tab', '1', 'text', 'h1')).stdout).toBe('A\n');
    // the active tab is still B
    expect((await cli.argus('url')).stdout).toBe(`${site.origin}/b\n`);
    // `tab` and `closetab` take it as the tab they name
    const switched = await cli.argus('--tab', '1', 'tab');
    expect(switched.code, switched.stderr).toBe(0);
    expect((await cli.argus('url')).stdout).toBe(`${site.origin}/a\n`);
    const notTabScoped = await cli.argus('--tab', '1', 'tabs');
    expect(notTabScoped.code).toBe(2);
    expect(notTabScoped.stderr).toMatch(/`argus tabs` does not act on one tab/);
  });

  it('names every tab by the short id `tabs` lists; a new tab shows its URL at once', async () => {
    const opened = await cli.argus('newtab', `${site.origin}/opener`);
    expect(opened.code, opened.stderr).toBe(0);
    const listed = JSON.parse((await cli.argus('tabs', '--json')).stdout) as {
      tabs: Array<{ id: string; shortId: string; url: string; active: boolean }>;
    };
    const opener = listed.tabs.find((tab) => tab.active);
    expect(opener?.url).toBe(`${site.origin}/opener`);
    expect(opened.stdout).toBe(`opened tab ${opener?.shortId}: Opener — ${site.origin}/opener\n`);

    // a link that opens a tab: reported by its short id (was the 32-character target id)
    const clicked = await cli.argus('click', '#pop');
    expect(clicked.code, clicked.stderr).toBe(0);
    const line = clicked.stdout.split('\n').find((text) => text.startsWith('opened tab '));
    expect(line).toMatch(/^opened tab [0-9A-F]{4,} /);
    expect(clicked.stdout).not.toMatch(FULL_ID);
    const popup = line?.split(' ')[2] as string;

    // `tabs` while its document loads: a URL, never an empty column
    const tabs = await cli.argus('tabs');
    const row = tabs.stdout.split('\n').find((text) => text.includes(`  ${popup}  `));
    expect(row, tabs.stdout).toMatch(/ {2}(about:blank|http:\/\/\S+\/slow\?ms=8000)$/);

    const closed = await cli.argus('closetab', popup);
    expect(closed.code, closed.stderr).toBe(0);
    expect(closed.stdout).toMatch(new RegExp(`^closed tab ${popup}; `));
    expect(closed.stdout).not.toMatch(FULL_ID);
    // --json keeps the full ids
    const closedJson = JSON.parse((await cli.argus('closetab', '--json')).stdout) as { closed: string };
    expect(closedJson.closed).toMatch(/^[0-9A-F]{32}$/);
  });

  it('perf prints its values in one column', async () => {
    expect((await cli.argus('goto', `${site.origin}/a`)).code).toBe(0);
    const perf = await cli.argus('perf');
    expect(perf.code, perf.stderr).toBe(0);
    const columns = perf.stdout
      .trimEnd()
      .split('\n')
      .map((text) => /^\S+\s+/.exec(text)?.[0].length);
    expect(columns.length).toBeGreaterThan(5);
    expect(new Set(columns).size, perf.stdout).toBe(1);
  });

  it('`argus demo` with a daemon running works in a tab of its own and leaves the user tab alone', async () => {
    expect((await cli.argus('goto', `${site.origin}/b`)).code).toBe(0);
    const before = JSON.parse((await cli.argus('tabs', '--json')).stdout) as {
      tabs: Array<{ id: string; url: string; active: boolean }>;
    };
    const demo = await cli.argus('demo');
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toMatch(/^demo tab: [0-9A-F]{4,} /m);
    expect(demo.stdout).toMatch(/^closed the demo tab [0-9A-F]{4,}$/m);
    expect(demo.stdout).toContain('Hello, Ada! Greetings from Argus.');
    const after = JSON.parse((await cli.argus('tabs', '--json')).stdout) as typeof before;
    // the same tabs, at the same URLs, the same one active: the demo page was never loaded into them
    expect(after.tabs.map(({ id, url, active }) => ({ id, url, active }))).toEqual(
      before.tabs.map(({ id, url, active }) => ({ id, url, active })),
    );
    expect((await cli.argus('url')).stdout).toBe(`${site.origin}/b\n`);
  });

  it('a browser that died is reported with what is known of its end, never "null"', async () => {
    const status = JSON.parse((await cli.argus('status', '--json')).stdout) as { browser: { pid: number | null } };
    const pid = status.browser.pid;
    expect(pid).toBeGreaterThan(0);
    process.kill(pid as number, 'SIGKILL');
    // the next command hears of it once (then relaunches); wait for the daemon to have seen the exit
    let reported = '';
    for (let attempt = 0; attempt < 20 && !reported; attempt++) {
      const result = await cli.argus('url');
      if (result.stderr.includes('error[browser_crashed]')) reported = result.stderr;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(reported).toMatch(
      /^error\[browser_crashed\]: The browser exited unexpectedly \((killed by SIGKILL|exit code \d+|exit status not known)\)/,
    );
    expect(reported).not.toMatch(/null/);
  });
});
