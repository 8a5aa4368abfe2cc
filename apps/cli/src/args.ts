import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { FieldInfo } from '@argus/protocol';
import { type CliCommand, cliCommands } from './spec.js';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface GlobalFlags {
  json: boolean;
  help: boolean;
  untrustedEnvelope: boolean;
  /** `--session NAME`: the named session (browser context) the command runs in. */
  session?: string;
  /** `--profile NAME`: the persistent browser profile (sets ARGUS_PROFILE for a daemon this CLI starts). */
  profile?: string;
  /** `--lease ID`: the tab lease(s) this command presents (ARGUS_LEASE). */
  lease?: string;
  /** `--lease-wait 30s`: how long a write waits for another client's tab lease (ARGUS_LEASE_WAIT). */
  leaseWait?: string;
  /** `--tab 2`: the tab the command acts on, before the verb as after it (withTab). */
  tab?: string;
}

/**
 * Every option takeGlobalFlags (and main, for -V) accepts, as `argus --help` lists it: the flag as
 * typed, and what it does. A test checks that each one is taken off the command line.
 */
export const GLOBAL_OPTIONS: ReadonlyArray<readonly [flag: string, description: string]> = [
  ['--json', 'print the output object as JSON (errors too, on stderr)'],
  ['--untrusted-envelope', 'wrap page content in an untrusted-content boundary'],
  ['--session NAME', 'run in a named session: own cookies, storage and tabs (env ARGUS_SESSION)'],
  ['--profile NAME', 'start the browser with a persistent profile (env ARGUS_PROFILE)'],
  ['--lease ID', 'present a lease from `argus tab lease` (env ARGUS_LEASE)'],
  ['--lease-wait 30s', "wait this long for another client's tab lease (env ARGUS_LEASE_WAIT)"],
  ['--tab TAB', 'the tab to act on: its index or short id from `argus tabs`'],
  ['-h, --help', 'help (`argus <verb> --help` for one verb)'],
  ['-V, --version', 'print the version'],
];

/** Global flags that take a value, with what to say when it is missing. */
const VALUE_FLAGS = {
  '--lease': ['lease', '--lease takes a lease id from `argus tab lease`: `argus --lease lease_… click e3`.'],
  '--lease-wait': ['leaseWait', '--lease-wait takes a duration: `argus --lease-wait 30s click e3`.'],
  '--tab': ['tab', '--tab takes a tab index or short id from `argus tabs`: `argus --tab 2 reload`.'],
} as const;

export interface ParsedCommand {
  command: CliCommand;
  input: Record<string, unknown>;
}

const camel = (flag: string) => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
export const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** A negative number (`-5`, `-0.5`) is an argument, never a short option. */
const NUMBER_LIKE = /^-\d/;

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

/**
 * Tokens of `node:util` parseArgs (strict off: unknown options come back as tokens for our own
 * messages). Arguments that look like negative numbers are lexed as plain words, so a group such
 * as `-5d` never reads as options; callers read every value back from `args` by token index.
 */
function lex(args: readonly string[], options: ParseArgsOptionsConfig = {}) {
  const lexed = args.map((arg) => (NUMBER_LIKE.test(arg) ? '0' : arg));
  return parseArgs({ args: lexed, options, strict: false, allowPositionals: true, tokens: true }).tokens;
}

/** Verbs whose own `--profile` option means something else than the global Argus profile. */
const OWN_PROFILE_FLAG = new Set(['mcp', 'cookie-import-browser']);

/**
 * Verbs whose own `--session` option (after the verb) is a filter, not the session to run in:
 * `argus journal --session shop` lists the commands of that session (`journal export` too).
 */
const OWN_SESSION_FLAG = new Set(['journal']);

/**
 * What a profile name may be (the manifest's ProfileName and the config's chrome.profile; a test
 * checks they agree): checked here so a bad `--profile` is a usage error before any daemon starts.
 */
const PROFILE_NAME = /^[A-Za-z0-9][\w.-]{0,63}$/;

