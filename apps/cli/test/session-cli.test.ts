import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '@argus/client';
import { describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';

// restart, focus and disconnect as a user types them, through the real CLI process (issue 14).

describe('argus restart / focus / disconnect', () => {
  const cli = useCli('argus-session-');
  const daemonPid = () => (JSON.parse(readFileSync(join(cli.stateDir, 'daemon.json'), 'utf8')) as { pid: number }).pid;

  it('restart waits for the new daemon, which has the same tabs', async () => {
    const url = (path: string) => cli.server.urlFor(path);
    expect((await cli.argus('goto', url('/buttons.html'))).code).toBe(0);
    expect((await cli.argus('newtab', url('/form.html'))).code).toBe(0);
    const before = daemonPid();
    const restarted = await cli.argus('restart');
    expect(restarted.code, restarted.stderr).toBe(0);
    const [, oldPid, newPid] = /^daemon restarted: pid (\d+) -> (\d+)$/m.exec(restarted.stdout) ?? [];
    expect(Number(oldPid)).toBe(before);
    // by the time the CLI returns, the old daemon is gone and the new one is the workspace's
    expect(isProcessAlive(before)).toBe(false);
    expect(Number(newPid)).toBe(daemonPid());
    expect(restarted.stdout).toContain('carried over');
    expect(restarted.stdout).toContain(`  ${url('/form.html')}`);
    const tabs = await cli.argus('tabs', '--json');
    const listed = (JSON.parse(tabs.stdout) as { tabs: Array<{ url: string }> }).tabs.map((tab) => tab.url);
    expect(listed).toEqual([url('/buttons.html'), url('/form.html')]);
  });

  it('focus brings a tab to the front by index; disconnect closes the launched browser and says so', async () => {
    const focused = await cli.argus('focus', '1');
    expect(focused.code, focused.stderr).toBe(0);
    expect(focused.stdout).toMatch(/^tab \S+ in front: .*buttons\.html/);
    expect((await cli.argus('eval', 'document.visibilityState')).stdout.trim()).toBe('visible');
    const status = JSON.parse((await cli.argus('status', '--json')).stdout) as { browser: { pid: number } };
    const disconnected = await cli.argus('disconnect');
    expect(disconnected.code, disconnected.stderr).toBe(0);
    expect(disconnected.stdout).toMatch(/closed the browser Argus launched/);
    // exited: since restart hands the new daemon a browser the CLI launched, that browser is not the
    // daemon's child, and init may reap it a moment later (a zombie is not running)
    expect(isProcessAlive(status.browser.pid)).toBe(false);
    expect((await cli.argus('disconnect')).stdout).toMatch(/no browser was attached/);
  });
});
