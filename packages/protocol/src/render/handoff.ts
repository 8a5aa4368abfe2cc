import type { OutputOf, RenderersOf } from './types.js';

type Result = OutputOf<'handoff.start'>;

const ENDED: Record<Exclude<Result['state'], 'waiting'>, string> = {
  done: 'the person pressed Done',
  resumed: 'ended with resume',
  timeout: 'timed out',
  tab_closed: 'the tab closed',
};

/** A handoff's reply: who has the tab now, or how it ended and what changed (cookie names only). */
function handoffText(output: Result): string {
  if (output.state === 'waiting')
    return [
      `tab ${output.tab} handed to a person (${output.mode === 'managed' ? 'headed browser' : 'your own tab'}): "${output.reason}"`,
      `waiting until they press Done, \`argus resume\`, or ${output.expiresAt}; \`argus handoff --wait\` waits for it`,
    ].join('\n');
  const changes = output.changes;
  const lines = [`handoff of tab ${output.tab} ended: ${ENDED[output.state]}`];
  if (changes) {
    lines.push(
      `${changes.urlChanged ? 'now at' : 'still at'} ${changes.title ? `${changes.title} — ` : ''}${changes.url}`,
    );
    const list = (label: string, names: string[]) => {
      if (names.length) lines.push(`${label}: ${names.join(', ')}`);
    };
    list('cookies added', changes.cookiesAdded);
    list('cookies changed', changes.cookiesChanged);
    list('cookies removed', changes.cookiesRemoved);
    if (!changes.cookiesAdded.length && !changes.cookiesChanged.length && !changes.cookiesRemoved.length)
      lines.push('no cookie changed');
  }
  return lines.join('\n');
}

export const handoffRenderers: RenderersOf<'handoff'> = {
  'handoff.start': handoffText,
  'handoff.resume': handoffText,
};
