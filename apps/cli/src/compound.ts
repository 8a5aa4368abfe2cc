import { UsageError, findCommand, parseCommandArgs, withFollow } from './args.js';
import type { CliCommand } from './spec.js';
import { unknownCommand } from './suggest.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string, verb: string, shape: string): unknown {
  if (!text.trim())
    throw new UsageError(
      `\`argus ${verb}\` reads ${shape} as JSON on stdin, and stdin was empty. See \`argus ${verb} --help\`.`,
    );
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `\`argus ${verb}\` got invalid JSON on stdin (${(error as Error).message}). Expected ${shape}.`,
    );
  }
}

/** Maps one `[verb, ...args]` command line onto `{ command, input }`, as if it was typed after `argus`. */
export function commandLine(
  words: readonly unknown[],
  label: string,
): { command: string; input: Record<string, unknown> } {
  if (words.length === 0 || !words.every((word) => ['string', 'number', 'boolean'].includes(typeof word))) {
    throw new UsageError(`${label}: expected a non-empty array of strings like ["click", "e3"].`);
  }
  const argv = words.map(String);
  const found = findCommand(argv);
  // the same words as a command line typed alone: nearest verbs, word hints, a group's subcommands
  if (!found) throw new UsageError(`${label}: ${unknownCommand(argv)}`);
  const { command, args } = withFollow(found.command, argv.slice(found.used));
  if (command.kind === 'subscription' || command.name.startsWith('batch.')) {
    throw new UsageError(`${label}: \`${argv.join(' ')}\` cannot run inside chain, batch or tab-each.`);
  }
  try {
    return { command: command.name, input: parseCommandArgs(command, args) };
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`${label}: ${error.message}`);
    throw error;
  }
}

/**
 * Inputs the CLI builds itself instead of from flags: `chain` reads `[[verb, ...args], ...]` and
 * `batch` reads `[{command, input} | [verb, ...args], ...]` on stdin; `tab-each` takes a command line.
 * Returns undefined for every other command.
 */
export async function compoundInput(
  command: CliCommand,
  args: readonly string[],
  stdin: () => Promise<string> = readStdin,
): Promise<Record<string, unknown> | undefined> {
  if (command.name === 'batch.tabEach') {
    if (args.length === 0) throw new UsageError('Usage: argus tab-each <verb> [args], e.g. `argus tab-each url`.');
    return commandLine(args, 'tab-each');
  }
  if (command.name !== 'batch.chain' && command.name !== 'batch.run') return undefined;
  const verb = command.name === 'batch.chain' ? 'chain' : 'batch';
  if (args.length > 0)
    throw new UsageError(
      `\`argus ${verb}\` takes no arguments: it reads its commands as JSON on stdin. See \`argus ${verb} --help\`.`,
    );
  if (process.stdin.isTTY && stdin === readStdin)
    throw new UsageError(
      `\`argus ${verb}\` reads JSON on stdin, e.g. echo '[["goto","example.com"],["title"]]' | argus ${verb}`,
    );
  const shape =
    verb === 'chain'
      ? 'an array of [verb, ...args] arrays'
      : 'an array of {"command": "page.url", "input": {}} objects or [verb, ...args] arrays';
  const parsed = parseJson(await stdin(), verb, shape);
  if (!Array.isArray(parsed) || parsed.length === 0)
    throw new UsageError(`\`argus ${verb}\` expected ${shape} on stdin.`);
  const steps = parsed.map((item: unknown, index) => {
    const label = `${verb} step ${index}`;
    if (Array.isArray(item)) return commandLine(item, label);
    if (
      verb === 'batch' &&
      item &&
      typeof item === 'object' &&
      typeof (item as { command?: unknown }).command === 'string'
    ) {
      const { command: path, input } = item as { command: string; input?: unknown };
      return { command: path, input: input ?? {} };
    }
    throw new UsageError(
      `${label}: expected ${verb === 'chain' ? '[verb, ...args]' : '{command, input} or [verb, ...args]'}.`,
    );
  });
  return verb === 'chain' ? { steps } : { commands: steps };
}

/**
 * A command whose manifest names a `stdinJson` field (`canvas patch`'s ops) reads that field as
 * JSON on stdin when its flag is left out or given as `-`.
 */
export async function fillFromStdin(
  command: CliCommand,
  input: Record<string, unknown>,
  stdin: () => Promise<string> = readStdin,
): Promise<Record<string, unknown>> {
  const field = command.cli === false ? undefined : command.cli.stdinJson;
  if (field === undefined) return input;
  const given = input[field];
  const dash = given === '-' || (Array.isArray(given) && given.length === 1 && given[0] === '-');
  if (given !== undefined && !dash) return input;
  const verb = command.cli === false ? command.name : command.cli.verb;
  const flag = `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  if (process.stdin.isTTY && stdin === readStdin)
    throw new UsageError(
      `\`argus ${verb}\` reads ${flag} as JSON on stdin (or give ${flag} '<json>'). See \`argus ${verb} --help\`.`,
    );
  return { ...input, [field]: parseJson(await stdin(), verb, `${flag} (a JSON value)`) };
}
