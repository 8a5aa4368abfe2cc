import { bytes, clip, cut, duration } from './format.js';
import type { OutputOf, RenderersOf } from './types.js';

type Entry = OutputOf<'journal.list'>['entries'][number];
type State = OutputOf<'journal.list'>['journal'];

/** One journal row: time, outcome, command, client, tab and where the page went. */
function entryLine(entry: Entry): string {
  const outcome = entry.ok ? 'ok' : `ERR ${entry.errorCode ?? '?'}`;
  const url = entry.urlAfter && entry.urlAfter !== entry.urlBefore ? `  -> ${cut(entry.urlAfter, 80)}` : '';
  const input = entry.input && entry.input !== '{}' ? `  ${cut(entry.input, 100)}` : '';
  return `${entry.at}  ${outcome.padEnd(6)} ${entry.command.padEnd(18)} ${duration(entry.durationMs).padStart(7)}  ${clip(entry.client ?? entry.clientKind, 24)}${entry.tab ? ` tab ${entry.tab.slice(0, 8)}` : ''}${input}${url}`;
}

/** The journal's own health; only shown when something is wrong. */
export function journalStateLine(state: State): string {
  if (state.ok)
    return `journal ${state.path} (${state.written} written${state.dropped ? `, ${state.dropped} dropped` : ''})`;
  return `journal NOT WRITING: ${state.error ?? 'unknown error'} (${state.dropped} entries dropped; commands still run)`;
}

export const journalRenderers: RenderersOf<'journal'> = {
  'journal.list': (output) =>
    [
      ...(output.entries.length ? output.entries.map(entryLine) : ['(no journal entries match)']),
      ...(output.journal.ok ? [] : [journalStateLine(output.journal)]),
    ].join('\n'),
  'journal.export': (output) =>
    output.path === null ? (output.jsonl ?? '').replace(/\n$/, '') : `wrote ${output.count} entries to ${output.path}`,
};

export const profileRenderers: RenderersOf<'profile'> = {
  'profile.list': (output) =>
    output.profiles.length
      ? output.profiles
          .map(
            (profile) =>
              `${profile.name.padEnd(20)} ${bytes(profile.bytes).padStart(9)}  last used ${profile.lastUsed ?? 'never'}${profile.inUse ? '  (in use)' : ''}`,
          )
          .join('\n')
      : `(no profiles in ${output.dir}; \`argus --profile NAME ...\` creates one)`,
  'profile.rm': (output) => `removed profile ${output.removed} (${bytes(output.bytes)})`,
};
