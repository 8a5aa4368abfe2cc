import { request } from 'node:http';

interface MinimalInit {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal | null;
}

/** Code of the error a request fails with when the daemon went away after the request reached it. */
export const DAEMON_LOST = 'ARGUS_DAEMON_LOST';

/**
 * The slice of `fetch` tRPC's HTTP links use, on node:http. Node's global fetch loads undici and
 * its WASM parser (~40 ms) and keeps the socket alive after the answer; a one-shot process such as
 * the CLI needs neither: one request on a fresh connection that closes when it is done.
 */
export function nodeHttpFetch(
  url: string | URL,
  init: MinimalInit = {},
): Promise<{ ok: boolean; status: number; json(): Promise<unknown> }> {
  return new Promise((resolve, reject) => {
    const body = typeof init.body === 'string' ? init.body : undefined;
    const req = request(url, {
      method: init.method ?? 'GET',
      headers: {
        ...init.headers,
        connection: 'close',
        ...(body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }),
      },
      agent: false,
      signal: init.signal ?? undefined,
    });
    // Once connected, the request may have reached the daemon: a failure from then on (reset, hang
    // up) must not be retried, the command may have run. Before that (ECONNREFUSED) nothing was sent.
    let connected = false;
    req.once('socket', (socket) => {
      if (!socket.connecting) connected = true;
      else socket.once('connect', () => (connected = true));
    });
    req.once('error', (error: NodeJS.ErrnoException) => {
      if (!connected || error.name === 'AbortError') return reject(error);
      reject(
        Object.assign(new Error(`the daemon closed the connection before answering (${error.code ?? error.message})`), {
          code: DAEMON_LOST,
          cause: error,
        }),
      );
    });
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('error', reject);
      res.once('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const status = res.statusCode ?? 0;
        resolve({ ok: status >= 200 && status < 300, status, json: async () => JSON.parse(text) as unknown });
      });
    });
    req.end(body);
  });
}
