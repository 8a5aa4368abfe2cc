import type { CliSpec } from '@argus/protocol';
import { type CliCommand, cliCommands } from './spec.js';
import { GLOBAL_OPTIONS, kebab, usageLine } from './args.js';
import { HELP_WIDTH as WIDTH, brief } from './verb-groups.js';

/** The verbs the CLI handles itself, with their arguments and what they do. */
const BUILTINS: ReadonlyArray<readonly [verb: string, args: string, summary: string]> = [
  ['demo', '', 'Open the bundled demo page, snapshot it, click a ref and print the result.'],
  ['install-browser', '', 'Find a Chrome/Chromium, or install one (apt as root, else Chrome for Testing).'],
  ['mcp', '', 'Run the MCP server on stdio (for agents).'],
  ['help', ' [verb]', 'Show help for all commands, one verb or one group (`argus help config`).'],
];

/** `argus demo --help`: one of the CLI's own verbs (main hands `argus mcp --help` to the MCP server). */
export function builtinHelp(verb: string): string | undefined {
  const builtin = BUILTINS.find(([name]) => name === verb);
  return builtin && `Usage: argus ${builtin[0]}${builtin[1]}\n\n${builtin[2]}`;
}

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

/**
 * Help groups by manifest namespace: a command's family tells where it is listed. Every namespace
 * with a verb is in one group (test/help.test.ts fails on a verb in none).
 */
export const HELP_GROUPS: ReadonlyArray<{ title: string; namespaces: readonly string[] }> = [
  { title: 'Navigate and tabs', namespaces: ['page', 'tabs'] },
  { title: 'Act on the page', namespaces: ['input', 'files'] },
  { title: 'Read the page', namespaces: ['snapshot', 'read', 'inspect'] },
  { title: 'Capture and debug', namespaces: ['capture', 'visual', 'dom', 'screencast'] },
  { title: 'Browser state, emulation and network routes', namespaces: ['state', 'emulation', 'route'] },
  { title: 'Sessions and profiles', namespaces: ['sessions', 'profile'] },
  { title: 'The web: fetch, search, crawl, research', namespaces: ['web'] },
  { title: 'Many commands at once', namespaces: ['batch'] },
  { title: 'Skills and the journal', namespaces: ['skill', 'journal'] },
  { title: 'With a person: hand-off, live view, inbox', namespaces: ['handoff', 'watch', 'inbox'] },
  { title: 'Design canvas', namespaces: ['canvas'] },
  { title: 'Daemon, connection and access', namespaces: ['daemon', 'session', 'config', 'token', 'approvals', 'cdp'] },
];

type Verbed = CliCommand & { cli: CliSpec };

export function generalHelp(): string {
  const verbs = cliCommands().filter((command) => command.cli !== false) as Verbed[];
  const width =
    Math.max(
      ...verbs.map((command) => command.cli.verb.length),
      ...BUILTINS.map(([verb, args]) => `${verb}${args}`.length),
    ) + 2;
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
  for (const [verb, args, summary] of BUILTINS) lines.push(line(`${verb}${args}`, summary));
  const flagWidth = Math.max(...GLOBAL_OPTIONS.map(([flag]) => flag.length)) + 3;
  lines.push(
    '',
    'Global options:',
    ...GLOBAL_OPTIONS.map(([flag, description]) => `  ${flag.padEnd(flagWidth)}${description}`),
    '',
    'Elements: a ref from the last snapshot (e12 or @e12), a CSS selector, or a locator:',
    '  role=button[name="Sign in"]   label=Email   text=Sign up   text="Sign up" (exact)',
    'Exit codes: 0 ok, 1 command error (error[code]: message), 2 usage error, 3 `status` with no daemon,',
    '  141 the reader of the output went away (`argus html | head`), as for cat.',
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
