import { EVAL_MAX_CHARS } from '../commands/page.js';
import { challengeLine, dialogLines, frameClearedLines } from './effects.js';
import { duration, titled } from './format.js';
import type { OutputOf, RenderContext, RenderersOf } from './types.js';

type Nav = OutputOf<'page.goto'>;
const nav = (output: Nav, context: RenderContext) =>
  [
    `${titled(output.title, output.url)}${output.status ? ` (${output.status})` : ''}`,
    ...(output.challenge ? [challengeLine(output.challenge, context)] : []),
    ...frameClearedLines(output.frameCleared),
    ...dialogLines(output.dialogs),
  ].join('\n');

/** A reply's text and, after it, the dialogs the tab answered since the previous reply. */
const withDialogs = (text: string, output: { dialogs?: Nav['dialogs'] }) =>
  [text, ...dialogLines(output.dialogs)].join('\n');

/** Where the image went (or the image itself, as base64, when it went nowhere), its size and scale. */
function screenshotLine(output: OutputOf<'page.screenshot'>): string {
  const labels = output.annotated
    ? `, ${output.annotated.refs} ref label(s)${output.annotated.snapshotTaken ? ' from a snapshot taken first' : ''}`
    : '';
  const scaled = `${output.scale === undefined ? '' : `, scaled to ${Math.round(output.scale * 100)}%`}${labels}`;
  return output.path === null
    ? (output.base64 ??
        `image (${output.format ?? 'png'} ${output.width}x${output.height}, ${output.bytes} bytes${scaled}; not written to a file)`)
    : `${output.path} (${output.format ?? 'png'} ${output.width}x${output.height}, ${output.bytes} bytes${scaled})`;
}

/** An evaluation's value: strings as they are for people, JSON for agents (so "42" and 42 differ). */
function value(output: OutputOf<'page.eval'>, context: RenderContext): string {
  if (output.type === 'undefined') return 'undefined';
  const text =
    typeof output.value === 'string' && context.surface === 'cli'
      ? output.value
      : (JSON.stringify(output.value, null, context.surface === 'cli' ? 2 : undefined) ?? 'undefined');
  return output.truncated ? `${text}\n${cutNote(output, context)}` : text;
}

/**
 * Where a value was cut and how to get more. The limit is the one that applied: the input's, or the
 * command's default when the call named none (an adapter's input carries no defaults). An agent is
 * told the argument to call again with, a number and all: the `core` tool list does not show
 * maxChars, but every profile accepts it.
 */
function cutNote(output: OutputOf<'page.eval'>, context: RenderContext): string {
  const asked = context.input['maxChars'];
  const limit = typeof asked === 'number' ? asked : EVAL_MAX_CHARS;
  const whole = output.length === undefined ? '' : ` of a ${output.length}-character string`;
  const more = Math.min(limit * 4, 10_000_000);
  const raise =
    context.surface === 'cli'
      ? `raise --max-chars (up to 10000000)`
      : `call ${context.label('page.eval')} again with the argument maxChars: ${more} (up to 10000000)`;
  return `[truncated at ${limit} characters${whole}: ${raise}, or return only the part you need]`;
}

export const pageRenderers: RenderersOf<'page'> = {
  'page.goto': nav,
  'page.back': nav,
  'page.forward': nav,
  'page.reload': nav,
  'page.url': (output) => withDialogs(output.url, output),
  'page.focus': (output) => `tab ${output.id} in front: ${titled(output.title, output.url)}`,
  'page.eval': (output, context) => withDialogs(value(output, context), output),
  'page.wait': (output) => withDialogs(`${output.matched} after ${duration(output.waitedMs)}`, output),
  'page.scroll': (output) => `scrolled to ${output.scrollX},${output.scrollY}`,
  'page.screenshot': (output) => withDialogs(screenshotLine(output), output),
};

export const snapshotRenderers: RenderersOf<'snapshot'> = {
  'snapshot.take': (output, context) =>
    [
      // an agent has no address bar: say where the snapshot was taken
      ...(context.surface === 'agent' ? [titled(output.title, output.url)] : []),
      // before the text: a long snapshot must not bury them
      ...dialogLines(output.dialogs),
      ...(output.baseline === 'none'
        ? [
            '[no earlier snapshot of this tab in this mode to diff against: the full snapshot follows; the next diff compares with it]',
          ]
        : []),
      ...(output.baseline === 'navigated'
        ? [
            '[the page is another document since the last snapshot in this mode, so no diff: the full snapshot follows, with new refs; the next diff compares with it]',
          ]
        : []),
      // a continuation of a snapshot of a page that changed since: its lines are the page as it was
      ...(output.pageChanged
        ? [
            `[the page changed since this snapshot was cut: these lines are as it was then; ${context.hint('snapshot.take')} shows it now]`,
          ]
        : []),
      output.text,
      ...(output.cursor
        ? [`[truncated: continue with ${context.hint('snapshot.take', { ...context.input, cursor: output.cursor })}]`]
        : []),
    ].join('\n'),
};
