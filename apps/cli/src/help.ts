import type { CliSpec } from '@argus/protocol';
import { type CliCommand, cliCommands } from './spec.js';
import { kebab, usageLine } from './args.js';

const BUILTINS: Array<[string, string]> = [
  ['demo', 'Open the bundled demo page, snapshot it, click a ref and print the result.'],
  ['install-browser', 'Find a Chrome/Chromium, or install one (apt as root, else Chrome for Testing).'],
  ['mcp', 'Run the MCP server on stdio (for agents).'],
  ['help [verb]', 'Show help for all commands or one verb.'],
];

/** The verbs a first-time user needs, in the order of a first session; `argus --help` leads with them. */
export const FIRST_VERBS = [
  'goto',
  'snapshot',
  'click',
  'fill',
  'select',
  'press',
  'type',
  'text',
  'wait',
  'screenshot',
  'tabs',
  'eval',
];

/** Help groups by manifest namespace: a command's family tells where it is listed. */
export const HELP_GROUPS: ReadonlyArray<{ title: string; namespaces: readonly string[] }> = [
  { title: 'Navigate and tabs', namespaces: ['page', 'tabs'] },
  { title: 'Act on the page', namespaces: ['input', 'files'] },
  { title: 'Read the page', namespaces: ['snapshot', 'read', 'inspect'] },
  { title: 'Capture and debug', namespaces: ['capture', 'visual', 'dom'] },
  { title: 'Browser state and emulation', namespaces: ['state', 'emulation'] },
  { title: 'Many commands at once', namespaces: ['batch'] },
  { title: 'Design canvas', namespaces: ['canvas'] },
  { title: 'Daemon, connection and access', namespaces: ['daemon', 'session', 'config', 'token', 'approvals', 'cdp'] },
];

const WIDTH = 100;

/** The first sentence of a summary, clipped so that a help line fits in WIDTH columns. */
function brief(summary: string, room: number): string {
  const sentence = /^(.*?[.!?])(\s|$)/.exec(summary)?.[1] ?? summary;
  return sentence.length <= room ? sentence : `${sentence.slice(0, room - 1).trimEnd()}…`;
}

type Verbed = CliCommand & { cli: CliSpec };

export function generalHelp(): string {
  const verbs = cliCommands().filter((command) => command.cli !== false) as Verbed[];
  const width =
    Math.max(...verbs.map((command) => command.cli.verb.length), ...BUILTINS.map(([verb]) => verb.length)) + 2;
  const line = (verb: string, summary: string) => `  ${verb.padEnd(width)}${brief(summary, WIDTH - width - 2)}`;
  const byVerb = new Map(verbs.map((command) => [command.cli.verb, command]));
  const lines = [
    'argus: a browser runtime for AI agents and the people who operate them.',
    '',
    'Usage: argus <verb> [args] [--json] [--help]',
    '',
    'Start here:',
  ];
  for (const verb of FIRST_VERBS) {
    const command = byVerb.get(verb);
    if (command) lines.push(line(verb, command.summary));
  }
  const first = new Set(FIRST_VERBS);
  for (const group of HELP_GROUPS) {
    const members = verbs.filter(
      (command) => group.namespaces.includes(command.name.split('.')[0] ?? '') && !first.has(command.cli.verb),
    );
    if (!members.length) continue;
    lines.push('', `${group.title}:`);
    for (const command of members.sort((a, b) => a.cli.verb.localeCompare(b.cli.verb)))
      lines.push(line(command.cli.verb, command.summary));
  }
  lines.push('', 'Set-up and agents:');
  for (const [verb, summary] of BUILTINS) lines.push(line(verb, summary));
  lines.push(
    '',
    'Global options:',
    '  --json                 print the output object as JSON (errors too, on stderr)',
    '  --untrusted-envelope   wrap page content in an untrusted-content boundary',
    '  --session NAME         run in a named session: own cookies, storage and tabs (env ARGUS_SESSION)',
    '  --lease ID             present a lease from `argus tab lease` (env ARGUS_LEASE)',
    "  --lease-wait 30s       wait this long for another client's tab lease (env ARGUS_LEASE_WAIT)",
    '  -h, --help             help (`argus <verb> --help` for one verb)',
    '  -V, --version          print the version',
    '',
    'Elements: a ref from the last snapshot (e12 or @e12), a CSS selector, or a locator:',
    '  role=button[name="Sign in"]   label=Email   text=Sign up   text="Sign up" (exact)',
    'Exit codes: 0 ok, 1 command error (error[code]: message), 2 usage error, 3 `status` with no daemon.',
  );
  return lines.join('\n');
}

/** `--name <type>` (or `<name>` for a positional), as the option column of per-verb help shows it. */
function flagLabel(command: Verbed, field: CliCommand['fields'][number], positional: ReadonlySet<string>): string {
  if (positional.has(field.name)) return `<${field.name}>`;
  const alias = Object.entries(command.cli.aliases ?? {}).find(([, long]) => long === field.name)?.[0];
  const value = field.type === 'boolean' ? '' : ` <${field.type === 'enum' ? field.values.join('|') : field.type}>`;
  const prefix = alias ? `${alias.length > 1 ? '--' : '-'}${alias}, ` : '';
  return `${prefix}--${kebab(field.name)}${value}`;
}

export function commandHelp(command: CliCommand): string {
  if (command.cli === false) return '';
  const verbed = command as Verbed;
  const lines = [`Usage: ${usageLine(command)}`, '', command.summary];
  if (command.cli.verbAliases?.length)
    lines.push('', `Also: ${command.cli.verbAliases.map((alias) => `argus ${alias}`).join(', ')}`);
  const fields = command.fields;
  if (fields.length) {
    lines.push('', 'Arguments and options:');
    const positional = new Set((command.cli.positionals ?? []).map((name) => name.replace(/\.\.\.$/, '')));
    const labels = fields.map((field) => flagLabel(verbed, field, positional));
    // one column wide enough for the longest label; a label longer than 32 gets its own line
    const column = Math.min(34, Math.max(...labels.map((label) => label.length)) + 2);
    fields.forEach((field, index) => {
      const label = labels[index] as string;
      // a switch defaults to off: saying so is noise; other defaults are worth knowing
      const showDefault =
        field.defaultValue !== undefined && field.defaultValue !== null && field.defaultValue !== false;
      const extra = [
        field.optional ? '' : 'required',
        showDefault ? `default ${JSON.stringify(field.defaultValue)}` : '',
      ]
        .filter(Boolean)
        .join(', ');
      const text = `${field.description}${extra ? ` (${extra})` : ''}`;
      if (label.length + 2 > column) lines.push(`  ${label}`, `  ${' '.repeat(column)}${text}`);
      else lines.push(`  ${label.padEnd(column)}${text}`);
    });
  }
  if (command.cli.examples?.length)
    lines.push('', 'Examples:', ...command.cli.examples.map((example) => `  ${example}`));
  return lines.join('\n');
}
