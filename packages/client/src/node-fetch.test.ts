import { Agent, createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DAEMON_LOST, keepAliveHttpFetch, nodeHttpFetch } from './node-fetch.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/**
 * A server that answers the first request of each connection and drops the connection on the
 * second one without reading it through (what a keep-alive connection closed as idle looks like to
 * a request sent just then).
 */
async function droppingServer(): Promise<{ url: string; connections: () => number; answered: () => number }> {
  let connections = 0;
  let answered = 0;
  const seen = new WeakMap<Socket, number>();
  server = createServer((req, res) => {
    const count = (seen.get(req.socket) ?? 0) + 1;
    seen.set(req.socket, count);
    if (count > 1) return req.socket.destroy();
    answered += 1;
    res.end(JSON.stringify({ n: answered }));
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, connections: () => connections, answered: () => answered };
}

describe('keepAliveHttpFetch', () => {
  it('reuses one connection, and sends again on a fresh one when a kept connection drops before answering', async () => {
    const { url, connections, answered } = await droppingServer();
    const agent = new Agent({ keepAlive: true });
    const fetch = keepAliveHttpFetch(agent);
    try {
      expect(await (await fetch(url)).json()).toEqual({ n: 1 });
      // the second request goes out on the kept connection, which drops: retried on a new one
      expect(await (await fetch(url)).json()).toEqual({ n: 2 });
      expect(connections()).toBe(2);
      expect(answered()).toBe(2);
    } finally {
      agent.destroy();
    }
  });

  it('one-shot requests (the CLI) never reuse a connection, so a dropped one is reported as lost, not retried', async () => {
    server = createServer((req) => req.socket.destroy());
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await expect(nodeHttpFetch(`http://127.0.0.1:${port}/`)).rejects.toMatchObject({ code: DAEMON_LOST });
  });
});