/** Splits global flags (anywhere on the line before `--`, even where a value could go) from the rest. */
export function takeGlobalFlags(argv: readonly string[]): { flags: GlobalFlags; rest: string[] } {
  const flags: GlobalFlags = { json: false, help: false, untrustedEnvelope: false };
  const rest: string[] = [];
  let seen = -1;
  // no options declared: nothing takes a value, so every word keeps its own token
  for (const token of lex(argv)) {
    if (token.index === seen) continue; // a short group (`-ab`) is one argument
    seen = token.index;
    const arg = argv[token.index] as string;
    if (token.kind === 'option' && token.rawName === '--session' && !OWN_SESSION_FLAG.has(rest[0] ?? '')) {
      // `--session NAME` or `--session=NAME`; the name is the next word, never a flag
      const value = arg === '--session' ? argv[token.index + 1] : arg.slice('--session='.length);
      if (value === undefined || value === '' || value.startsWith('-'))
        throw new UsageError('--session needs a name: `argus --session shop goto https://example.com`.');
      flags.session = value;
      if (arg === '--session') seen = token.index + 1;
      // `argus mcp --profile full` is the MCP server's tool profile and `argus cookie-import-browser
      // --profile "Profile 1"` the user's own browser profile, not an Argus profile
    } else if (token.kind === 'option' && token.rawName === '--profile' && !OWN_PROFILE_FLAG.has(rest[0] ?? '')) {
      // `--profile NAME` or `--profile=NAME`; the name is the next word, never a flag
      const value = arg === '--profile' ? argv[token.index + 1] : arg.slice('--profile='.length);
      if (value === undefined || value === '' || value.startsWith('-'))
        throw new UsageError('--profile takes a profile name, e.g. `argus --profile work goto https://example.com`.');
      if (!PROFILE_NAME.test(value))
        throw new UsageError(
          `--profile "${value}" is not a profile name: letters, digits, \`.\`, \`_\` and \`-\`, starting with a letter or digit (at most 64). \`argus profiles\` lists the ones there are.`,
        );
      flags.profile = value;
      if (arg === '--profile') seen = token.index + 1;
    } else if (token.kind === 'option' && Object.hasOwn(VALUE_FLAGS, token.rawName)) {
      const [key, usage] = VALUE_FLAGS[token.rawName as keyof typeof VALUE_FLAGS];
      const value = arg === token.rawName ? argv[token.index + 1] : arg.slice(token.rawName.length + 1);
      if (value === undefined || value === '' || value.startsWith('-')) throw new UsageError(usage);
      if (flags[key] !== undefined && flags[key] !== value)
        throw new UsageError(`${token.rawName} was given twice (${flags[key]} and ${value}): give it once.`);
      flags[key] = value;
      if (arg === token.rawName) seen = token.index + 1;
    } else if (token.kind === 'option' && arg === token.rawName) {
      if (arg === '--json') flags.json = true;
      else if (arg === '--help' || arg === '-h') flags.help = true;
      else if (arg === '--untrusted-envelope') flags.untrustedEnvelope = true;
      else rest.push(arg);
    } else if (token.kind === 'option-terminator') {
      rest.push(...argv.slice(token.index));
      break;
    } else rest.push(arg);
  }
  return { flags, rest };
}

/** The command whose verb (one or two words) starts the argument list. */
export function findCommand(words: readonly string[]): { command: CliCommand; used: number } | undefined {
  const commands = cliCommands();
  for (const used of [2, 1]) {
    if (words.length < used) continue;
    const verb = words.slice(0, used).join(' ');
    const command = commands.find(
      (candidate) =>
        candidate.cli !== false && (candidate.cli.verb === verb || candidate.cli.verbAliases?.includes(verb)),
    );
    if (command) return { command, used };
  }
  return undefined;
}

