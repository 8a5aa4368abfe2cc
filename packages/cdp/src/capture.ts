import type { Protocol } from 'devtools-protocol';
import { ArgusError } from '@argus/protocol/errors';
import { RingBuffer } from './ring-buffer.js';
import type { Session } from './session.js';

export interface ConsoleRecord {
  level: 'log' | 'info' | 'warn' | 'error' | 'debug' | 'trace' | 'other';
  text: string;
  url: string | undefined;
  line: number | undefined;
  column: number | undefined;
  stack: string | undefined;
  /** 'console' for console.* calls, 'exception' for uncaught errors, 'log' for browser log entries. */
  source: 'console' | 'exception' | 'log';
  timestamp: number;
  /** the tab's URL when it was logged: messages of an earlier page stay in the buffer, marked as such */
  page?: string | undefined;
}

export interface DialogRecord {
  type: string;
  message: string;
  url: string;
  defaultPrompt: string;
  handled: 'accepted' | 'dismissed';
  promptText: string | undefined;
  timestamp: number;
}

export interface DialogAnswer {
  accept: boolean;
  promptText?: string;
}

/** An answer waiting for a dialog, and when it lapses unused (milliseconds since the epoch). */
export interface ArmedDialogAnswer extends DialogAnswer {
  expiresAt: number;
}

/** A dialog as a command's reply reports it to the caller that did not see it open. */
export interface DialogReport {
  type: string;
  message: string;
  handled: 'accepted' | 'dismissed';
  /** when it opened, milliseconds since the epoch */
  at: number;
}

/** Dialogs one reply reports at most (the newest); the `dialog` log keeps them all. */
export const MAX_REPORTED_DIALOGS = 20;
const REPORTED_MESSAGE_CHARS = 500;

/** Answers armed at once on one tab, at most: more than a page opens in one go, so a runaway caller is told. */
export const MAX_ARMED_DIALOG_ANSWERS = 20;
/**
 * How long an armed answer waits for its dialog. An answer the expected dialog never used (the page
 * changed, the click missed) must not accept some later page's confirm("Delete everything?").
 */
export const ARMED_DIALOG_TTL_MS = 5 * 60_000;

export interface CaptureOptions {
  /** Entries kept per buffer (default 5,000). */
  capacity?: number;
}

const LEVELS: Record<string, ConsoleRecord['level']> = {
  log: 'log',
  info: 'info',
  warning: 'warn',
  warn: 'warn',
  error: 'error',
  assert: 'error',
  debug: 'debug',
  trace: 'trace',
  verbose: 'debug',
};

function previewArg(arg: Protocol.Runtime.RemoteObject): string {
  if (arg.type === 'string') return String(arg.value);
  if (arg.unserializableValue) return arg.unserializableValue;
  if (arg.value !== undefined) return typeof arg.value === 'object' ? JSON.stringify(arg.value) : String(arg.value);
  if (arg.preview?.properties) {
    const inner = arg.preview.properties
      .map((p) => (arg.preview?.subtype === 'array' ? p.value : `${p.name}: ${p.value}`))
      .join(', ');
    return arg.preview.subtype === 'array' ? `[${inner}]` : `{${inner}}`;
  }
  return arg.description ?? arg.type;
}

function formatStack(trace: Protocol.Runtime.StackTrace | undefined): string | undefined {
  if (!trace?.callFrames.length) return undefined;
  return trace.callFrames
    .slice(0, 20)
    .map((f) => `    at ${f.functionName || '<anonymous>'} (${f.url}:${f.lineNumber + 1}:${f.columnNumber + 1})`)
    .join('\n');
}

/**
 * Per-tab capture of console messages, uncaught errors and dialogs into bounded ring buffers.
 * Dialogs are answered at once (the first armed answer, else the default policy) so they never
 * block. Armed answers form a queue, used in order, each lapsing after ARMED_DIALOG_TTL_MS.
 * Each dialog is reported once to the caller (`takeUnreported`): the reply of the next command that
 * carries dialogs, whether it opened during that command or after the previous reply.
 */
export class PageCapture {
  readonly console: RingBuffer<ConsoleRecord>;
  readonly dialogs: RingBuffer<DialogRecord>;
  private armed: ArmedDialogAnswer[] = [];
  /** dialogs from this sequence number on are in no reply yet */
  private reportedSeq = 0;
  private readonly consoleListeners = new Set<(record: ConsoleRecord, seq: number) => void>();

  constructor(
    options: CaptureOptions = {},
    /** the tab's URL now (Page.url), stamped on each console record */
    private readonly pageUrl: () => string | undefined = () => undefined,
  ) {
    this.console = new RingBuffer(options.capacity ?? 5_000);
    this.dialogs = new RingBuffer(Math.min(options.capacity ?? 5_000, 1_000));
  }

