import { z } from 'zod';
import { defineCommand } from '../define.js';
import { JournalState } from './journal.js';
import { ExtensionState, SessionMode } from './session.js';
import { PoolState } from './pool.js';
import { LeaseInfo } from './leases.js';
import { HandoffInfo } from './handoff.js';

export const daemonCommands = {
  status: defineCommand({
    name: 'daemon.status',
    cli: { verb: 'status', examples: ['argus status', 'argus status --json'] },
    tool: false,
    kind: 'query',
    scope: 'read',
    summary: 'Show the daemon, its browser and its tabs.',
    input: () => z.object({}),
    output: () =>
      z.object({
        version: z.string(),
        pid: z.number(),
        uptimeMs: z.number(),
        mode: SessionMode,
        stateDir: z.string(),
        logFile: z.string(),
        idleTimeoutMs: z.number(),
        browser: z.object({
          running: z.boolean(),
          pid: z.number().nullable(),
          version: z.string().nullable(),
          crashed: z.boolean(),
          launches: z.number(),
        }),
        tabs: z.number(),
        activeTab: z.string().nullable(),
        tokens: z
          .number()
          .optional()
          .describe('Bearer tokens the daemon accepts (the root token plus those from `token create`)'),
        extension: ExtensionState.optional().describe('The extension relay and the extension connected to it'),
        pool: PoolState.optional().describe(
          'pool mode: the remote endpoints, their health and the sessions placed on each',
        ),
        journal: JournalState.optional().describe(
          'The command journal (<state dir>/journal.db) and whether it is writing',
        ),
        profile: z
          .string()
          .nullable()
          .optional()
          .describe('The persistent profile the browser uses (null: a fresh temporary profile)'),
        leases: z.array(LeaseInfo).optional().describe('Tab leases held by clients (`argus tab lease`)'),
        paused: z
          .array(z.object({ tab: z.string(), since: z.string() }))
          .optional()
          .describe('Tabs the person paused the agent on (extension side panel): commands on them wait for Resume'),
        scheduler: z
          .object({
            running: z.number().describe('Tab commands running now'),
            waiting: z.number().describe('Tab commands waiting for a free slot'),
            maxParallel: z.number().describe('Cap on tab commands running at once across tabs (maxParallelCommands)'),
          })
          .optional()
          .describe('The tab command scheduler: FIFO per tab, parallel across tabs up to the cap'),
        handoffs: z
          .array(HandoffInfo)
          .optional()
          .describe('Tabs handed to a person (`argus handoff`) until they press Done or `argus resume`'),
      }),
  }),
  stop: defineCommand({
    name: 'daemon.stop',
    cli: { verb: 'stop', examples: ['argus stop', 'argus stop --if-alone'] },
    tool: false,
    kind: 'mutation',
    scope: 'admin',
    summary:
      'Stop the daemon: a browser it launched is closed; a connected, extension or pool browser is let go and keeps running.',
    input: () =>
      z.object({
        ifAlone: z
          .boolean()
          .optional()
          .describe(
            'Stop only if no other client called in the last 5 minutes or holds a stream open (argus mcp uses it when its agent leaves)',
          ),
      }),
    output: () =>
      z.object({
        stopping: z.boolean(),
        others: z
          .array(z.string())
          .optional()
          .describe('With ifAlone: the other clients that keep the daemon running (empty when it stops)'),
        browser: z
          .enum(['closed', 'left_running', 'none'])
          .optional()
          .describe(
            'What stopping does to the browser: closed (one Argus launched), left_running (a connected, extension or pool browser: Argus only disconnects), none (no browser attached)',
          ),
        poolSessions: z
          .number()
          .int()
          .optional()
          .describe(
            "pool mode: sessions released (their browser contexts end with Argus's connection to each endpoint)",
          ),
      }),
  }),
  restart: defineCommand({
    name: 'daemon.restart',
    cli: { verb: 'restart', examples: ['argus restart'] },
    tool: false,
    kind: 'mutation',
    scope: 'admin',
    summary:
      "Restart the daemon and its browser, keeping cookies, local storage and the tabs' URLs; the CLI waits for the new daemon.",
    input: () => z.object({}),
    output: () =>
      z.object({
        restarting: z.boolean(),
        pid: z.number().describe('The daemon that is stopping'),
        tabs: z.array(z.string()).describe('URLs the new daemon reopens'),
        cookies: z.number().describe('Cookies carried over'),
        newPid: z.number().nullable().describe('The new daemon (filled in by the CLI once it is up)'),
      }),
  }),
};
