import { type Agent, type ClientRequest, request } from 'node:http';

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
export function nodeHttpFetch(url: string | URL, init: MinimalInit = {}): Promise<MinimalResponse> {
  return send(url, init, undefined);
}

type MinimalResponse = { ok: boolean; status: number; json(): Promise<unknown> };

/**
 * The same over `agent`'s kept-alive connections, for a long-lived client (the MCP server's link to
 * its daemon makes thousands of calls): no TCP connection set up and torn down on both sides per
 * call. A kept connection the daemon closed as idle just as a request went out fails with
 * ECONNRESET before any answer; the daemon never read that request, so it is sent once more on a
 * fresh connection (Node's documented `reusedSocket` pattern).
 */
export function keepAliveHttpFetch(agent: Agent): (url: string | URL, init?: MinimalInit) => Promise<MinimalResponse> {
  return (url, init = {}) => send(url, init, agent);
}

async function send(url: string | URL, init: MinimalInit, agent: Agent | undefined): Promise<MinimalResponse> {
  try {
    return await sendOnce(url, init, agent);
  } catch (error) {
    if (!agent || !(error as { staleSocket?: boolean }).staleSocket) throw error;
    return sendOnce(url, init, agent);
  }
}

function sendOnce(url: string | URL, init: MinimalInit, agent: Agent | undefined): Promise<MinimalResponse> {
  return new Promise((resolve, reject) => {
    const body = typeof init.body === 'string' ? init.body : undefined;
    const req: ClientRequest = request(url, {
      method: init.method ?? 'GET',
      headers: {
        ...init.headers,
        ...(agent ? {} : { connection: 'close' }),
        ...(body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }),
      },
      agent: agent ?? false,
      signal: init.signal ?? undefined,
    });
    let answered = false;
    // Once connected, the request may have reached the daemon: a failure from then on (reset, hang
    // up) must not be retried, the command may have run. Before that (ECONNREFUSED) nothing was sent.
    let connected = false;
    req.once('socket', (socket) => {
      if (!socket.connecting) connected = true;
      else socket.once('connect', () => (connected = true));
    });
    req.once('error', (error: NodeJS.ErrnoException) => {
      if (!connected || error.name === 'AbortError') return reject(error);
      if (req.reusedSocket && !answered && error.code === 'ECONNRESET')
        return reject(Object.assign(error, { staleSocket: true }));
      reject(
        Object.assign(new Error(`the daemon closed the connection before answering (${error.code ?? error.message})`), {
          code: DAEMON_LOST,
          cause: error,
        }),
      );
    });
    req.once('response', (res) => {
      answered = true;
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
