/**
 * vitest globalSetup entry: `globalSetup: ['@argus/test-kit/global-setup']` makes a run fail when
 * it leaves an Argus Chromium running. See chromeLeakGuard().
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromeLeakGuard } from './leak-guard.js';

const guard = chromeLeakGuard();
let runDir;
let previousTmpdir;

/**
 * Gives the run its own temp dir (TMPDIR, inherited by test workers, daemons and Chromium), so the
 * guard judges only the Chromes this run started, even while other suites run on the machine.
 */
export function setup() {
  previousTmpdir = process.env.TMPDIR;
  runDir = mkdtempSync(join(tmpdir(), 'argus-run-'));
  process.env.TMPDIR = runDir;
  guard.setup();
}

export async function teardown() {
  try {
    await guard.teardown();
  } catch (error) {
    // vitest 4 only logs a teardown error ("error during close") and still exits 0,
    // so mark the run failed ourselves; vitest never resets exitCode after teardown.
    process.exitCode = 1;
    throw error;
  } finally {
    if (previousTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmpdir;
    if (runDir) rmSync(runDir, { recursive: true, force: true, maxRetries: 5 });
  }
}
