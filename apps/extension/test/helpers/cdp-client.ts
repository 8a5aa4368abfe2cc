import WebSocket from 'ws';

interface Message {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  sessionId?: string;
  result?: unknown;
  error?: { message: string };
}

/** The test's own CDP connection (what a user's DevTools or a managed session would use). */
export class CdpClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly listeners = new Set<(message: Message) => void>();
  /** recent events, so waitFor() also sees one that arrived just before it was called */
  private readonly history: Message[] = [];

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as Message; // Chromium's own protocol output
      if (message.id !== undefined) {
        const pending = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error) pending?.reject(new Error(message.error.message));
        else pending?.resolve(message.result);
        return;
      }
      this.history.push(message);
      if (this.history.length > 200) this.history.shift();
      for (const listener of [...this.listeners]) listener(message);
    });
  }

  static async connect(url: string, headers: Record<string, string> = {}): Promise<CdpClient> {
    const socket = new WebSocket(url, { headers, perMessageDeflate: false });
    const client = new CdpClient(socket); // listen before open: the server may speak first
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
      socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
    return client;
  }

  send<T = Record<string, unknown>>(method: string, params: object = {}, sessionId?: string): Promise<T> {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    return new Promise<unknown>((resolve, reject) => this.pending.set(id, { resolve, reject })) as Promise<T>;
  }

  waitFor(method: string, predicate: (message: Message) => boolean = () => true, timeoutMs = 10_000): Promise<Message> {
    const seen = this.history.find((message) => message.method === method && predicate(message));
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`timed out waiting for ${method}`));
      }, timeoutMs);
      const listener = (message: Message) => {
        if (message.method !== method || !predicate(message)) return;
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve(message);
      };
      this.listeners.add(listener);
    });
  }

  close(): void {
    this.socket.close();
  }
}
