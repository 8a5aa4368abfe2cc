import { nearestWords, usageLine } from './args.js';
import { type CliCommand, cliCommands } from './spec.js';

/** Help lines are kept within this many columns. */
export const HELP_WIDTH = 100;

/** The first sentence of a summary, clipped to `room` columns. */
export function brief(summary: string, room: number): string {
  const sentence = /^(.*?[.!?])(\s|$)/.exec(summary)?.[1] ?? summary;
  return sentence.length <= room ? sentence : `${sentence.slice(0, room - 1).trimEnd()}…`;
}

/**
 * A word that only starts two-word verbs (`config` of `config get|list|set`), with those commands:
 * typed alone it needs a subcommand. Undefined for a word that is a verb itself (`tab`, `journal`).
 */
export interface VerbGroup {
  word: string;
  /** The commands `argus <word> <sub>`, by subcommand. */
  members: ReadonlyArray<{ sub: string; command: CliCommand }>;
}

function verbOf(command: CliCommand): string | undefined {
  return command.cli === false ? undefined : command.cli.verb;
}

export function verbGroup(word: string | undefined): VerbGroup | undefined {
  if (!word || word.startsWith('-')) return undefined;
  const verbs = cliCommands().filter((command) => verbOf(command) !== undefined);
  if (verbs.some((command) => verbOf(command) === word)) return undefined;
  const members = verbs
    .filter((command) => verbOf(command)?.startsWith(`${word} `))
    .map((command) => ({ sub: (verbOf(command) as string).slice(word.length + 1), command }))
    .sort((a, b) => a.sub.localeCompare(b.sub));
  return members.length ? { word, members } : undefined;
}

/** One line a subcommand: its usage, then its summary's first sentence. */
function memberLines(group: VerbGroup): string[] {
  const usages = group.members.map(({ command }) => usageLine(command));
  const width = Math.max(...usages.map((usage) => usage.length)) + 2;
  const lines = group.members.map(({ command }, index) => {
    const usage = (usages[index] as string).padEnd(width);
    return `  ${usage}${brief(command.summary, Math.max(20, HELP_WIDTH - width - 2))}`;
  });
  // `argus profile` has `argus profiles` beside it (and `session` has `sessions`): worth a pointer
  const plural = cliCommands().find((command) => verbOf(command) === `${group.word}s`);
  if (plural) {
    const also = `See also \`argus ${group.word}s\`: `;
    lines.push(`${also}${brief(plural.summary, HELP_WIDTH - also.length)}`);
  }
  return lines;
}

/** `get | list | set`, or nothing when the list would not fit on the line (the lines below show them). */
function subList(group: VerbGroup): string {
  const list = group.members.map(({ sub }) => sub).join(' | ');
  return list.length <= 60 ? list : '';
}
const footer = (group: VerbGroup) => `Run \`argus ${group.word} <subcommand> --help\` for its options.`;

/** `argus <group> --help` (exit 0). */
export function groupHelp(group: VerbGroup): string {
  return [
    `Usage: argus ${group.word} <subcommand> [args]`,
    '',
    'Subcommands:',
    ...memberLines(group),
    '',
    footer(group),
  ].join('\n');
}

/** The usage error for `argus <group>` alone, or with a word that is none of its subcommands. */
export function groupUsage(group: VerbGroup, typed?: string): string {
  const list = subList(group);
  let head = `\`argus ${group.word}\` needs a subcommand${list ? `: ${list}` : ', one of:'}`;
  if (typed !== undefined) {
    const near = nearestWords(
      typed,
      group.members.map(({ sub }) => sub),
    );
    const mean = near.length
      ? ` Did you mean ${near.map((sub) => `\`argus ${group.word} ${sub}\``).join(' or ')}?`
      : '';
    head = `"${typed}" is not a subcommand of \`argus ${group.word}\`${list ? ` (${list})` : ''}.${mean}`;
  }
  return [head, ...memberLines(group), footer(group)].join('\n');
}
