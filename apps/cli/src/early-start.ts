import { type DaemonHandOver, type EarlyStart, handEarlyStart, startDaemonEarly } from '@argus/client/daemon-spawn';
import { chromeForDaemon, chromeForNextDaemon } from '@argus/daemon/early-launch';
import { daemonEntry } from '@argus/plugin/daemon-entry';
import verbs from './generated/verbs.json' with { type: 'json' };

/*
 * What the `argus` process does first, in its entry (boot.ts), before the CLI's own bundle loads: a
 * command that will need the daemon, with none running, starts it here, and launches the daemon's
 * Chromium first and hands it over (chromeForDaemon). The browser's start, the longest part of a cold
 * command, then begins 11-16 ms after the process's first user code instead of 28-35 ms, after the
 * CLI's bundle (2.6 MB, read, hashed, its code cache deserialised and its modules set up: CPU
 * profiles and a preload probe, issue 16), and before the daemon's Node has started. The CLI's
 * bundle takes both over (entry.ts); the connection adopts the daemon's start (takeEarlyStart), and a
 * command that turns out not to need it (a usage error) stops it again (abandonEarlyStart, in main).
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

/** What the entry started, for the CLI's bundle to take over (entry.ts). */
export interface EarlyHandOff {
  /** The workspace daemon, started with its browser. */
  daemon?: EarlyStart | undefined;
  /** `argus restart` with a daemon running: its successor's browser, launched while the old one stops (restart-browser.ts). */
  nextBrowser?: DaemonHandOver | undefined;
}

export function startEarly(argv: readonly string[]): EarlyHandOff {
  if (!wantsEarlyDaemon(argv)) return {};
  if (startDaemonEarly({ daemonEntry: daemonEntry(), handOver: () => chromeForDaemon() }))
    return { daemon: handEarlyStart() };
  return argv[0] === 'restart' ? { nextBrowser: chromeForNextDaemon() } : {};
}
