import { renderCommand } from '@argus/protocol/render';
import { cliContext } from './render.js';
import type { CliCommand } from './spec.js';

/**
 * Runs a streaming command (`console --follow`, `network --follow`): prints one line per event
 * until Ctrl-C (or the stream ends, e.g. the tab closed), then unsubscribes, closes the socket and
 * exits 0.
 */
export async function runFollow(
  command: CliCommand,
  input: Record<string, unknown>,
  options: { json: boolean; out: (line: string) => void; err: (line: string) => void },
): Promise<number> {
  const { call, subscribe, withDaemon } = await import('./connection.js');
  const context = cliContext(input);
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await withDaemon(async (connection) => {
      // a cheap call first: starts the daemon if needed and detects a stale state file
      await call(connection, 'daemon.status', 'query', {});
      await subscribe(connection, command.name, input, {
        signal: controller.signal,
        onStarted: () =>
          options.err(
            `following ${command.cli === false ? command.name : `argus ${command.cli.verb}`} (Ctrl-C to stop)`,
          ),
        onData: (value) =>
          options.out(options.json ? JSON.stringify(value) : renderCommand(command.name, value, context)),
      });
    });
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  return 0;
}
