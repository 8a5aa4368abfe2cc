import type { CliCommand } from './spec.js';

/** Quiet for the first 2 s (most commands are done by then), then a line every 5 s. */
const FIRST_MS = 2_000;
const EVERY_MS = 5_000;
/**
 * When the command had to start the daemon and Chromium, the starting notice already explains the
 * first seconds (a cold Chromium on a loaded machine takes several): the first line waits longer.
 */
const FIRST_AFTER_START_MS = 15_000;

/**
 * Prints `waiting for 127.0.0.1:8124 … 5 s` on stderr while a slow command runs, so a long wait is
 * never silence. A CLI-side timer: it costs nothing unless the command is slow. Returns the stop.
 */
export interface Progress {
  /** The daemon (and so Chromium) is being started: push the first line back. */
  starting(): void;
  stop(): void;
}

export function startProgress(command: CliCommand, input: unknown, err: (line: string) => void): Progress {
  const started = performance.now();
  const what = describe(command, input);
  const tick = () => err(`waiting for ${what} … ${Math.round((performance.now() - started) / 1000)} s`);
  let interval: NodeJS.Timeout | undefined;
  const begin = () => {
    tick();
    interval = setInterval(tick, EVERY_MS);
    interval.unref();
  };
  let first = setTimeout(begin, FIRST_MS);
  first.unref();
  return {
    starting() {
      if (interval) return;
      clearTimeout(first);
      first = setTimeout(begin, Math.max(0, FIRST_AFTER_START_MS - (performance.now() - started)));
      first.unref();
    },
    stop() {
      clearTimeout(first);
      clearInterval(interval);
    },
  };
}

function describe(command: CliCommand, input: unknown): string {
  const url = (input as { url?: unknown } | null)?.url;
  if (typeof url === 'string') {
    try {
      const parsed = new URL(/^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `http://${url}`);
      if (parsed.host) return parsed.host;
    } catch {
      // not a URL: fall back to the verb
    }
  }
  return command.cli === false ? command.name : `\`argus ${command.cli.verb}\``;
}