  /**
   * Queues the answer for the next dialog not already given one (e.g. `dialog accept "text"`);
   * refused beyond MAX_ARMED_DIALOG_ANSWERS.
   */
  armDialog(answer: DialogAnswer, now = Date.now()): void {
    this.dropExpired(now);
    if (this.armed.length >= MAX_ARMED_DIALOG_ANSWERS)
      throw new ArgusError(
        'invalid_input',
        `${MAX_ARMED_DIALOG_ANSWERS} answers are already armed for this tab's next dialogs; none was added. Drop them with \`argus dialog --disarm\`, or let dialogs use them first.`,
        { details: { armed: this.armed.length } },
      );
    this.armed.push({ ...answer, expiresAt: now + ARMED_DIALOG_TTL_MS });
  }

  /** Drops every armed answer; returns how many there were. */
  disarmDialogs(): number {
    const count = this.armed.length;
    this.armed = [];
    return count;
  }

  /** The answers armed for the next dialogs, in the order they will be used (lapsed ones dropped). */
  armedAnswers(now = Date.now()): readonly ArmedDialogAnswer[] {
    this.dropExpired(now);
    return [...this.armed];
  }

  /**
   * Dialogs no reply has reported yet, oldest first (at most the newest MAX_REPORTED_DIALOGS, each
   * message cut: a page in an alert loop must not flood a reply); from now on they count as reported.
   */
  takeUnreported(): DialogReport[] {
    const entries = this.dialogs.entries(this.reportedSeq).slice(-MAX_REPORTED_DIALOGS);
    this.reportedSeq = this.dialogs.seq;
    return entries.map(({ item }) => ({
      type: item.type,
      message: item.message.slice(0, REPORTED_MESSAGE_CHARS),
      handled: item.handled,
      at: item.timestamp,
    }));
  }

  /** Counts every dialog so far as reported (the caller listed them all). */
  markReported(): void {
    this.reportedSeq = this.dialogs.seq;
  }

  private dropExpired(now: number): void {
    this.armed = this.armed.filter((answer) => answer.expiresAt > now);
  }

  onConsole(listener: (record: ConsoleRecord, seq: number) => void): () => void {
    this.consoleListeners.add(listener);
    return () => this.consoleListeners.delete(listener);
  }

  private addConsole(record: ConsoleRecord): void {
    const page = this.pageUrl();
    const stamped = page === undefined ? record : { ...record, page };
    const seq = this.console.push(stamped);
    for (const listener of this.consoleListeners) listener(stamped, seq);
  }

  attach(session: Session): () => void {
    const offs = [
      session.on('Runtime.consoleAPICalled', (event) => {
        const top = event.stackTrace?.callFrames[0];
        this.addConsole({
          level: LEVELS[event.type] ?? 'other',
          text: event.args.map(previewArg).join(' '),
          url: top?.url,
          line: top ? top.lineNumber + 1 : undefined,
          column: top ? top.columnNumber + 1 : undefined,
          stack:
            event.type === 'error' || event.type === 'trace' || event.type === 'assert'
              ? formatStack(event.stackTrace)
              : undefined,
          source: 'console',
          timestamp: Date.now(),
        });
      }),
      session.on('Runtime.exceptionThrown', ({ exceptionDetails: d }) => {
        const description = d.exception?.description ?? d.text;
        this.addConsole({
          level: 'error',
          text: String(description).split('\n')[0] ?? d.text,
          url: d.url,
          line: d.lineNumber + 1,
          column: d.columnNumber + 1,
          stack: formatStack(d.stackTrace) ?? String(description),
          source: 'exception',
          timestamp: Date.now(),
        });
      }),
      session.on('Page.javascriptDialogOpening', (event) => {
        this.dropExpired(Date.now());
        const answer = this.armed.shift() ?? defaultAnswer(event.type);
        const promptText =
          answer.accept && event.type === 'prompt' ? (answer.promptText ?? event.defaultPrompt ?? '') : undefined;
        this.dialogs.push({
          type: event.type,
          message: event.message,
          url: event.url,
          defaultPrompt: event.defaultPrompt ?? '',
          handled: answer.accept ? 'accepted' : 'dismissed',
          promptText,
          timestamp: Date.now(),
        });
        void session
          .send('Page.handleJavaScriptDialog', {
            accept: answer.accept,
            ...(promptText === undefined ? {} : { promptText }),
          })
          .catch(() => undefined);
      }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }
}

/** alert and beforeunload are accepted; confirm and prompt are dismissed unless an answer is armed. */
function defaultAnswer(type: string): DialogAnswer {
  return { accept: type === 'alert' || type === 'beforeunload' };
}
