import { GLOBAL_OPTIONS, findCommand, nearestVerbs, usageLine } from './args.js';
import { groupUsage, verbGroup } from './verb-groups.js';

/** Verbs the CLI handles itself, outside the manifest. */
export const BUILTIN_VERBS = ['demo', 'install-browser', 'mcp', 'help'] as const;

/**
 * Words people type for something Argus does under another verb: each maps to the verb to suggest
 * (shown with its usage line) and why. Suggestions only: an alias that runs a command belongs in the
 * manifest's `cli.verbAliases`. A test checks each verb exists and that no word here is a verb itself.
 */
export const WORD_HINTS: Readonly<Record<string, readonly [verb: string, why: string]>> = {
  markdown: ['fetch', 'Markdown is its default output'],
  md: ['fetch', 'Markdown is its default output'],
  readability: ['fetch', 'the main content of a page, as Markdown'],
  scrape: ['fetch', 'or `argus crawl <urls...>` for a whole site'],
  source: ['html', 'the outer HTML of the page'],
  evaluate: ['eval', 'run JavaScript in the page'],
  js: ['eval', 'run JavaScript in the page'],
  localstorage: ['storage', 'localStorage and sessionStorage of the tab'],
  quit: ['stop', 'stops the daemon and its browser'],
  exit: ['stop', 'stops the daemon and its browser'],
  login: ['handoff', 'a person logs in in the tab; or `argus cookie-import-browser`'],
  record: ['skill record', 'or `argus screencast start` for a video'],
};

/** `argus fetch <url>`: a hinted verb with its arguments, without `[options]`. */
function hintLine(verb: string): string {
  const found = findCommand(verb.split(' '));
  return found ? usageLine(found.command).replace(/ \[options\]$/, '') : `argus ${verb}`;
}

const globalFlagList = GLOBAL_OPTIONS.map(([flag]) => flag.replace(', ', '/')).join(', ');

/** The usage error for a command line whose first word(s) name no command. */
export function unknownCommand(words: readonly string[]): string {
  const [first = '', second] = words;
  if (first.startsWith('-')) {
    const flag = first.split('=')[0];
    return (
      `Unknown global option "${flag}". Global options: ${globalFlagList}. ` +
      `A verb's own options go after the verb: \`argus <verb> --help\` lists them.`
    );
  }
  const group = verbGroup(first);
  if (group) return groupUsage(group, second);
  const hint = WORD_HINTS[first.toLowerCase()];
  const near = nearestVerbs(first, BUILTIN_VERBS);
  const guesses = [
    ...(hint ? [`\`${hintLine(hint[0])}\` (${hint[1]})`] : []),
    ...near.filter((verb) => verb !== hint?.[0]).map((verb) => `\`argus ${verb}\``),
  ];
  const mean = guesses.length ? ` Did you mean ${guesses.join(' or ')}?` : '';
  return `Unknown command "${first}".${mean} Run \`argus help\` for the list of commands.`;
}
