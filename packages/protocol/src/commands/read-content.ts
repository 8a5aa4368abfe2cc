import { z } from 'zod';
import { defineCommand } from '../define.js';
import { TabId, Target, UnreportedDialogs } from '../common.js';

export const readContentCommands = {
  text: defineCommand({
    name: 'read.text',
    cli: { verb: 'text', positionals: ['target'], examples: ['argus text', 'argus text e12', 'argus text "#result"'] },
    tool: 'argus_text',
    kind: 'query',
    scope: 'read',
    summary: 'Visible text of the page or of one element.',
    input: () =>
      z.object({
        target: Target.optional(),
        maxChars: z
          .number()
          .int()
          .min(1)
          .max(10_000_000)
          .default(200_000)
          .describe('Cut the text after this many characters'),
        tab: TabId.optional(),
      }),
    output: () => z.object({ text: z.string(), truncated: z.boolean(), dialogs: UnreportedDialogs }),
    pageContent: ['text'],
  }),
  html: defineCommand({
    name: 'read.html',
    cli: { verb: 'html', positionals: ['target'] },
    tool: false,
    kind: 'query',
    scope: 'read',
    summary: 'Outer HTML of the page or of one element.',
    input: () =>
      z.object({
        target: Target.optional(),
        maxChars: z
          .number()
          .int()
          .min(1)
          .max(50_000_000)
          .default(1_000_000)
          .describe('Truncate after this many characters'),
        tab: TabId.optional(),
      }),
    output: () => z.object({ html: z.string(), truncated: z.boolean(), dialogs: UnreportedDialogs }),
    pageContent: ['html'],
  }),
};
