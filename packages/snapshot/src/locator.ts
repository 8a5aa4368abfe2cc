import { ArgusError } from '@argus/protocol';
import { quoteName } from '@argus/protocol/snapshot-refs';
import { isKnownRole } from './aria-roles.js';

/**
 * A semantic locator: a target named by what a person sees rather than by the page's markup.
 *
 * - `role=button[name="Sign up"]`: role and exact accessible name; `[name*="sign"]`: name contains
 *   (case-insensitive); `role=button` alone: any name. A role that is no ARIA role (aria-roles.ts)
 *   matches the page's own (`<div role="foo">`); when no element has it, resolving it is
 *   `invalid_input` at once, with the nearest roles, instead of a wait for the timeout.
 * - `text=Sign up`: the innermost visible element whose text contains it (case-insensitive);
 *   `text="Sign up"`: whose whole text is exactly that.
 * - `label=Email`: the form field whose label (or aria-label, placeholder, title) contains it;
 *   `label="Email"`: is exactly that.
 *
 * A match by part (`name*=`, unquoted `text=` / `label=`) prefers whole matches: when some candidates'
 * text equals the value (any case), only those count, so `label=Age` is the "Age" field even with a
 * "Languages" field on the page; otherwise every candidate containing it does.
 *
 * Whitespace is collapsed on both sides. Only visible elements match; more than one match is an
 * `element_ambiguous` error listing refs for the candidates, never a guess.
 */
export interface Locator {
  kind: 'role' | 'text' | 'label';
  /** for `role=`: the role */
  role?: string;
  /** the name or text to match; undefined for `role=x` without a name */
  value?: string;
  exact: boolean;
}

const QUOTED = /^"((?:[^"\\]|\\.)*)"$/;

function unquote(raw: string): { value: string; exact: boolean } {
  const quoted = QUOTED.exec(raw);
  return quoted ? { value: quoted[1]!.replace(/\\(.)/g, '$1'), exact: true } : { value: raw, exact: false };
}

const clean = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The locator a target names, or undefined when the target is not one (a ref or a CSS selector). */
export function parseLocator(target: string): Locator | undefined {
  const match = /^(role|text|label)=([\s\S]*)$/.exec(target.trim());
  if (!match) return undefined;
  const kind = match[1] as Locator['kind'];
  const rest = match[2]!.trim();
  if (kind === 'role') {
    const role = /^([a-z][\w-]*)(?:\[name(\*?)=("(?:[^"\\]|\\.)*")\])?$/i.exec(rest);
    if (!role) {
      throw new ArgusError(
        'invalid_input',
        `"${target}" is not a role locator. Write role=button, role=button[name="Sign up"] (exact name) or role=button[name*="sign"] (name contains).`,
      );
    }
    // any role word parses: one that is no ARIA role (aria-roles.ts) may be the page's own
    // (`<div role="foo">`); the engine refuses it at once only when no element has it
    const roleName = role[1]!.toLowerCase();
    if (role[3] === undefined) return { kind, role: roleName, exact: false };
    const name = clean(unquote(role[3]).value);
    if (!name)
      throw new ArgusError('invalid_input', `"${target}" has an empty name. Drop [name=…] to match any ${role[1]}.`);
    return { kind, role: roleName, value: name, exact: role[2] !== '*' };
  }
  const { value, exact } = unquote(rest);
  const text = clean(value);
  if (!text)
    throw new ArgusError(
      'invalid_input',
      `"${target}" names no text. Write ${kind}=Sign up (contains) or ${kind}="Sign up" (exact).`,
    );
  return { kind, value: text, exact };
}

/**
 * A snapshot line's element as a role locator, for `--scope`: `navigation "Primary"`, `region
 * "News"`, `heading "Title" [level=1]` (states after it are ignored; a name cut with … matches as a
 * part). Undefined for anything else, a bare role word included (that is also a CSS tag selector).
 */
export function snapshotLineLocator(text: string): Locator | undefined {
  const line = /^([a-z][a-z-]*) ("(?:[^"\\]|\\.)*")(?: \[[^\]]*\])*$/.exec(text.trim());
  if (!line || !isKnownRole(line[1]!)) return undefined;
  let name = clean(unquote(line[2]!).value);
  const clipped = name.endsWith('…');
  if (clipped) name = name.slice(0, -1).trim();
  return name ? { kind: 'role', role: line[1]!, value: name, exact: !clipped } : undefined;
}

/** A bare role word (`banner`, `navigation`) as a role locator; undefined for anything else. */
export function roleWordLocator(text: string): Locator | undefined {
  const word = text.trim().toLowerCase();
  return /^[a-z][a-z-]*$/.test(word) && isKnownRole(word) ? { kind: 'role', role: word, exact: false } : undefined;
}

/** `role=button[name="Sign up"]` back as text, for messages. */
export function describeLocator(locator: Locator): string {
  if (locator.kind === 'role')
    return locator.value === undefined
      ? `role=${locator.role}`
      : `role=${locator.role}[name${locator.exact ? '' : '*'}=${quoteName(locator.value)}]`;
  return `${locator.kind}=${locator.exact ? quoteName(locator.value ?? '') : locator.value}`;
}
