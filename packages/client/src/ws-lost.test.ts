import type { AddressInfo } from 'node:net';
import { createTRPCClient } from '@trpc/client';
import type { AppRouter } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { toArgusError } from './errors.js';
import { authenticatedWsLink } from './ws-link.js';

/**
 * A WebSocket peer that accepts the argus subprotocol and dies as soon as a request reaches it:
 * what a client sees when the daemon is killed in the middle of a command.
 */
async function dyingDaemon(): Promise<{ url: string; received: () => number; close: () => Promise<void> }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => 'argus' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  let received = 0;
  server.on('connection', (socket) => {
    socket.on('message', () => {
      received++;
      socket.terminate();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/`,
    received: () => received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('a WebSocket client that loses the daemon', () => {
  it('a request already sent is daemon_lost (never retried), not daemon_unreachable', async () => {
    const peer = await dyingDaemon();
    const ws = authenticatedWsLink({ url: peer.url, token: 't', WebSocket });
    const client = createTRPCClient<AppRouter>({ links: [ws.link] });
    try {
      const failure = await client.page.eval.mutate({ expression: '1' } as never).then(
        () => undefined,
        (error: unknown) => toArgusError(error),
      );
      expect(peer.received()).toBe(1);
      expect(failure?.code).toBe('daemon_lost');
      expect(failure?.message).toMatch(/may or may not have run/);
    } finally {
      ws.close();
      await peer.close();
    }
  });

  it('a request that never reached a daemon (nothing listening) is daemon_unreachable', async () => {
    const peer = await dyingDaemon();
    const url = peer.url;
    await peer.close();
    const ws = authenticatedWsLink({ url, token: 't', WebSocket });
    const client = createTRPCClient<AppRouter>({ links: [ws.link] });
    const pending = client.page.eval.mutate({ expression: '1' } as never).then(
      () => undefined,
      (error: unknown) => toArgusError(error),
    );
    // tRPC keeps retrying a refused connection; closing the client fails the request that was never sent
    await new Promise((resolve) => setTimeout(resolve, 300));
    ws.close();
    const failure = await pending;
    expect(failure?.code).toBe('daemon_unreachable');
  });
});
