import { ArgusError } from '@argus/protocol/errors';
import { UsageError, findCommand, parseCommandArgs, takeGlobalFlags, withFollow } from './args.js';
import { compoundInput } from './compound.js';
import { commandHelp, generalHelp } from './help.js';
import { envelopeOutput, envelopeText } from './envelope.js';
import { startProgress } from './progress.js';

// tRPC's HTTP link checks `input instanceof FormData` on every call; in Node 20 the first touch of
// the FormData global loads undici (~11 ms, a sixth of the CLI's own start-up). This process never
// sends form data, so a local stand-in keeps the check and skips the load. Scripts are unaffected.
Object.defineProperty(globalThis, 'FormData', { value: class FormData {}, configurable: true, writable: true });

const out = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
const err = (text: string) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);

function suggest(word: string): string {
  return word ? ` Run \`argus help\` for the list of commands.` : '';
}

async function main(argv: string[]): Promise<number> {
  const { flags, rest } = takeGlobalFlags(argv);
  const [first] = rest;
  if (first === '--version' || first === '-V') {
    const { cliVersion } = await import('./version.js');
    out(`argus ${cliVersion()}`);
    return 0;
  }
  if (!first || first === 'help') {
    const target = rest[1] ? findCommand(rest.slice(1)) : undefined;
    out(target ? commandHelp(target.command) : generalHelp());
    return 0;
  }
  if (first === 'demo') {
    const { runDemo } = await import('./demo.js');
    await runDemo(out, err);
    return 0;
  }
  if (first === 'install-browser') {
    const { runInstallBrowser } = await import('./install-browser.js');
    return runInstallBrowser(out, err);
  }
  if (first === 'mcp') {
    // The MCP server (stdio) from @argus/plugin; it owns the process and exits when stdin closes.
    const { runMcpServer } = await import('@argus/plugin/server');
    return runMcpServer(flags.help ? ['--help', ...rest.slice(1)] : rest.slice(1));
  }
  const found = findCommand(rest);
  if (!found) throw new UsageError(`Unknown command "${first}".${suggest(first)}`);
  // `console --errors --follow` -> the `console --follow` stream
  const { command, args } = withFollow(found.command, rest.slice(found.used));
  if (flags.help) {
    out(commandHelp(command));
    return 0;
  }
  const input = (await compoundInput(command, args)) ?? parseCommandArgs(command, args);
  if (command.kind === 'subscription') {
    const { runFollow } = await import('./follow.js');
    return runFollow(command, input, { json: flags.json, out, err });
  }
  const { withDaemon, call, waitForDaemonExit, startingNotice } = await import('./connection.js');
  const progress = startProgress(command, input, err);
  const notice = startingNotice(command.name, err);
  const onStart = () => {
    progress.starting();
    notice();
  };
  const { value, connection } = await withDaemon((connection) => call(connection, command.name, command.kind, input), onStart).finally(() => progress.stop());
  // `argus stop` returns once the daemon has exited (its browser closed), not when it was asked to
  if (command.name === 'daemon.stop') await waitForDaemonExit(connection.state.pid, err);
  if (flags.json) out(JSON.stringify(flags.untrustedEnvelope ? envelopeOutput(command, value) : value, null, 2));
  else {
    const { render } = await import('./render.js');
    const text = render(command, value, input);
    out(flags.untrustedEnvelope ? envelopeText(command, value, text) : text);
  }
  // a chain that stopped at a failing step, or a batch with failures, is a failed command
  const outcome = value as { ok?: unknown; failed?: unknown } | null;
  return (command.name === 'batch.chain' && outcome?.ok === false) || (command.name === 'batch.run' && Number(outcome?.failed) > 0) ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      err(`usage error: ${error.message}`);
      process.exitCode = 2;
      return;
    }
    if (error instanceof ArgusError) {
      err(`error[${error.code}]: ${error.message}`);
      process.exitCode = error.code === 'invalid_input' ? 2 : 1;
      return;
    }
    err(`error[internal]: ${(error as Error)?.stack ?? String(error)}`);
    process.exitCode = 1;
  },
);
