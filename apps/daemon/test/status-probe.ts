import { setTimeout as sleep } from 'node:timers/promises';
import type { ArgusClient } from '@argus/client';

export interface StatusProbe {
  /** Stops probing; resolves with how many status calls answered and the slowest, or rejects with the first failure. */
  stop(): Promise<{ count: number; maxMs: number }>;
}

/**
 * Asks `daemon.status` again and again (each call after the previous one answered, `gapMs` apart)
 * while a fault runs on some tab: the daemon must keep answering. This is the test measuring the
 * daemon from outside, not the daemon waiting on something, so a loop is the point.
 */
export function probeStatus(client: ArgusClient, gapMs = 50): StatusProbe {
  const times: number[] = [];
  let running = true;
  let failure: unknown;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        await client.daemon.status.query({});
      } catch (error) {
        failure ??= error;
      }
      times.push(performance.now() - started);
      await sleep(gapMs);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      if (failure) throw failure;
      return { count: times.length, maxMs: Math.max(...times) };
    },
  };
}
