import { daemonEntry } from '@argus/plugin/daemon-entry';
import { startDaemonEarly } from '@argus/client/daemon-spawn';
import { chromeForDaemon, chromeForNextDaemon } from '@argus/daemon/early-launch';
import { holdNextBrowser } from './restart-browser.js';
import verbs from './generated/verbs.json' with { type: 'json' };

/*
 * The `argus` process's first module. A command that will need the daemon, with none running, starts
 * it here, before the rest of the CLI (argument parsing from the manifest's zod schemas: about three
 * quarters of the CLI's own start-up) loads, and launches the daemon's Chromium first and hands it
 * over (chromeForDaemon): the browser's start, the longest part of a cold command, then begins before
 * either process has loaded, instead of after the daemon's Node has started (issue 16). The connection adopts this start (takeEarlyStart); a command
 * that turns out not to need it (a usage error) stops it again (abandonEarlyStart, in main).
 */

/** Verbs that never start a daemon: the CLI's own (help, demo, install-browser, mcp) and the two that only report on one. */
const NO_DAEMON = new Set(['help', 'demo', 'install-browser', 'mcp', 'status', 'stop']);

/**
 * Flags that change how the daemon is started (`--profile`), or the environment it inherits: main
 * applies them before connecting, so with them the daemon starts there as before.
 */
const LATE_FLAGS = /^--(profile|session|lease|lease-wait|help)(=|$)|^-h$|^-V$|^--version$/;

/** Every verb and alias as typed, one or two words (generated from the manifest with the command table). */
const KNOWN_VERBS: ReadonlySet<string> = new Set(verbs);

export function wantsEarlyDaemon(argv: readonly string[]): boolean {
  // `argus --tab 2 reload` is `argus reload --tab 2`
  const words = argv[0] === '--tab' ? argv.slice(2) : argv;
  const [first, second] = words;
  if (!first || first.startsWith('-') || NO_DAEMON.has(first)) return false;
  // a group word alone (`argus config`), a typo or an unknown verb is a usage error: nothing to start for it
  if (!KNOWN_VERBS.has(first) && !KNOWN_VERBS.has(`${first} ${second ?? ''}`)) return false;
  return !argv.some((arg) => LATE_FLAGS.test(arg));
}

const argv = process.argv.slice(2);
const early = wantsEarlyDaemon(argv);
// with a daemon running, `argus restart` launches its successor's browser now, while it stops (restart-browser.ts)
if (
  early &&
  !startDaemonEarly({ daemonEntry: daemonEntry(), handOver: () => chromeForDaemon() }) &&
  argv[0] === 'restart'
)
  holdNextBrowser(chromeForNextDaemon());
void import('./main.js');
