import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { listArgusChromes, runProcess } from '../src/index.js';

const script = fileURLToPath(new URL('../../scripts/check-no-chromium.mjs', import.meta.url));

/** A stand-in "Chromium": a node process whose command line carries an Argus profile flag. */
function fakeChrome(profile) {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', `--user-data-dir=${profile}`], {
    stdio: 'ignore',
  });
  return { child, spawned: new Promise((resolve) => child.once('spawn', resolve)) };
}

describe('check-no-chromium (last step of pnpm check)', () => {
  it('ignores an Argus Chromium it did not start (another daemon on the machine)', async () => {
    const foreign = fakeChrome(join(tmpdir(), `argus-chrome-foreign-${process.pid}`));
    try {
      await foreign.spawned;
      const run = await runProcess(process.execPath, [script, process.execPath, '-e', '0']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('no Chromium left running by this run');
    } finally {
      foreign.child.kill('SIGKILL');
    }
  });

  it('fails on and kills a Chromium the checked command left behind, under its own temp root', async () => {
    const leaker = `require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', '--user-data-dir=' + require('node:os').tmpdir() + '/argus-chrome-leak'], { detached: true, stdio: 'ignore' }).unref()`;
    const run = await runProcess(process.execPath, [script, process.execPath, '-e', leaker]);
    expect(run.code).toBe(1);
    const match = /pid (\d+): .*--user-data-dir=(\S+)/.exec(run.stderr);
    expect(match?.[2]).toMatch(/\/argus-check-[^/]+\/argus-chrome-leak$/);
    expect(listArgusChromes()).not.toContain(Number(match?.[1])); // killed (at most a zombie now)
  });

  it('passes the command exit code through', async () => {
    const run = await runProcess(process.execPath, [script, process.execPath, '-e', 'process.exit(3)']);
    expect(run.code).toBe(3);
  });
});
