import WebSocket from 'ws';

interface Result {
  id: string;
  ok: boolean;
  result?: unknown;
  error?: { code: string; message: string };
}

/** A minimal /ops client: typed command frames with caller-chosen idempotency keys. */
export class OpsClient {
  private readonly waiters = new Map<string, (result: Result) => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { type: string } & Result; // relay output
      if (frame.type === 'result') this.waiters.get(frame.id)?.(frame);
    });
  }

  static async connect(relayUrl: string, token: string): Promise<OpsClient> {
    const socket = new WebSocket(`${relayUrl.replace('http', 'ws')}/ops`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new OpsClient(socket);
  }

  /** Resolves with the result frame, or rejects when the socket closes first (relay died). */
  call(id: string, command: string, params: unknown): Promise<Result> {
    return new Promise((resolve, reject) => {
      const onClose = () => reject(new Error('socket closed before the result'));
      this.socket.once('close', onClose);
      this.waiters.set(id, (result) => {
        this.socket.off('close', onClose);
        this.waiters.delete(id);
        resolve(result);
      });
      this.socket.send(JSON.stringify({ version: 1, type: 'command', id, command, params }));
    });
  }

  close(): void {
    this.socket.close();
  }
}
