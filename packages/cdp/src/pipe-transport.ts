import type { Readable, Writable } from 'node:stream';
import { ProtocolError, StreamTransport, type Transport, TransportClosedError } from './transport.js';

/**
 * The two ends of a Chrome started with `--remote-debugging-pipe`: it reads commands from its
 * descriptor 3 (`toChrome`) and writes replies and events to its descriptor 4 (`fromChrome`), each
 * message JSON ended by a NUL byte. No port is opened, so no other process on the machine can reach
 * the browser past Argus's tokens and policies; and a message costs a pipe write instead of a
 * WebSocket frame over loopback TCP (a round trip ~0.2 ms shorter here), with no HTTP endpoint or
 * handshake to wait for at launch (issue 16). Chrome ends when the pipe closes.
 */
export interface CdpPipe {
  toChrome: Writable;
  fromChrome: Readable;
}

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Reply {
  id?: number;
  result?: unknown;
  error?: { code?: number; message?: string; data?: string };
  method?: string;
  params?: unknown;
  sessionId?: string;
}

/** A Transport over Chrome's DevTools pipe (the browsers the daemon launches). */
class PipeTransport extends StreamTransport {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Bytes of a message whose NUL has not arrived yet. */
  private partial: Buffer[] = [];

  constructor(private readonly pipe: CdpPipe) {
    super();
    pipe.fromChrome.on('data', (chunk: Buffer) => this.receive(chunk));
    const dropped = () => this.closedBy('the browser connection dropped');
    pipe.fromChrome.once('end', dropped);
    pipe.fromChrome.once('close', dropped);
    pipe.fromChrome.on('error', dropped);
    pipe.toChrome.on('error', dropped);
  }

  send(method: string, params: object | undefined, sessionId: string | undefined): Promise<unknown> {
    if (this.closed)
      return Promise.reject(new TransportClosedError(`Cannot send ${method}: the browser connection is closed`));
    const id = this.nextId++;
    const message = JSON.stringify(
      sessionId === undefined ? { id, method, params: params ?? {} } : { id, method, params: params ?? {}, sessionId },
    );
    return new Promise((resolve, reject) => {
      this.pending.set(id, { method, resolve, reject });
      this.batchWrites(this.pipe.toChrome);
      this.pipe.toChrome.write(`${message}\0`);
    });
  }

  private receive(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(0); end !== -1; end = chunk.indexOf(0, start)) {
      const piece = chunk.subarray(start, end);
      const text =
        this.partial.length === 0 ? piece.toString('utf8') : Buffer.concat([...this.partial, piece]).toString('utf8');
      this.partial = [];
      start = end + 1;
      this.dispatch(text);
    }
    if (start < chunk.length) this.partial.push(chunk.subarray(start));
  }

  private dispatch(text: string): void {
    let message: Reply;
    try {
      message = JSON.parse(text) as Reply;
    } catch {
      return; // never from Chrome; nothing to route it to
    }
    if (typeof message.id === 'number') {
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      if (message.error) {
        const detail = message.error.data ? ` (${message.error.data})` : '';
        pending.reject(
          new ProtocolError(
            pending.method,
            message.error.code,
            `${message.error.message ?? 'protocol error'}${detail}`,
          ),
        );
      } else pending.resolve(message.result ?? {});
      return;
    }
    if (typeof message.method !== 'string') return;
    this.emit({ method: message.method, params: message.params, sessionId: message.sessionId });
  }

  /** Closed once: what is in flight fails with TransportClosedError, then the listeners are told. */
  private closedBy(reason: string): void {
    this.markClosed(reason, () => {
      for (const [, pending] of this.pending)
        pending.reject(new TransportClosedError(`${pending.method} failed: the browser connection closed`));
      this.pending.clear();
    });
  }

  /** Closes the pipe (Chrome then shuts down: only the owner of a launched browser closes it). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closedBy('closed by Argus');
    this.pipe.toChrome.destroy();
    this.pipe.fromChrome.destroy();
  }
}

/** A Transport over a Chrome's DevTools pipe. */
export function connectPipe(pipe: CdpPipe): Transport {
  return new PipeTransport(pipe);
}
