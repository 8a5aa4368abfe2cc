import { type CliCommand, cliCommands } from './spec.js';
import { kebab, usageLine } from './args.js';

const BUILTINS: Array<[string, string]> = [
  ['demo', 'Open the bundled demo page, snapshot it, click a ref and print the result.'],
  ['install-browser', 'Find a Chrome/Chromium, or install one (apt as root, else Chrome for Testing).'],
  ['mcp', 'Run the MCP server on stdio (for agents).'],
  ['help [verb]', 'Show help for all commands or one verb.'],
];

export function generalHelp(): string {
  const lines = ['argus: a browser runtime for AI agents and the people who operate them.', '', 'Usage: argus <verb> [args] [--json] [--help]', '', 'Commands:'];
  const verbs = cliCommands().filter((command) => command.cli !== false) as Array<CliCommand & { cli: { verb: string } }>;
  const width = Math.max(...verbs.map((command) => command.cli.verb.length), ...BUILTINS.map(([verb]) => verb.length)) + 2;
  for (const command of [...verbs].sort((a, b) => a.cli.verb.localeCompare(b.cli.verb))) lines.push(`  ${command.cli.verb.padEnd(width)}${command.summary}`);
  for (const [verb, summary] of BUILTINS) lines.push(`  ${verb.padEnd(width)}${summary}`);
  lines.push(
    '',
    'Global options:',
    '  --json                 print the raw output object as JSON',
    '  --untrusted-envelope   wrap page content in an untrusted-content boundary',
    '  -h, --help             help',
    '  -V, --version          print the version',
    '',
    'Elements are addressed by ref from the last snapshot (e12, @e12) or by CSS selector.',
    'Exit codes: 0 ok, 1 command error (error[code]: message), 2 usage error.',
  );
  return lines.join('\n');
}

export function commandHelp(command: CliCommand): string {
  if (command.cli === false) return '';
  const lines = [`Usage: ${usageLine(command)}`, '', command.summary];
  const fields = command.fields;
  if (fields.length) {
    lines.push('', 'Arguments and options:');
    const positional = new Set((command.cli.positionals ?? []).map((name) => name.replace(/\.\.\.$/, '')));
    const aliases = Object.fromEntries(Object.entries(command.cli.aliases ?? {}).map(([short, long]) => [long, short]));
    for (const field of fields) {
      const flag = positional.has(field.name) ? `<${field.name}>` : `${aliases[field.name] ? `-${aliases[field.name]}, ` : ''}--${kebab(field.name)}${field.type === 'boolean' ? '' : ` <${field.type === 'enum' ? field.values.join('|') : field.type}>`}`;
      const extra = [field.optional ? '' : 'required', field.defaultValue !== undefined && field.defaultValue !== null ? `default ${JSON.stringify(field.defaultValue)}` : ''].filter(Boolean).join(', ');
      lines.push(`  ${flag.padEnd(34)}${field.description}${extra ? ` (${extra})` : ''}`);
    }
  }
  if (command.cli.examples?.length) lines.push('', 'Examples:', ...command.cli.examples.map((example) => `  ${example}`));
  return lines.join('\n');
}
