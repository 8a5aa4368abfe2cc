type Output = Record<string, unknown>;

interface ConsoleView {
  seq: number;
  level: string;
  text: string;
  source: string;
  url: string | null;
  line: number | null;
  column: number | null;
  stack: string | null;
}

interface NetworkView {
  id: number;
  method: string;
  url: string;
  type: string;
  status: number | null;
  state: string;
  durationMs: number | null;
  decodedBytes: number;
  errorText: string | null;
}

interface StepView {
  index?: number;
  tab?: string;
  command?: string;
  ok: boolean;
  output?: unknown;
  error?: { code: string; message: string };
}

function bytes(value: number): string {
  if (value < 1024) return `${value} B`;
  if (value < 1024 * 1024) return `${(value / 1024).toFixed(1)} kB`;
  return `${(value / 1024 / 1024).toFixed(1)} MB`;
}

/** `#12 error  text  (url:line:col)` plus the stack for errors. */
export function consoleLine(entry: ConsoleView): string {
  const where = entry.url
    ? `  (${entry.url}${entry.line ? `:${entry.line}${entry.column ? `:${entry.column}` : ''}` : ''})`
    : '';
  const head = `#${entry.seq} ${(entry.source === 'exception' ? 'uncaught' : entry.level).padEnd(8)} ${entry.text}${where}`;
  return entry.stack && entry.level === 'error' ? `${head}\n${entry.stack.replace(/^(?! {4})/gm, '    ')}` : head;
}

/** `#3 GET 200 Fetch 12 ms 1.2 kB http://...` */
export function networkLine(entry: NetworkView): string {
  const status = entry.state === 'failed' ? 'FAILED' : entry.status === null ? '...' : String(entry.status);
  const timing = entry.durationMs === null ? '' : ` ${Math.round(entry.durationMs)} ms`;
  const size = entry.state === 'finished' ? ` ${bytes(entry.decodedBytes)}` : '';
  const error = entry.errorText ? `  ${entry.errorText}` : '';
  return `#${entry.id} ${entry.method} ${status} ${entry.type}${timing}${size} ${entry.url}${error}`;
}

function compact(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? '' : text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function stepLine(step: StepView): string {
  const label = step.tab ? `tab ${step.tab}` : `[${step.index}] ${step.command}`;
  return step.ok
    ? `${label}  ok  ${compact(step.output)}`
    : `${label}  error[${step.error?.code}]: ${step.error?.message}`;
}

function headerLines(headers: Record<string, string>): string[] {
  return Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`);
}

function tail(output: Output, noun: string): string {
  const parts = [];
  if (Number(output.omitted) > 0) parts.push(`${output.omitted} older ${noun} not shown (--limit)`);
  if (output.cleared) parts.push('buffer cleared');
  parts.push(`last seq ${output.lastSeq}`);
  return `[${parts.join('; ')}]`;
}

export const captureRenderers: Record<string, (output: Output) => string> = {
  'capture.console': (output) => {
    const messages = output.messages as ConsoleView[];
    return [
      ...(messages.length ? messages.map(consoleLine) : ['(no console messages)']),
      tail(output, 'messages'),
    ].join('\n');
  },
  'capture.network': (output) => {
    const requests = output.requests as NetworkView[];
    return [...(requests.length ? requests.map(networkLine) : ['(no requests)']), tail(output, 'requests')].join('\n');
  },
  'capture.networkGet': (output) => {
    const entry = output as unknown as NetworkView & {
      statusText: string;
      mimeType: string;
      encodedBytes: number | null;
    };
    const lines = [
      networkLine(entry),
      `type ${entry.mimeType || '-'}; ${entry.encodedBytes === null ? '' : `${bytes(entry.encodedBytes)} on the wire, `}${bytes(entry.decodedBytes)} decoded`,
      'request headers:',
      ...headerLines(output.requestHeaders as Record<string, string>),
      'response headers:',
      ...headerLines(output.responseHeaders as Record<string, string>),
    ];
    if (output.redacted) lines.push('[credential headers redacted; --reveal shows them (admin token)]');
    if (output.body !== null)
      lines.push('body:', output.base64 ? `(base64) ${String(output.body)}` : String(output.body));
    if (output.bodyNote) lines.push(`[${String(output.bodyNote)}]`);
    return lines.join('\n');
  },
  'capture.dialogs': (output) => {
    const dialogs = output.dialogs as Array<{
      seq: number;
      type: string;
      message: string;
      handled: string;
      promptText: string | null;
    }>;
    const armed = output.armed as { accept: boolean; promptText: string | null } | null;
    return [
      ...(dialogs.length
        ? dialogs.map(
            (d) =>
              `#${d.seq} ${d.type} "${d.message}" ${d.handled}${d.promptText !== null ? ` with "${d.promptText}"` : ''}`,
          )
        : ['(no dialogs)']),
      `next dialog: ${armed ? `${armed.accept ? 'accept' : 'dismiss'}${armed.promptText !== null ? ` with "${armed.promptText}"` : ''}` : 'default (alert/beforeunload accepted, confirm/prompt dismissed)'}`,
    ].join('\n');
  },
  'capture.dialogAccept': (output) =>
    `next dialog will be accepted${(output.armed as { promptText: string | null }).promptText !== null ? ` with "${(output.armed as { promptText: string }).promptText}"` : ''}`,
  'capture.dialogDismiss': () => 'next dialog will be dismissed',
  'capture.debugTrace': (output) =>
    [
      `${output.path}`,
      `screenshot ${output.screenshot ?? '(failed)'}`,
      `${output.title ? `${output.title} — ` : ''}${output.url}`,
      `${output.console} console entries, ${output.pageErrors} page errors, ${output.network} requests (${output.failedRequests} failed), ${output.dialogs} dialogs`,
    ].join('\n'),
  'batch.chain': (output) => {
    const results = output.results as StepView[];
    const lines = results.map(stepLine);
    if (!output.ok) lines.push(`chain stopped at step ${output.failedStep}`);
    return lines.join('\n');
  },
  'batch.run': (output) =>
    [...(output.results as StepView[]).map(stepLine), `${output.succeeded} ok, ${output.failed} failed`].join('\n'),
  'batch.tabEach': (output) => (output.results as StepView[]).map(stepLine).join('\n') || '(no tabs)',
};
