import { dialogsFirst } from './effects.js';
import { bytes } from './format.js';
import type { OutputOf, RenderersOf } from './types.js';

type ConsoleEntry = OutputOf<'capture.consoleFollow'>;
type NetworkEntry = OutputOf<'capture.networkFollow'>;

/** `#12 error  text  (url:line:col)` plus the stack for errors. */
export function consoleLine(entry: ConsoleEntry): string {
  const where = entry.url
    ? `  (${entry.url}${entry.line ? `:${entry.line}${entry.column ? `:${entry.column}` : ''}` : ''})`
    : '';
  const head = `#${entry.seq} ${(entry.source === 'exception' ? 'uncaught' : entry.level).padEnd(8)} ${entry.text}${where}`;
  return entry.stack && entry.level === 'error' ? `${head}\n${entry.stack.replace(/^(?! {4})/gm, '    ')}` : head;
}

/**
 * Messages as lines; where the list spans more than one page, each page's run starts with the URL
 * the tab was at (`-- at https://… --`), so an error of the page before is not read as this one's.
 */
function consoleLines(entries: readonly ConsoleEntry[]): string[] {
  const pages = new Set(entries.map((entry) => entry.page ?? ''));
  if (pages.size < 2) return entries.map(consoleLine);
  const lines: string[] = [];
  let page: string | null | undefined;
  for (const entry of entries) {
    if (entry.page !== page) lines.push(`-- at ${entry.page ?? '(unknown page)'} --`);
    page = entry.page;
    lines.push(consoleLine(entry));
  }
  return lines;
}

/** `#3 GET 200 Fetch 12 ms 1.2 kB http://...` */
export function networkLine(entry: NetworkEntry): string {
  const status = entry.state === 'failed' ? 'FAILED' : entry.status === null ? '...' : String(entry.status);
  const timing = entry.durationMs === null ? '' : ` ${Math.round(entry.durationMs)} ms`;
  const size = entry.state === 'finished' ? ` ${bytes(entry.decodedBytes)}` : '';
  const error = entry.errorText ? `  ${entry.errorText}` : '';
  return `#${entry.id} ${entry.method} ${status} ${entry.type}${timing}${size} ${entry.url}${error}`;
}

const headerLines = (headers: Record<string, string>) =>
  Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`);

/** The footer of a buffer read: only what is worth saying (older entries left out, a cleared buffer). */
function tail(output: { omitted: number; cleared: boolean; lastSeq: number }, noun: string, shown: number): string[] {
  const parts = [];
  if (shown > 0) parts.push(`last seq ${output.lastSeq}`);
  if (output.omitted > 0) parts.push(`${output.omitted} older ${noun} not shown (raise the limit to see them)`);
  if (output.cleared) parts.push('buffer cleared');
  return parts.length ? [`[${parts.join('; ')}]`] : [];
}

/** Which console entries were asked for, to say "no errors" rather than "no messages". */
function consoleNoun(input: Readonly<Record<string, unknown>>): string {
  if (input.errors === true) return 'no console errors or uncaught exceptions';
  return typeof input.level === 'string' ? `no console messages at level ${input.level}` : 'no console messages';
}

type Armed = OutputOf<'capture.dialogs'>['armed'];

const answerText = (answer: Armed[number]) =>
  `${answer.accept ? 'accept' : 'dismiss'}${answer.promptText !== null ? ` with "${answer.promptText}"` : ''}`;

function armedLine(armed: Armed): string {
  if (!armed.length) return 'next dialog: default (alert/beforeunload accepted, confirm/prompt dismissed)';
  const queue = armed.map((answer, index) => `${index + 1}. ${answerText(answer)}`).join(', ');
  return `armed for the next ${armed.length === 1 ? 'dialog' : `${armed.length} dialogs, in order`}: ${queue}; then the default`;
}

/** The answer just armed: which dialog from now it is for, and how many are armed. */
function armedReply(armed: Armed): string {
  const last = armed.at(-1);
  if (!last) return 'no answer armed';
  const which = armed.length === 1 ? 'the next dialog' : `dialog ${armed.length} from now`;
  const verb = last.accept ? 'accepted' : 'dismissed';
  const text = last.promptText !== null ? ` with "${last.promptText}"` : '';
  return `${which} will be ${verb}${text} (${armed.length} armed, used in order; unused ones lapse after 5 min)`;
}

export const captureRenderers: RenderersOf<'capture'> = {
  // the dialogs since the previous reply before the list (dialogsFirst)
  'capture.console': (output, context) =>
    dialogsFirst(
      output,
      [
        ...(output.messages.length ? consoleLines(output.messages) : [`(${consoleNoun(context.input)})`]),
        ...tail(output, 'messages', output.messages.length),
      ].join('\n'),
    ),
  'capture.consoleFollow': consoleLine,
  'capture.network': (output) =>
    dialogsFirst(
      output,
      [
        ...(output.requests.length ? output.requests.map(networkLine) : ['(no requests)']),
        ...tail(output, 'requests', output.requests.length),
      ].join('\n'),
    ),
  'capture.networkFollow': networkLine,
  'capture.networkGet': (output) => {
    const lines = [
      networkLine(output),
      `type ${output.mimeType || '-'}; ${output.encodedBytes === null ? '' : `${bytes(output.encodedBytes)} on the wire, `}${bytes(output.decodedBytes)} decoded`,
      'request headers:',
      ...headerLines(output.requestHeaders),
      'response headers:',
      ...headerLines(output.responseHeaders),
    ];
    if (output.redacted) lines.push('[credential headers redacted; --reveal shows them (admin token)]');
    if (output.body !== null) lines.push('body:', output.base64 ? `(base64) ${output.body}` : output.body);
    if (output.bodyNote) lines.push(`[${output.bodyNote}]`);
    // headers and a body are a long document: the dialogs since the previous reply come first
    return dialogsFirst(output, lines.join('\n'));
  },
  'capture.dialogs': (output) =>
    [
      ...(output.dialogs.length
        ? output.dialogs.map(
            (d) =>
              `#${d.seq} ${d.type} "${d.message}" ${d.handled}${d.promptText !== null ? ` with "${d.promptText}"` : ''}`,
          )
        : ['(no dialogs)']),
      ...(output.disarmed > 0 ? [`${output.disarmed} armed answer(s) dropped`] : []),
      armedLine(output.armed),
    ].join('\n'),
  'capture.dialogAccept': (output) => armedReply(output.armed),
  'capture.dialogDismiss': (output) => armedReply(output.armed),
  'capture.debugTrace': (output) =>
    [
      output.path,
      `screenshot ${output.screenshot ?? '(failed)'}`,
      `${output.title ? `${output.title} — ` : ''}${output.url}`,
      `${output.console} console entries, ${output.pageErrors} page errors, ${output.network} requests (${output.failedRequests} failed), ${output.dialogs} dialogs`,
    ].join('\n'),
};
