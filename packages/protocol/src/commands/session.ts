import { z } from 'zod';
import { defineCommand } from '../define.js';
import { TimeoutMs } from '../common.js';
import { PoolState } from './pool.js';

export const SessionMode = z
  .enum(['managed', 'connect', 'extension', 'pool'])
  .describe(
    'Where the browser comes from: launched by Argus, an existing Chrome over CDP, your own tabs through the extension, or a pool of remote CDP endpoints (one per session)',
  );

/** The relay the daemon hosts for the Chrome extension, and the extension's state as the relay sees it. */
export const ExtensionState = z.object({
  state: z
    .enum(['relay_stopped', 'waiting_for_extension', 'waiting_for_pair_approval', 'connected'])
    .describe(
      'relay_stopped: no relay yet (`argus connect --extension` starts it); waiting_for_pair_approval: run `argus pair <code>`',
    ),
  relayUrl: z.string().nullable().describe('URL to enter in the extension popup; null while the relay is stopped'),
  connected: z.boolean().describe('An extension is connected and authenticated'),
  paired: z.boolean().describe('At least one extension holds a pairing token'),
  nodeId: z.string().nullable().describe('Id of the connected extension node'),
  extensionVersion: z.string().nullable(),
  tabs: z.number().describe('Tabs the extension sees'),
  pendingPairings: z.number().describe('Pairing requests waiting for `argus pair <code>`'),
  lastError: z.string().nullable(),
});

const PendingPairing = z.object({
  code: z.string().describe('The code the extension popup shows, e.g. K7F-Q2M'),
  nodeId: z.string().describe('Node id the caller claims (compare it with the one the extension popup shows)'),
  name: z.string().nullable(),
  origin: z
    .string()
    .nullable()
    .describe(
      "The caller's Origin: chrome-extension://<id> for an extension, null for a local process (not the extension)",
    ),
  fromExtension: z
    .boolean()
    .describe('The request came with a chrome-extension:// Origin; requests without one are local processes'),
  fingerprint: z.string().describe('Short hash of origin + node id, e.g. 3F2A:91C0:7B44'),
  expiresInMs: z.number(),
});

export const sessionCommands = {
  disconnect: defineCommand({
    name: 'session.disconnect',
    cli: { verb: 'disconnect', examples: ['argus disconnect'] },
    tool: false,
    kind: 'mutation',
    scope: 'admin',
    summary:
      'Detach from a connected (--cdp) or extension browser and leave it and its tabs running; a browser Argus launched itself is closed instead (never left orphaned). The next command attaches (or launches) again.',
    input: () => z.object({}),
    output: () =>
      z.object({
        mode: SessionMode,
        action: z
          .enum(['detached', 'closed', 'none'])
          .describe(
            'detached: the browser runs on; closed: the launched browser was closed; none: no browser was attached',
          ),
      }),
  }),
  connect: defineCommand({
    name: 'session.connect',
    cli: {
      verb: 'connect',
      examples: [
        'argus connect --extension',
        'argus connect --extension --relay-port 9000',
        'argus connect --cdp http://127.0.0.1:9222',
        'argus connect --cdp http://10.0.0.5:9222 --allow-remote',
        'argus connect --pool http://127.0.0.1:9222,http://127.0.0.1:9223 --max-sessions 8',
        'argus connect --pool ws://grid.internal:3000?token=SECRET --allow-remote --restore-state',
        'argus connect --managed',
        'argus connect',
      ],
    },
    tool: false,
    kind: 'mutation',
    scope: 'admin',
    summary:
      'Switch the session mode: your own Chrome through the extension, an existing Chrome over CDP, a pool of remote CDP endpoints, or a browser Argus launches. Without a flag, shows the current mode.',
    input: () =>
      z.object({
        extension: z
          .boolean()
          .optional()
          .describe('Drive your own tabs through the Argus Chrome extension (starts the relay)'),
        cdp: z
          .string()
          .min(1)
          .max(2048)
          .optional()
          .describe(
            'Connect to an existing Chrome by CDP URL (http://host:port or ws://...); loopback only unless --allow-remote',
          ),
        pool: z
          .array(z.string().min(1).max(2048))
          .min(1)
          .max(64)
          .optional()
          .describe(
            'Keep a pool of remote CDP endpoints (http://host:port, ws://... of browserless, a Selenium Grid se:cdp URL or any Chrome with --remote-debugging-port; comma-separated or repeated) and place each session on one with a free slot',
          ),
        maxSessions: z
          .number()
          .int()
          .min(1)
          .max(1000)
          .optional()
          .describe('With --pool: sessions each endpoint holds at most (default pool.maxSessionsPerEndpoint, 4)'),
        restoreState: z
          .boolean()
          .optional()
          .describe(
            "With --pool: a session recreated after its endpoint died loads the session's last `state save` (cookies, storage, tabs)",
          ),
        allowRemote: z
          .boolean()
          .optional()
          .describe(
            'With --cdp or --pool: allow CDP URLs on another machine (its browser then runs whatever Argus sends it, unencrypted unless wss://)',
          ),
        managed: z.boolean().optional().describe('Go back to a browser Argus launches itself'),
        timeoutMs: TimeoutMs.optional().describe(
          'With --extension: wait up to this long for the extension to connect (default: do not wait)',
        ),
        relayPort: z
          .number()
          .int()
          .min(0)
          .max(65535)
          .optional()
          .describe(
            "With --extension: the relay's port for the rest of this daemon's life (default relay.port, 8787; 0 = any free port). A running relay moves there unless an extension is connected to it",
          ),
      }),
    output: () =>
      z.object({
        mode: SessionMode,
        previousMode: SessionMode,
        switched: z.boolean().describe('Whether the mode changed (the previous browser was closed or disconnected)'),
        cdpUrl: z.string().nullable(),
        pool: PoolState.nullable().describe('pool mode: the endpoints, their health and the sessions on each'),
        extension: ExtensionState,
      }),
  }),
  pair: defineCommand({
    name: 'session.pair',
    cli: { verb: 'pair', positionals: ['code'], examples: ['argus pair', 'argus pair K7F-Q2M'] },
    tool: false,
    kind: 'mutation',
    scope: 'admin',
    summary:
      "Approve the Chrome extension's pairing code (shown in its popup). Without a code, lists the pending requests.",
    input: () =>
      z.object({
        code: z.string().min(1).max(32).optional().describe('Pairing code shown by the extension popup, e.g. K7F-Q2M'),
      }),
    output: () =>
      z.object({
        approved: z.string().nullable().describe('The code approved by this call'),
        pending: z.array(PendingPairing),
        extension: ExtensionState,
      }),
  }),
};
