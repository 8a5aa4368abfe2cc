import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess, startFixtureServer } from '@argus/test-kit';
import { describe, expect, it } from 'vitest';
import { CLI } from './cli-harness.js';

// Issue 14: a headed browser without a display is a typed error that says what to do, not a page of
// Chromium's dbus/ozone noise.

describe.skipIf(process.platform !== 'linux')('ARGUS_HEADLESS=0 without a display', () => {
  it('fails with no_display naming xvfb-run and headless mode, and launches nothing', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'argus-headed-'));
    const stateDir = join(workspace, '.argus');
    const server = await startFixtureServer();
    const env: NodeJS.ProcessEnv = { ...process.env, ARGUS_STATE_DIR: stateDir, ARGUS_HEADLESS: '0' };
    delete env.DISPLAY;
    delete env.WAYLAND_DISPLAY;
    const argus = (...args: string[]) => runProcess(process.execPath, [CLI, ...args], { cwd: workspace, env });
    try {
      const result = await argus('goto', server.urlFor('/buttons.html'));
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^error\[no_display\]: A headed browser .* needs a display/m);
      expect(result.stderr).toMatch(/xvfb-run/);
      expect(result.stderr).toMatch(/headless/);
      expect(result.stderr).not.toMatch(/dbus|ozone|Missing X server/i);
      const json = await argus('--json', 'goto', server.urlFor('/buttons.html'));
      expect(JSON.parse(json.stderr.trim().split('\n').at(-1) ?? '')).toMatchObject({ error: { code: 'no_display' } });
      // no Chromium was started: the daemon says so
      const status = JSON.parse((await argus('status', '--json')).stdout) as { browser: { launches: number } };
      expect(status.browser.launches).toBe(0);
    } finally {
      if (existsSync(join(stateDir, 'daemon.json'))) await argus('stop');
      await server.close();
      expect(readFileSync(join(stateDir, 'daemon.log'), 'utf8')).not.toMatch(/dbus/i);
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});
