import { z } from 'zod';

/** Sessions each pool endpoint holds at most when neither the flag nor the config says (pool.maxSessionsPerEndpoint). */
export const DEFAULT_POOL_MAX_SESSIONS = 4;

/** One remote CDP endpoint of the pool, as the daemon sees it now. */
export const PoolEndpointState = z.object({
  url: z.string().describe('The endpoint (credentials in its query string are shown as ***)'),
  health: z
    .enum(['unchecked', 'healthy', 'down'])
    .describe('unchecked: not reached yet; healthy: the last Browser.getVersion answered; down: it did not'),
  version: z.string().nullable().describe('Browser.getVersion product of the last answer'),
  sessions: z
    .array(z.string())
    .describe("The caller's own sessions placed on it (`default` is the session of calls without --session)"),
  others: z.number().int().describe("Other clients' sessions placed on it: counted, never named"),
  maxSessions: z.number().int().describe('Sessions it holds at most'),
  lastError: z.string().nullable().describe('Why it was last found down'),
});

/** The remote browser pool of `argus connect --pool`. */
export const PoolState = z.object({
  endpoints: z.array(PoolEndpointState),
  healthIntervalMs: z.number().int().describe('How often each endpoint is asked Browser.getVersion'),
  restoreState: z
    .boolean()
    .describe("A session recreated after its endpoint died loads the session's last `state save` first"),
  lost: z
    .array(z.string())
    .describe(
      "The caller's sessions whose endpoint died: their next command reports browser_lost, the one after recreates them",
    ),
  othersLost: z.number().int().describe("Other clients' sessions whose endpoint died (counted, never named)"),
});
