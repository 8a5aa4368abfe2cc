import { z } from 'zod';
import { defineCommand } from '../define.js';
import { TabId } from '../common.js';

/** A lease's time to live: a number and s, m or h (`30s`, `5m`), between 1 s and 1 h. */
export const LeaseTtl = z
  .string()
  .regex(/^\d{1,4}[smh]$/, 'a number and s, m or h, e.g. 30s, 5m')
  .default('60s')
  .describe(
    'How long the lease lasts without activity from its holder (1s..1h); every command of the holder on the tab renews it',
  );

/** What anyone may see of a lease: never its secret id. */
export const LeaseInfo = z.object({
  tab: z.string().describe('Tab id the lease is on'),
  holder: z.string().describe('Who holds it: the name its client gave (informational), e.g. cli, mcp-1234-ab12'),
  ttlMs: z.number().describe('Lifetime without activity, renewed by each command of the holder on the tab'),
  expiresAt: z.string().describe('When it ends unless renewed (ISO time)'),
  expiresInMs: z.number().describe('Milliseconds left'),
  yours: z.boolean().describe('Whether the caller holds it (presented its id, or took it on this connection)'),
});

export const leaseCommands = {
  lease: defineCommand({
    name: 'tabs.lease',
    cli: {
      verb: 'tab lease',
      examples: [
        'argus tab lease',
        'argus tab lease --tab 2 --ttl 5m',
        'export ARGUS_LEASE=$(argus tab lease --json | jq -r .lease)',
      ],
    },
    tool: 'argus_tab_lease',
    kind: 'mutation',
    scope: 'write',
    summary:
      "Take an exclusive lease on a tab (default: the active one): others' writes on it fail with tab_leased (or wait with --lease-wait) until it is released or expires; reads still work. Returns the lease id the holder sends back (ARGUS_LEASE / --lease / x-argus-lease).",
    input: () => z.object({ tab: TabId.optional(), ttl: LeaseTtl }),
    output: () =>
      LeaseInfo.extend({
        lease: z.string().describe('The lease id: the secret that proves the lease; send it back with every command'),
        renewed: z.boolean().describe('True when the caller already held this tab and the lease was renewed'),
      }),
  }),
  release: defineCommand({
    name: 'tabs.release',
    cli: {
      verb: 'tab release',
      positionals: ['lease'],
      examples: ['argus tab release', 'argus tab release lease_3kQ…'],
    },
    tool: 'argus_tab_release',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Release a tab lease: the one named, else every lease the caller presents (ARGUS_LEASE) or took on this connection.',
    input: () =>
      z.object({
        lease: z
          .string()
          .min(1)
          .max(200)
          .optional()
          .describe("The lease id `tab lease` returned; default: the caller's own"),
      }),
    output: () => z.object({ released: z.array(z.string()).describe('Tab ids whose lease ended') }),
  }),
  leases: defineCommand({
    name: 'tabs.leases',
    cli: { verb: 'tab leases', examples: ['argus tab leases', 'argus tab leases --json'] },
    tool: 'argus_tab_leases',
    kind: 'query',
    scope: 'read',
    summary: 'List tab leases: tab, holder, expiry (never the lease ids).',
    input: () => z.object({}),
    output: () => z.object({ leases: z.array(LeaseInfo) }),
  }),
};
