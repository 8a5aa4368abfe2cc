import { describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';

// Issue 20 through the CLI process: a navigation that lands on a login wall says so with the
// handoff hint; `argus handoff` without a display fails with what to do instead; `argus resume`
// with nothing to resume says so. (The headed flow runs in the daemon's handoff.test.ts on Xvfb.)

// no display for the daemon this CLI starts (it inherits this environment)
delete process.env.DISPLAY;
delete process.env.WAYLAND_DISPLAY;
const cli = useCli('argus-cli-handoff-');

describe('challenges and handoff (CLI process)', () => {
  it('goto prints the challenge line with the handoff hint; --json carries {kind, hint}', async () => {
    const text = await cli.argus('goto', cli.server.urlFor('/login.html'));
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      /^challenge: login: login form fills the page: .*argus handoff --reason "Log in, then press Done" --wait/m,
    );
    const json = await cli.argus('goto', cli.server.urlFor('/login.html'), '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ challenge: { kind: 'login' } });
    const plain = await cli.argus('goto', cli.server.urlFor('/form.html'), '--json');
    expect(JSON.parse(plain.stdout)).not.toHaveProperty('challenge');
    // the first command starts a daemon and Chromium: slow on a loaded machine
  }, 180_000);

  it('handoff without a display fails with no_display and points at the extension; resume has nothing to end', async () => {
    const handoff = await cli.argus('handoff', '--reason', 'Log in, then press Done', '--timeout', '5m');
    expect(handoff.code).not.toBe(0);
    expect(handoff.stderr).toMatch(/no_display/);
    expect(handoff.stderr).toMatch(/argus connect --extension/);
    const resume = await cli.argus('resume');
    expect(resume.code).not.toBe(0);
    expect(resume.stderr).toMatch(/no_handoff/);
    const bad = await cli.argus('handoff', '--timeout', '2s');
    expect(bad.stderr).toMatch(/invalid_input|10s to 24h/);
    const status = await cli.argus('status');
    expect(status.stdout).not.toMatch(/^handoff /m);
  }, 180_000);
});
