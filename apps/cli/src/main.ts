import { ArgusError } from '@argus/protocol/errors';
import { UsageError, findCommand, parseCommandArgs, takeGlobalFlags } from './args.js';
import { commandHelp, generalHelp } from './help.js';
import { envelopeOutput } from './envelope.js';

const out = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
const err = (text: string) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);

function suggest(word: string): string {
  return word ? ` Run \`argus help\` for the list of commands.` : '';
}

async function main(argv: string[]): Promise<number> {
  const { flags, rest } = takeGlobalFlags(argv);
  const [first] = rest;
  if (!first || first === 'help') {
    const target = rest[1] ? findCommand(rest.slice(1)) : undefined;
    out(target ? commandHelp(target.command) : generalHelp());
    return 0;
  }
  if (first === 'demo') {
    const { runDemo } = await import('./demo.js');
    await runDemo(out);
    return 0;
  }
  if (first === 'mcp') {
    // The MCP server (stdio) from @argus/plugin; it owns the process and exits when stdin closes.
    const { runMcpServer } = await import('@argus/plugin/server');
    return runMcpServer(flags.help ? ['--help', ...rest.slice(1)] : rest.slice(1));
  }
  const found = findCommand(rest);
  if (!found) throw new UsageError(`Unknown command "${first}".${suggest(first)}`);
  if (flags.help) {
    out(commandHelp(found.command));
    return 0;
  }
  const input = parseCommandArgs(found.command, rest.slice(found.used));
  const { withDaemon, call } = await import('./connection.js');
  const { value } = await withDaemon((connection) => call(connection, found.command.name, found.command.kind, input));
  const shown = flags.untrustedEnvelope ? envelopeOutput(found.command, value) : value;
  if (flags.json) out(JSON.stringify(shown, null, 2));
  else {
    const { render } = await import('./render.js');
    out(render(found.command, shown));
  }
  return 0;
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
