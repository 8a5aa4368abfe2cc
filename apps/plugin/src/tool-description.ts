import { type AnyCommand, listCommands } from '@argus/protocol';
import { withToolNames } from './errors.js';

const camel = (flag: string) => flag.replace(/-([a-z])/g, (_whole, letter: string) => letter.toUpperCase());

/** Every argument of any tool: a flag another tool takes is named as its argument (`snapshot --scope`). */
let toolArgs: Set<string> | undefined;
const argOfSomeTool = (name: string) =>
  (toolArgs ??= new Set(
    listCommands()
      .filter((command) => command.tool !== false)
      .flatMap((command) => Object.keys(command.input.shape)),
  )).has(name);

/** `--flag` or `--no-flag`, bare or in backticks (the backticks are part of the match). */
const FLAG = /`?--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)`?/g;

/**
 * A command's summary as its tool's description. Summaries are written for the CLI and the docs:
 * an agent reading "`--follow` streams new ones" or "(or wait with --lease-wait)" looks for an
 * argument the tool does not have. So a flag the tool takes becomes its argument (`--full` ->
 * `full`, `--no-restore-tabs` -> `restoreTabs: false`); one it does not is left out with the
 * parenthetical or the later sentence that says it (a CLI stream, a client option), or, in the
 * first sentence, named plainly. A flag of another tool is named plainly as its argument
 * (`snapshot --scope` -> `snapshot scope`). CLI commands become tool calls (`argus frame` ->
 * `argus_frame`), as in error messages.
 */
export function toolDescription(command: AnyCommand): string {
  const args = new Set(Object.keys(command.input.shape));
  const known = (flag: string): string | undefined => {
    if (args.has(camel(flag))) return `\`${camel(flag)}\``;
    const negated = /^no-(.+)$/.exec(flag)?.[1];
    return negated && args.has(camel(negated)) ? `\`${camel(negated)}: false\`` : undefined;
  };
  // a flag no tool takes (a CLI stream such as --follow, a client option such as --lease-wait)
  const unknown = (text: string) =>
    [...text.matchAll(FLAG)].some((match) => !known(match[1]!) && !argOfSomeTool(camel(match[1]!)));
  const sentences = command.summary.split(/(?<=\.)\s+(?=[A-Z`(])/);
  const kept = sentences
    .map((sentence, index) => {
      // a parenthetical that only a CLI user can act on goes (a flag no tool takes, an environment variable)
      const text = sentence.replace(/\s*\([^()]*\)/g, (part) =>
        unknown(part) || /\bARGUS_[A-Z_]+\b/.test(part) ? '' : part,
      );
      // what the CLI takes instead ("The CLI takes a verb and its arguments: …") is not the tool's
      if (index > 0 && text.startsWith('The CLI ')) return '';
      if (!unknown(text)) return text;
      if (index > 0) return '';
      return text.replace(FLAG, (_whole, flag: string) => known(flag) ?? camel(flag));
    })
    .filter(Boolean);
  // another tool's argument (`screenshot --full`) is named plainly: `full` would read as this tool's
  const described = kept.join(' ').replace(FLAG, (_whole, flag: string) => known(flag) ?? camel(flag));
  // `argus <verb>` as the tool call that does the same
  return withToolNames(described);
}
