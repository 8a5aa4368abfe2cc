import { z } from 'zod';
import { defineCommand } from '../define.js';
import { TabId } from '../common.js';

export const cdpCommands = {
  send: defineCommand({
    name: 'cdp.send',
    cli: {
      verb: 'cdp',
      positionals: ['method', 'params'],
      examples: [
        'argus cdp Page.getLayoutMetrics',
        'argus cdp DOM.getDocument \'{"depth":1}\'',
        'argus cdp Accessibility.queryAXTree \'{"role":"button"}\' --json',
      ],
    },
    tool: false,
    kind: 'mutation',
    scope: 'admin',
    summary:
      'Send one raw Chrome DevTools Protocol command to a tab (admin only). Deny-by-default: read-only DOM/CSS/Accessibility/layout methods run; others only when policy.cdp.allow lists them.',
    input: () =>
      z.object({
        method: z.string().min(3).max(100).describe('Domain.method, e.g. DOM.getDocument'),
        params: z.record(z.string(), z.unknown()).optional().describe('The method parameters as a JSON object'),
        tab: TabId.optional(),
      }),
    output: () => z.object({ method: z.string(), result: z.unknown().describe('The raw CDP result') }),
    pageContent: ['result'],
  }),
};
