import type { CliCommand } from './spec.js';

/** Input fields that say how to run a command, not what it does: left out of a replay line. */
const NOT_REPLAYED = new Set(['tab', 'diff', 'timeoutMs']);

/** One shell word: bare when it is plain, else single-quoted (`'` as `'\''`). */
export function shellWord(value: string): string {
  return /^[\w./:@,+=-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/**
 * The `argus` line that does the same action again, with the element named by its stable locator
 * instead of a ref (refs die with the page): `argus click 'role=button[name="Sign in"]'`. Undefined
 * when the result has no locator (a key press, an element only a ref can name).
 */
export function replayLine(
  command: CliCommand,
  output: Record<string, unknown>,
  input: Record<string, unknown>,
): string | undefined {
  if (command.cli === false || typeof output.locator !== 'string') return undefined;
  const words = ['argus', command.cli.verb];
  const positionals = (command.cli.positionals ?? []).map((name) => name.replace(/\.\.\.$/, ''));
  for (const name of positionals) {
    const value =
      name === 'target' || name === 'from'
        ? output.locator
        : name === 'to' && typeof output.toLocator === 'string'
          ? output.toLocator
          : input[name];
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) words.push(shellWord(String(item)));
  }
  for (const [name, value] of Object.entries(input)) {
    if (positionals.includes(name) || NOT_REPLAYED.has(name) || value === undefined || value === false) continue;
    words.push(value === true ? `--${kebab(name)}` : `--${kebab(name)} ${shellWord(String(value))}`);
  }
  return words.join(' ');
}

/** Lines every action result ends with: the replay line, then the snapshot diff when asked for. */
export function actionExtras(command: CliCommand, output: unknown, input: Record<string, unknown>): string[] {
  if (!output || typeof output !== 'object') return [];
  const o = output as Record<string, unknown>;
  // only action results (their effects): `dom.diff` has a `diff` of its own
  if (!('consoleErrors' in o)) return [];
  const lines: string[] = [];
  const replay = replayLine(command, o, input);
  if (replay) lines.push(`replay: ${replay}`);
  if (typeof o.diff === 'string') lines.push(`diff:\n${o.diff}`);
  return lines;
}
