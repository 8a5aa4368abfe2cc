import { z } from 'zod';
import { defineCommand } from '../define.js';

/**
 * A named session's name: what `--session NAME` / `ARGUS_SESSION` carry (the `x-argus-session`
 * header). `default` is the daemon's own browser context, the one every call without a name uses.
 */
export const SessionName = z
  .string()
  .regex(
    /^[A-Za-z0-9][\w.-]{0,63}$/,
    'A session name is 1-64 letters, digits, `.`, `_` or `-`, starting with a letter or digit',
  )
  .describe('Session name (letters, digits, . _ -)');

const SessionInfo = z.object({
  name: z.string().describe('`default` is the browser context calls without --session use'),
  tabs: z.number().int().describe('Open tabs in this session'),
  activeUrl: z.string().nullable().describe("URL of the session's active tab, null when it has none"),
  current: z.boolean().describe('The session this call ran in'),
});

export const namedSessionCommands = {
  list: defineCommand({
    name: 'sessions.list',
    cli: { verb: 'sessions', examples: ['argus sessions', 'argus --session shop goto https://example.com'] },
    tool: 'argus_sessions',
    kind: 'query',
    scope: 'read',
    summary:
      'List named sessions: isolated browser contexts (own cookies, storage, tabs and refs) in the same browser, chosen with --session NAME or ARGUS_SESSION.',
    input: () => z.object({}),
    output: () => z.object({ sessions: z.array(SessionInfo) }),
    // the active tab's URL is page-derived
    pageContent: ['sessions'],
  }),
  close: defineCommand({
    name: 'sessions.close',
    cli: { verb: 'session close', positionals: ['name'], examples: ['argus session close shop'] },
    tool: 'argus_session_close',
    kind: 'mutation',
    scope: 'write',
    summary: 'Close a named session: its tabs, and its browser context with every cookie and storage entry in it.',
    input: () => z.object({ name: SessionName }),
    output: () =>
      z.object({
        name: z.string(),
        closedTabs: z.number().int(),
        existed: z.boolean().describe('False when no session by that name was open (nothing to do)'),
      }),
  }),
};
