import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { listArgusChromeProcesses } from './chrome.js';

/**
 * @typedef {object} ChromeLeakGuard
 * @property {() => void} setup records the Argus Chromes already alive (not ours to judge)
 * @property {() => Promise<void>} teardown waits for Chromes started since setup() to exit;
 *   kills the rest with SIGKILL and throws an Error listing them
 */

/**
 * A vitest `globalSetup` pair that fails the suite when a test run leaves an Argus Chrome
 * (profile `<os.tmpdir()>/argus-chrome-*`) running. Use it via `globalSetup: ['@argus/test-kit/global-setup']`.
 * @param {object} [options]
 * @param {number} [options.timeoutMs] grace period before killing, default 5000
 * @param {number} [options.intervalMs] poll step, default 100
 * @param {() => import('./chrome.js').ArgusChromeProcess[]} [options.list] what to watch; default
 *   listArgusChromeProcesses (tests pass a narrower list so they never touch a real browser)
 * @returns {ChromeLeakGuard}
 */
export function chromeLeakGuard({ timeoutMs = 5000, intervalMs = 100, list = listArgusChromeProcesses } = {}) {
  /** @type {Set<number>} */
  let before = new Set();
  const startedSince = () => list().filter((proc) => !before.has(proc.pid));

  return {
    setup() {
      before = new Set(list().map((proc) => proc.pid));
    },
    async teardown() {
      const deadline = Date.now() + timeoutMs;
      let leaked = startedSince();
      // Shutdown is asynchronous (Browser.close, then exit): give it the grace period.
      while (leaked.length > 0 && Date.now() < deadline) {
        await sleep(intervalMs);
        leaked = startedSince();
      }
      if (leaked.length === 0) return;
      for (const proc of leaked) {
        try {
          process.kill(proc.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      await sleep(intervalMs);
      for (const dir of new Set(leaked.map((proc) => proc.userDataDir))) {
        rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
      }
      const list = leaked.map((proc) => `  pid ${proc.pid}: ${proc.cmdline.slice(0, 200)}`).join('\n');
      throw new Error(
        `${leaked.length} Chromium process(es) started by the tests were still running ${timeoutMs} ms after the run ` +
          `(killed now). Some test does not close its browser in a finally/afterEach:\n${list}`,
      );
    },
  };
}
