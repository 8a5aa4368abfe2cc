import type { AddressInfo } from 'node:net';
import { createTRPCClient } from '@trpc/client';
import { initTRPC } from '@trpc/server';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import type { AppRouter } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { WS_IDLE_CLOSE_MS, authenticatedWsLink } from './ws-link.js';

/** A tRPC WebSocket server whose one stream (`inbox.watch`) stays open and silent, as the daemon's does between events. */
async function quietDaemon() {
  const t = initTRPC.create();
  const router = t.router({
    inbox: t.router({
      watch: t.procedure.subscription(async function* (opts) {
        await new Promise((resolve) => opts.signal?.addEventListener('abort', resolve));
        yield* [];
      }),
    }),
  });
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => 'argus' });
  const handler = applyWSSHandler({ wss: server, router });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/`,
    sockets: () => server.clients.size,
    close: async () => {
      handler.broadcastReconnectNotification();
      for (const socket of server.clients) socket.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('an idle WebSocket client', () => {
  it('following a silent stream sets no timers (it once re-armed one every millisecond), and closes its socket once idle', async () => {
    const peer = await quietDaemon();
    const ws = authenticatedWsLink({ url: peer.url, token: 't', WebSocket });
    const client = createTRPCClient<AppRouter>({ links: [ws.link] });
    const real = globalThis.setTimeout;
    try {
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const subscription = client.inbox.watch.subscribe({} as never, { onStarted: () => started() });
      await running;
      await new Promise((resolve) => real(resolve, 50));
      let timers = 0;
      globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
        timers++;
        return real(...args);
      }) as typeof setTimeout;
      await new Promise((resolve) => real(resolve, 500));
      globalThis.setTimeout = real;
      expect(timers).toBeLessThan(3);
      expect(peer.sockets()).toBe(1);
      // the stream ends: the socket goes after the idle delay, so a script that never closes can exit
      subscription.unsubscribe();
      const deadline = Date.now() + WS_IDLE_CLOSE_MS + 2_000;
      while (peer.sockets() > 0 && Date.now() < deadline) await new Promise((resolve) => real(resolve, 50));
      expect(peer.sockets()).toBe(0);
    } finally {
      globalThis.setTimeout = real;
      ws.close();
      await peer.close();
    }
  });
});
