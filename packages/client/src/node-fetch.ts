import { request } from 'node:http';

interface MinimalInit {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal | null;
}

/**
 * The slice of `fetch` tRPC's HTTP links use, on node:http. Node's global fetch loads undici and
 * its WASM parser (~40 ms) and keeps the socket alive after the answer; a one-shot process such as
 * the CLI needs neither: one request on a fresh connection that closes when it is done.
 */
export function nodeHttpFetch(url: string | URL, init: MinimalInit = {}): Promise<{ ok: boolean; status: number; json(): Promise<unknown> }> {
  return new Promise((resolve, reject) => {
    const body = typeof init.body === 'string' ? init.body : undefined;
    const req = request(url, {
      method: init.method ?? 'GET',
      headers: { ...init.headers, connection: 'close', ...(body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }) },
      agent: false,
      signal: init.signal ?? undefined,
    });
    req.once('error', reject);
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
