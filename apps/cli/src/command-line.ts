import { fillIsPlain } from '@argus/security';
import type { CliCommand } from './spec.js';

/** Input fields that say how to run a command, not what it does: left out of a replay line. */
const NOT_REPLAYED = new Set(['tab', 'diff', 'timeoutMs']);

/** One shell word: bare when it is plain, else single-quoted (`'` as `'\''`). */
export function shellWord(value: string): string {
  return /^[\w./:@,+=-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/**
 * The `argus` line that runs a command with this input: positionals in order, then flags (false
 * and undefined left out). `skip` drops fields that only say how to run it (for replay lines).
 */
export function commandLine(
  command: CliCommand,
  input: Readonly<Record<string, unknown>>,
  skip: ReadonlySet<string> = new Set(),
): string {
  if (command.cli === false) return command.name;
  const words = ['argus', command.cli.verb];
  const positionals = (command.cli.positionals ?? []).map((name) => name.replace(/\.\.\.$/, ''));
  for (const name of positionals) {
    const value = input[name];
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) words.push(shellWord(String(item)));
  }
  for (const [name, value] of Object.entries(input)) {
    if (positionals.includes(name) || skip.has(name) || value === undefined || value === false) continue;
    words.push(value === true ? `--${kebab(name)}` : `--${kebab(name)} ${shellWord(String(value))}`);
  }
  return words.join(' ');
}

/**
 * The `argus` line that does the same action again, with the element named by its stable locator
 * instead of a ref (refs die with the page): `argus click 'role=button[name="Sign in"]'`. Undefined
 * when the result has no locator (a key press, an element only a ref can name).
 */
export function replayLine(
  command: CliCommand,
  output: { locator?: string | undefined; toLocator?: string | undefined; value?: unknown },
  input: Readonly<Record<string, unknown>>,
): string | undefined {
  if (command.cli === false || typeof output.locator !== 'string') return undefined;
  const positionals = command.cli.positionals ?? [];
  const replayed: Record<string, unknown> = {};
  for (const name of positionals.map((item) => item.replace(/\.\.\.$/, ''))) {
    replayed[name] =
      name === 'target' || name === 'from'
        ? output.locator
        : name === 'to' && typeof output.toLocator === 'string'
          ? output.toLocator
          : input[name];
  }
  const line = { ...replayed, ...omit(input, Object.keys(replayed)) };
  // typed text, and a fill of a field not proven ordinary, may be a password: never shown back (as
  // the journal never stores it); the line says where it goes
  if (
    typeof line['text'] === 'string' &&
    (command.name === 'input.type' || (command.name === 'input.fill' && !fillIsPlain(input, output)))
  )
    line['text'] = SECRET_PLACEHOLDER;
  return commandLine(command, line, NOT_REPLAYED);
}

/** What a replay line shows in place of text that may be a secret (a shell word to replace). */
export const SECRET_PLACEHOLDER = '<secret>';

function omit(input: Readonly<Record<string, unknown>>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([key]) => !keys.includes(key)));
}
