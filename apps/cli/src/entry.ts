import { adoptEarlyStart } from '@argus/client/daemon-spawn';
import type { EarlyHandOff } from './early-start.js';
import { holdNextBrowser } from './restart-browser.js';

/**
 * The CLI's bundle (`argus.cjs`), run by the process's entry (boot.ts) once that has started what the
 * command needs early (early-start.ts): takes those over, then runs the command.
 */
export function run(early: EarlyHandOff): void {
  adoptEarlyStart(early.daemon);
  if (early.nextBrowser) holdNextBrowser(early.nextBrowser);
  void import('./main.js');
}