/** Edit distance (insert, delete, substitute, swap two neighbours), for "did you mean". */
function distance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i] as number[];
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((rows[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/** The words nearest to a mistyped one (at most 3, within a third of its length, or that it starts), nearest first. */
export function nearestWords(word: string, candidates: Iterable<string>): string[] {
  const limit = Math.max(1, Math.floor(word.length / 3));
  const typed = word.toLowerCase();
  return [...new Set(candidates)]
    .map((candidate) => ({ candidate, cost: distance(typed, candidate) }))
    .filter(({ candidate, cost }) => cost <= limit || (word.length >= 3 && candidate.startsWith(typed)))
    .sort((a, b) => a.cost - b.cost || a.candidate.localeCompare(b.candidate))
    .slice(0, 3)
    .map(({ candidate }) => candidate);
}

/** The verbs (first words) nearest to a mistyped one. */
export function nearestVerbs(word: string, extra: readonly string[] = []): string[] {
  const verbs = new Set<string>(extra);
  for (const command of cliCommands()) {
    if (command.cli === false) continue;
    verbs.add(command.cli.verb.split(' ')[0] as string);
    for (const alias of command.cli.verbAliases ?? []) verbs.add(alias);
  }
  return nearestWords(word, verbs);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function coerce(field: FieldInfo, raw: string, verb: string): unknown {
  const flag = `--${kebab(field.name)}`;
  switch (field.type) {
    case 'number': {
      const value = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(value))
        throw new UsageError(`${flag} takes a number, got "${raw}". See \`argus ${verb} --help\`.`);
      return value;
    }
    case 'boolean':
      if (/^(true|1|yes|on)$/i.test(raw)) return true;
      if (/^(false|0|no|off)$/i.test(raw)) return false;
      throw new UsageError(`${flag} is a switch (true/false), got "${raw}".`);
    case 'enum':
      if (!field.values.includes(raw))
        throw new UsageError(`${flag} must be one of ${field.values.join(', ')}; got "${raw}".`);
      return raw;
    case 'array': {
      // a list of objects (`--ops`) is JSON only: split on commas, an object would become strings
      const structured = field.itemType === 'object' || field.itemType === 'array';
      // a JSON array as typed (`--ops '[{"op":...}]'`); else the comma list (`--files a.png,b.png`)
      if (raw.trimStart().startsWith('[') || (structured && raw !== '-')) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(raw) as unknown;
        } catch (error) {
          throw new UsageError(`${flag} got invalid JSON (${(error as Error).message}).`);
        }
        if (structured && !Array.isArray(parsed))
          throw new UsageError(
            `${flag} takes a JSON array${flag === '--ops' ? ' of operations' : ''}: \`${flag} '[{...}, {...}]'\` (one item is an array of one). See \`argus ${verb} --help\`.`,
          );
        return parsed;
      }
      return raw.split(',').map((item) => (field.itemType === 'number' ? Number(item) : item));
    }
    case 'object':
      // `--param key=value`: one entry of a name -> text map (repeated flags add entries)
      if (/^[\w.-]+=/.test(raw) && !raw.trimStart().startsWith('{')) {
        const at = raw.indexOf('=');
        return { [raw.slice(0, at)]: raw.slice(at + 1) };
      }
      try {
        return JSON.parse(raw);
      } catch {
        return raw;
      }
    case 'unknown':
      try {
        return JSON.parse(raw);
      } catch {
        return raw;
      }
    default:
      return raw;
  }
}

/**
 * The option table parseArgs needs to know which flags take a value: every field under its kebab
 * and camel spelling, its `--no-` form, and the command's one-letter aliases.
 */
function optionTable(command: CliCommand): ParseArgsOptionsConfig {
  const table: ParseArgsOptionsConfig = {};
  const aliases = command.cli === false ? {} : (command.cli.aliases ?? {});
  for (const field of command.fields) {
    const type = field.type === 'boolean' ? 'boolean' : 'string';
    const capital = field.name[0]?.toUpperCase() + field.name.slice(1);
    for (const name of new Set([kebab(field.name), field.name, `no-${kebab(field.name)}`, `no${capital}`]))
      table[name] = { type };
  }
  for (const [alias, name] of Object.entries(aliases)) {
    const field = command.fields.find((candidate) => candidate.name === name);
    if (!field) continue;
    const type = field.type === 'boolean' ? 'boolean' : 'string';
    // a longer alias is a second long flag (`--param` for `--params`)
    if (alias.length > 1) table[alias] = { type };
    else table[kebab(name)] = { type, short: alias };
  }
  return table;
}

/** Maps `argus <verb> <positionals> --flags` onto the command's input object. */
export function parseCommandArgs(command: CliCommand, args: readonly string[]): Record<string, unknown> {
  if (command.cli === false) throw new UsageError(`${command.name} has no CLI verb.`);
  const verb = command.cli.verb;
  const fields = new Map(command.fields.map((field) => [field.name, field]));
  const positionalSpec = (command.cli.positionals ?? []).map((name) => ({
    name: name.replace(/\.\.\.$/, ''),
    rest: name.endsWith('...'),
  }));
  const input: Record<string, unknown> = {};
  const positionals: string[] = [];
  let seen = -1;
  for (const token of lex(args, optionTable(command))) {
    if (token.kind === 'option-terminator') continue;
    const arg = args[token.index] as string;
    if (token.kind === 'positional') {
      positionals.push(arg);
      continue;
    }
    if (token.index === seen) continue; // the rest of a short group already refused below
    seen = token.index;
    let name: string;
    if (token.rawName.startsWith('--')) {
      name = camel(token.rawName.slice(2));
      const long = command.cli.aliases?.[token.rawName.slice(2)];
      if (long !== undefined && !fields.has(name)) name = long;
    } else {
      // one letter, alone: `-i`; a group (`-id`) or an attached value (`-d3`) is not an option here
      const alias = command.cli.aliases?.[token.rawName.slice(1)];
      if (!alias || arg !== token.rawName)
        throw new UsageError(`Unknown option ${arg} for \`argus ${verb}\`. See \`argus ${verb} --help\`.`);
      name = alias;
    }
    let negated = false;
    if (!fields.has(name) && name.startsWith('no') && fields.has(name[2]?.toLowerCase() + name.slice(3))) {
      name = name[2]?.toLowerCase() + name.slice(3);
      negated = true;
    }
    const field = fields.get(name);
    if (!field)
      throw new UsageError(`Unknown option --${kebab(name)} for \`argus ${verb}\`. See \`argus ${verb} --help\`.`);
    if (field.type === 'boolean' && !token.inlineValue) {
      input[name] = !negated;
      continue;
    }
    // the value as typed: inline after `=`, else the next argument (which may start with a dash)
    const raw = token.inlineValue ? token.value : token.value === undefined ? undefined : args[token.index + 1];
    if (raw === undefined) throw new UsageError(`--${kebab(name)} needs a value. See \`argus ${verb} --help\`.`);
    const value = coerce(field, raw, verb);
    // a repeated list flag adds to the list (`--header "A: 1" --header "B: 2"`)
    const earlier = input[name];
    input[name] =
      field.type === 'array' && Array.isArray(earlier) && Array.isArray(value)
        ? [...earlier, ...value]
        : field.type === 'object' && isPlainObject(earlier) && isPlainObject(value)
          ? { ...earlier, ...value }
          : value;
  }
  for (const spec of positionalSpec) {
    if (positionals.length === 0) break;
    const field = fields.get(spec.name);
    if (!field) continue;
    if (input[spec.name] !== undefined)
      throw new UsageError(`${spec.name} was given twice (as an argument and as --${kebab(spec.name)}).`);
    if (spec.rest && field.type === 'array') {
      // `argus upload e5 a.png b.png`: each remaining argument is one item (a path may hold spaces or commas)
      input[spec.name] = positionals.splice(0).map((item) => (field.itemType === 'number' ? Number(item) : item));
      continue;
    }
    const raw = spec.rest ? positionals.splice(0).join(' ') : (positionals.shift() as string);
    input[spec.name] = coerce(field, raw, verb);
  }
  if (positionals.length > 0)
    throw new UsageError(
      `Unexpected argument "${positionals[0]}" for \`argus ${verb}\`. See \`argus ${verb} --help\`.`,
    );
  for (const field of fields.values()) {
    // the stdin field is filled after parsing (`fillFromStdin`), from stdin when left out or `-`
    if (field.name === command.cli.stdinJson) continue;
    if (!field.optional && input[field.name] === undefined) {
      const isPositional = positionalSpec.some((spec) => spec.name === field.name);
      throw new UsageError(
        `Missing ${isPositional ? `<${field.name}>` : `--${kebab(field.name)}`} for \`argus ${verb}\`. Usage: ${usageLine(command)}`,
      );
    }
  }
  return input;
}

export function usageLine(command: CliCommand): string {
  if (command.cli === false) return '';
  const fields = command.fields;
  const positionals = (command.cli.positionals ?? []).map((name) => {
    const bare = name.replace(/\.\.\.$/, '');
    const field = fields.find((candidate) => candidate.name === bare);
    const label = name.endsWith('...') ? `${bare}...` : bare;
    return field?.optional ? `[${label}]` : `<${label}>`;
  });
  const hasFlags = fields.some(
    (field) =>
      !(
        command.cli !== false &&
        (command.cli.positionals ?? []).some((name) => name.replace(/\.\.\.$/, '') === field.name)
      ),
  );
  return ['argus', command.cli.verb, ...positionals, ...(hasFlags ? ['[options]'] : [])].join(' ');
}

/**
 * `argus --tab 2 reload` and `argus reload --tab 2` are one command line: the global `--tab` (taken
 * off wherever it stands) becomes the command's `tab` field, or the `id` of `tab` and `closetab`. A
 * verb that does not act on one tab refuses it rather than ignoring it.
 */
export function withTab(command: CliCommand, args: readonly string[], tab: string | undefined): string[] {
  if (tab === undefined || command.cli === false) return [...args];
  const field = command.fields.some((candidate) => candidate.name === 'tab')
    ? 'tab'
    : command.name === 'tabs.close' || command.name === 'tabs.select'
      ? 'id'
      : undefined;
  const verb = command.cli.verb;
  if (field === undefined)
    throw new UsageError(
      `\`argus ${verb}\` does not act on one tab: --tab does not apply to it. See \`argus ${verb} --help\`.`,
    );
  return [`--${field}`, tab, ...args];
}

/**
 * `--follow` anywhere after a verb (before `--`) picks the verb's streaming twin, the command whose
 * verb is `<verb> --follow`: `argus console --errors --follow` runs `console --follow --errors`.
 */
export function withFollow(command: CliCommand, args: readonly string[]): { command: CliCommand; args: string[] } {
  const end = args.indexOf('--');
  const at = args.indexOf('--follow');
  if (command.cli === false || at === -1 || (end !== -1 && at > end)) return { command, args: [...args] };
  const verb = `${command.cli.verb} --follow`;
  const twin = cliCommands().find((candidate) => candidate.cli !== false && candidate.cli.verb === verb);
  if (!twin) return { command, args: [...args] };
  return { command: twin, args: args.filter((_, index) => index !== at) };
}
