import type { Protocol } from 'devtools-protocol';
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
 * Dialogs are answered at once (armed answer, else the default policy) so they never block.
 */
export class PageCapture {
  readonly console: RingBuffer<ConsoleRecord>;
  readonly dialogs: RingBuffer<DialogRecord>;
  private armed: DialogAnswer | undefined;
  private readonly consoleListeners = new Set<(record: ConsoleRecord, seq: number) => void>();

  constructor(options: CaptureOptions = {}) {
    this.console = new RingBuffer(options.capacity ?? 5_000);
    this.dialogs = new RingBuffer(Math.min(options.capacity ?? 5_000, 1_000));
  }

  /** Arms the answer for the next dialog (e.g. `dialog accept "text"`). */
  armDialog(answer: DialogAnswer | undefined): void {
    this.armed = answer;
  }

  /** The answer armed for the next dialog, if any. */
  get armedAnswer(): DialogAnswer | undefined {
    return this.armed;
  }

  onConsole(listener: (record: ConsoleRecord, seq: number) => void): () => void {
    this.consoleListeners.add(listener);
    return () => this.consoleListeners.delete(listener);
  }

  private addConsole(record: ConsoleRecord): void {
    const seq = this.console.push(record);
    for (const listener of this.consoleListeners) listener(record, seq);
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
        const answer = this.armed ?? defaultAnswer(event.type);
        this.armed = undefined;
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
