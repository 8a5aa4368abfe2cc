/**
 * vitest globalSetup entry: `globalSetup: ['@argus/test-kit/global-setup']` makes a run fail when
 * it leaves an Argus Chromium running. See chromeLeakGuard().
 */
import { chromeLeakGuard } from './leak-guard.js';

const guard = chromeLeakGuard();

export function setup() {
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
  }
}
