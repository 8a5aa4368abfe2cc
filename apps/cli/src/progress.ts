import type { CliCommand } from './spec.js';

/** Quiet for the first 2 s (most commands are done by then), then a line every 5 s. */
const FIRST_MS = 2_000;
const EVERY_MS = 5_000;

/**
 * Prints `waiting for 127.0.0.1:8124 … 5 s` on stderr while a slow command runs, so a long wait is
 * never silence. A CLI-side timer: it costs nothing unless the command is slow. Returns the stop.
 */
export function startProgress(command: CliCommand, input: unknown, err: (line: string) => void): () => void {
  const started = performance.now();
  const what = describe(command, input);
  const tick = () => err(`waiting for ${what} … ${Math.round((performance.now() - started) / 1000)} s`);
  let interval: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    tick();
    interval = setInterval(tick, EVERY_MS);
    interval.unref();
  }, FIRST_MS);
  first.unref();
  return () => {
    clearTimeout(first);
    clearInterval(interval);
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
