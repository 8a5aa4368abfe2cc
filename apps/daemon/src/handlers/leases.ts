import { ArgusError, type CallContext, type Handlers } from '@argus/protocol';
import { manifest } from '@argus/protocol';
import type { Services } from '../services.js';
import { claimFor } from '../lease-claims.js';

type LeaseHandlers = Pick<Handlers['tabs'], 'lease' | 'release' | 'leases'>;

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000 } as const;

export function ttlMs(ttl: string): number {
  const ms = Number(ttl.slice(0, -1)) * UNIT_MS[ttl.slice(-1) as keyof typeof UNIT_MS];
  if (!(ms >= 1_000 && ms <= 3_600_000))
    throw new ArgusError('invalid_input', `--ttl ${ttl} is out of range: give between 1s and 1h (e.g. 30s, 5m).`);
  return ms;
}

/** Tab leases: take one (through the tab's queue, so it takes its turn), release, list. */
export function leaseHandlers(services: Services): LeaseHandlers {
  const { manager } = services;
  const claim = (ctx: CallContext, name: keyof LeaseHandlers) => claimFor(ctx, manifest.tabs[name]);
  return {
    lease: (input, ctx) => {
      const ttl = ttlMs(input.ttl);
      // admitted like any write: another client's lease is refused or waited for (--lease-wait)
      return manager.onTab(input.tab, async (page) => manager.leases.take(page.id, claim(ctx, 'lease'), ttl));
    },
    release: async (input, ctx) => ({ released: manager.leases.release(claim(ctx, 'release'), input.lease) }),
    leases: (_input, ctx) =>
      manager.structural(async (browser) => {
        // a shared token or named session sees the leases on its own tabs only
        const visible = new Set(manager.visibleTabs(browser).map((tab) => tab.id));
        return { leases: manager.leases.list(claim(ctx, 'leases'), (tab) => visible.has(tab)) };
      }),
  };
}
