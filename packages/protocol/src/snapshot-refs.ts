/**
 * Reading refs out of snapshot text: the one definition of the ref grammar, used by the snapshot
 * package (diff, counts), the client's `findRef`, the CLI demo, the benches and the tests.
 *
 * A snapshot line is `role "name" [checked] e12: value` (a ref closes its element: states come
 * before it); an interactive-mode line may carry a run of same-role siblings: `link "Home" e1 "News" e2`. Elements without a name carry a hint in
 * parentheses instead (`button (icon: reply) e7`); refs inside frames carry a frame prefix
 * (`f2e7`). A ref is a whole token outside quoted names and parenthesised hints, so a page that
 * names a button "e9" or "[ref=e9]" cannot plant a ref.
 *
 * No zod and no other imports: this entry is cheap to load from the CLI.
 */

/** The shape of one ref: `e12`, or `f2e7` inside a frame. */
export const REF_PATTERN = /^(?:f\d+)?e\d+$/;

/** A ref's parts: its frame ordinal (0: the top document, `f2e7`: 2) and its number; undefined when it is no ref. */
export function refParts(ref: string): { frame: number; number: number } | undefined {
  const match = /^(?:f(\d+))?e(\d+)$/.exec(ref);
  return match ? { frame: Number(match[1] ?? 0), number: Number(match[2]) } : undefined;
}

/**
 * A quoted name as snapshot lines write it: backslashes and quotes escaped, so the name always ends
 * where its quote does and the ref after it is read as a ref. (The in-page walker writes the same.)
 */
export function quoteName(name: string): string {
  return `"${name.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export interface RefToken {
  ref: string;
  /** index of the ref's first character in the line */
  index: number;
}

/** Every ref token in one line, in order, skipping quoted names and parenthesised hints. */
export function refsInLine(line: string): RefToken[] {
  const out: RefToken[] = [];
  let quoted = false;
  let depth = 0;
  let start = -1;
  const flush = (end: number) => {
    if (start < 0) return;
    const token = line.slice(start, end);
    if (REF_PATTERN.test(token)) out.push({ ref: token, index: start });
    start = -1;
  };
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!;
    if (quoted) {
      if (char === '\\') index++;
      else if (char === '"') quoted = false;
      continue;
    }
    if (char === '"' && depth === 0) {
      flush(index);
      quoted = true;
      continue;
    }
    if (char === '(') {
      flush(index);
      depth++;
      continue;
    }
    if (char === ')' && depth > 0) {
      depth--;
      continue;
    }
    if (depth > 0) continue;
    // everything after `: ` is a value (page content): refs come before it
    // `text: …`, `row: …` and a field's `: value` (page content) come after every ref of a line
    if (char === ':' && (index + 1 === line.length || line[index + 1] === ' ')) {
      flush(index);
      return out;
    }
    if (char === ' ' || char === ',' || char === '\t') flush(index);
    else if (start < 0) start = index;
  }
  flush(line.length);
  return out;
}

/** What may stand between an element's quoted name and its ref: its states (` [checked] `). */
const STATES_ONLY = /^(?: \[[^\]]*\])* $/;

/** All refs of a snapshot, in order of appearance. */
export function refsIn(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) for (const token of refsInLine(line)) out.push(token.ref);
  return out;
}

/**
 * The ref of the first element matching `pattern` that carries one: the first ref on the same line
 * at or after the end of the match. `pattern` is a RegExp (e.g. `/button "Save"/`) or an exact
 * name (`"Save"`), which matches a quoted name followed by its ref (its states, `[expanded=false]`,
 * may stand between), so a heading "Save" without a ref is passed over.
 */
export function findRef(text: string, pattern: RegExp | string): string | undefined {
  const exact = typeof pattern === 'string';
  const regex = exact
    ? new RegExp(quoteName(pattern).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g')
    : new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  for (let match = regex.exec(text); match; match = regex.exec(text)) {
    if (match[0] === '') regex.lastIndex++;
    const lineStart = text.lastIndexOf('\n', match.index) + 1;
    const lineEnd = text.indexOf('\n', match.index);
    const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
    const end = match.index + match[0].length - lineStart;
    const token = refsInLine(line).find((candidate) => candidate.index >= end);
    if (token && (!exact || STATES_ONLY.test(line.slice(end, token.index)))) return token.ref;
  }
  return undefined;
}
