import { z } from 'zod';
import { defineCommand } from '../define.js';
import { TabId } from '../common.js';
import { SessionMode } from './session.js';

/** How long a handoff may wait for the person: a number and s, m or h (`90s`, `15m`), 10 s to 24 h. */
const HandoffTimeout = z
  .string()
  .regex(/^\d{1,5}[smh]$/, 'a number and s, m or h, e.g. 90s, 15m, 1h')
  .default('15m')
  .describe('How long the person has before the handoff ends by itself (10s..24h), e.g. 15m');

/** What changed while the person had the tab: never a cookie value. */
const HandoffChanges = z.object({
  url: z.string().describe('URL of the tab when the handoff ended'),
  title: z.string().describe('Title of the tab when the handoff ended'),
  urlChanged: z.boolean().describe('Whether the URL differs from when the handoff started'),
  cookiesAdded: z.array(z.string()).describe('Names (name@domain) of cookies that appeared; values are never shown'),
  cookiesChanged: z.array(z.string()).describe('Names (name@domain) of cookies whose value or expiry changed'),
  cookiesRemoved: z.array(z.string()).describe('Names (name@domain) of cookies that went away'),
});

/** A handoff as `argus status` and the commands show it. */
export const HandoffInfo = z.object({
  tab: z.string().describe('Tab the person has (its id may change when the browser is relaunched)'),
  mode: SessionMode.describe(
    "managed: the browser was relaunched headed; extension: your own tab; connect: the connected browser; pool: the session's endpoint",
  ),
  reason: z.string().describe('What the person was asked to do'),
  url: z.string().describe('URL of the tab when the handoff started'),
  startedAt: z.string().describe('ISO 8601'),
  expiresAt: z.string().describe('When it ends by itself (ISO 8601)'),
});

const HandoffResult = HandoffInfo.extend({
  state: z
    .enum(['waiting', 'done', 'resumed', 'timeout', 'tab_closed'])
    .describe(
      'waiting: the person has the tab (without --wait); done: they pressed Done; resumed: `argus resume` ended it; timeout; tab_closed',
    ),
  changes: HandoffChanges.nullable().describe('What changed while the person had the tab; null while still waiting'),
});

export const handoffCommands = {
  start: defineCommand({
    name: 'handoff.start',
    cli: {
      verb: 'handoff',
      examples: [
        'argus handoff --reason "Log in, then press Done" --wait',
        'argus handoff --timeout 30m',
        'argus handoff --wait   # join a handoff that is already running',
      ],
    },
    tool: 'argus_handoff',
    kind: 'mutation',
    scope: 'write',
    summary:
      "Hand the tab to a person (a login, a CAPTCHA, a consent wall): a managed browser is relaunched headed on the same page with its cookies and storage; in extension mode the user's tab is brought to the front. A banner in the page shows the reason and a Done button. With --wait, returns when the person presses Done (or `argus resume`), with what changed: URL, title, names of new or changed cookies (never values).",
    input: () =>
      z.object({
        tab: TabId.optional(),
        reason: z
          .string()
          .trim()
          .min(1)
          .max(200)
          .default('Finish here, then press Done')
          .describe('What the person should do, shown in the banner'),
        wait: z
          .boolean()
          .default(false)
          .describe(
            'Wait until the person presses Done (or `argus resume`, or the timeout); also joins a running handoff',
          ),
        timeout: HandoffTimeout,
      }),
    output: () => HandoffResult,
    pageContent: ['changes'],
  }),
  resume: defineCommand({
    name: 'handoff.resume',
    cli: { verb: 'resume', examples: ['argus resume'] },
    tool: 'argus_resume',
    kind: 'mutation',
    scope: 'write',
    summary:
      'End the running handoff as if the person pressed Done: the banner goes, a managed browser returns to headless with the new cookies; returns what changed.',
    input: () => z.object({}),
    output: () => HandoffResult,
    pageContent: ['changes'],
  }),
};
