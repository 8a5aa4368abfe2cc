import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One answer of the slow server: given after `delayMs` (at most 10 s), or at once. */
export interface SlowAnswer {
  delayMs?: number;
  status?: number;
  contentType?: string;
  headers?: Record<string, string>;
  body: string;
}

export interface SlowServer {
  origin: string;
  /** Requests seen per path. */
  seen: Record<string, number>;
  close(): Promise<void>;
}

/**
 * A loopback server whose answers take their time, for deadline tests: each answer waits its
 * `delayMs` (capped at 10 s, so nothing waits longer), and close() ends every wait and connection.
 */
export async function startSlowServer(route: (url: URL, origin: string) => SlowAnswer): Promise<SlowServer> {
  const timers = new Set<NodeJS.Timeout>();
  const seen: Record<string, number> = {};
  let origin = '';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', origin);
    seen[url.pathname] = (seen[url.pathname] ?? 0) + 1;
    const answer = route(url, origin);
    const send = () => {
      if (res.destroyed) return;
      res.writeHead(answer.status ?? 200, {
        'content-type': answer.contentType ?? 'text/html; charset=utf-8',
        ...answer.headers,
      });
      res.end(answer.body);
    };
    const delay = Math.min(answer.delayMs ?? 0, 10_000);
    if (delay <= 0) return send();
    const timer = setTimeout(() => {
      timers.delete(timer);
      send();
    }, delay);
    timers.add(timer);
    res.once('close', () => {
      clearTimeout(timer);
      timers.delete(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    seen,
    close: () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** An article page with enough words to be read as one. */
export function articlePage(title: string): string {
  const words = `${title} is a page of the slow server, with sentences enough to be read as an article. `.repeat(10);
  return `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${words}</p></article></body></html>`;
}
