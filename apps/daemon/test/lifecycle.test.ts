import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startDaemon } from '../src/index.js';
import { type Harness, TEST_CHROME_FLAGS, failure, startHarness } from './harness.js';

describe('stopping the daemon closes Chrome gracefully', () => {
  it('a persistent cookie in a fixed profile survives stop and start', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'argus-fixed-profile-'));
    // Chromium takes the last --user-data-dir: this one replaces the daemon's temp profile
    const env = { ARGUS_CHROME_FLAGS: `${TEST_CHROME_FLAGS} --user-data-dir=${profile}` };
    try {
      const first = await startHarness(env);
      try {
        await first.client.page.goto.mutate({
          url: first.server.urlFor('/set-cookie?name=login&value=kept&max-age=86400'),
        });
        expect((await first.client.page.eval.mutate({ js: 'document.cookie' })).value).toBe('login=kept');
      } finally {
        // the daemon's stop: Browser.close, then wait for Chrome to exit (it writes the cookie store)
        await first.close();
      }
      const second = await startHarness(env);
      try {
        await second.client.page.goto.mutate({ url: second.server.urlFor('/nav-a.html') });
        // cookies are per host, not per port: the new fixture server sees the old cookie
        expect((await second.client.page.eval.mutate({ js: 'document.cookie' })).value).toBe('login=kept');
      } finally {
        await second.close();
      }
    } finally {
      rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
    }
  });
});

describe('idle stop and restart', () => {
  it('keep a named profile (its cookie) and the journal (its rows) intact', async () => {
    // a short idle timeout for the first daemon only: it stops by itself, as an idle daemon does
    const first = await startHarness({ ARGUS_PROFILE: 'work', ARGUS_IDLE_TIMEOUT_MS: '1500' });
    let second: Harness | undefined;
    try {
      const setCookie = first.server.urlFor('/set-cookie?name=login&value=kept&max-age=86400');
      await first.client.page.goto.mutate({ url: setCookie });
      expect((await first.client.page.eval.mutate({ js: 'document.cookie' })).value).toBe('login=kept');
      // no call for 1.5 s: the daemon stops itself (browser closed, journal written and closed)
      await first.daemon.stopped;
      second = await startHarness(
        { ARGUS_PROFILE: 'work' },
        { stateDir: first.daemon.stateDir, workspace: first.workspace },
      );
      const profiles = await second.client.profile.list.query({});
      expect(profiles.profiles.map((profile) => profile.name)).toContain('work');
      await second.client.page.goto.mutate({ url: second.server.urlFor('/nav-a.html') });
      expect((await second.client.page.eval.mutate({ js: 'document.cookie' })).value).toBe('login=kept');
      // the first daemon's rows are still there, in order, beside the new ones
      const journal = await second.client.journal.list.query({ limit: 1000 });
      const commands = journal.entries.map((entry) => `${entry.command} ${entry.urlAfter ?? ''}`);
      const firstGoto = commands.indexOf(`page.goto ${setCookie}`);
      expect(firstGoto).toBeGreaterThanOrEqual(0);
      expect(commands.indexOf(`page.goto ${second.server.urlFor('/nav-a.html')}`)).toBeGreaterThan(firstGoto);
      expect(journal.journal.ok).toBe(true);
    } finally {
      await second?.close();
      await first.close();
    }
  });
});

describe('restart', () => {
  it('reopens the saved tabs all at once, not one load after the other', async () => {
    const first = await startHarness();
    let second: Harness | undefined;
    // each tab's page answers once both are loading at the same time ("met"), else after 2.5 s ("alone")
    const barrier = (tab: number) =>
      first.server.urlFor(`/barrier?name=restart-${process.pid}&count=2&ms=2500&tab=${tab}`);
    try {
      await first.client.page.goto.mutate({ url: barrier(1) });
      await first.client.tabs.open.mutate({ url: barrier(2) });
      await first.client.daemon.restart.mutate({});
      await first.daemon.stopped;
      second = await startHarness({}, { stateDir: first.daemon.stateDir, workspace: first.workspace });
      const tabs = (await second.client.tabs.list.query({})).tabs;
      expect(tabs.map((tab) => tab.url)).toEqual([barrier(1), barrier(2)]);
      for (const tab of tabs)
        expect(
          (await second.client.page.eval.mutate({ tab: tab.id, js: "document.querySelector('#barrier').textContent" }))
            .value,
        ).toBe('met');
    } finally {
      await second?.close();
      await first.close();
    }
  });
});

describe('a stop whose state dir is gone', () => {
  it('still ends: each step that fails is logged, the rest run, and `stopped` resolves', async () => {
    // a test's clean-up (or a person) deleting the state dir while the daemon stops: the shares file
    // could not be written, the stop threw half-way and the daemon stayed up listening for ever,
    // deaf to SIGTERM too (its stop was already under way)
    const workspace = mkdtempSync(join(tmpdir(), 'argus-ws-'));
    const stateDir = join(workspace, '.argus');
    const daemon = await startDaemon({
      stateDir,
      workspace,
      env: { ...process.env, ARGUS_CHROME_FLAGS: TEST_CHROME_FLAGS },
    });
    // a shared token just used: its last-use time waits to be written, which the stop does
    const minted = daemon.services.shares.mint({ name: 'agent', scope: 'read', commands: [], ttlMs: 60_000 });
    expect(daemon.services.shares.check(minted?.secret).ok).toBe(true);
    rmSync(workspace, { recursive: true, force: true });
    const outcome = await Promise.race([
      daemon.stop('test done').then(
        () => 'stopped',
        (error: unknown) => `stop threw: ${(error as Error).message}`,
      ),
      new Promise((resolve) => setTimeout(() => resolve('still stopping after 10 s'), 10_000).unref()),
    ]);
    expect(outcome).toBe('stopped');
    await daemon.stopped;
    expect(daemon.stopping()).toBe(true);
  });
});

describe('a command that reaches a stopping daemon after its browser closed', () => {
  it('is refused with daemon_unreachable, and launches no browser that nothing would close', async () => {
    // a client connected before the stop can still send until the listener closes (the stop closes
    // the browser first): its browser command relaunched Chromium in a daemon about to exit
    const harness = await startHarness();
    try {
      await harness.client.page.goto.mutate({ url: harness.server.urlFor('/form.html') });
      const manager = harness.daemon.services.manager;
      const launches = manager.launches;
      // the stop's browser step, with the listener still open (as between that step and the server's)
      await manager.close();
      const error = await failure(harness.client.page.goto.mutate({ url: harness.server.urlFor('/form.html') }));
      expect(error.code).toBe('daemon_unreachable');
      expect(error.message).toMatch(/stopping/);
      expect(manager.launches).toBe(launches);
    } finally {
      await harness.close();
    }
  });
});
