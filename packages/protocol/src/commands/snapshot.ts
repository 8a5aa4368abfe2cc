import { z } from 'zod';
import { defineCommand } from '../define.js';
import { TabId, Target, Title, UnreportedDialogs } from '../common.js';

/**
 * How much of a snapshot, or of a page's text, an agent gets when it names no maxChars: about 12,000
 * tokens. A snapshot cut there ends with its cursor; a scope, a target or a larger maxChars reach more.
 * (The 24 real pages' full snapshots run to 200 KB; the CLI prints whole ones.)
 */
export const AGENT_READ_MAX_CHARS = 50_000;

export const snapshotCommands = {
  take: defineCommand({
    name: 'snapshot.take',
    cli: {
      verb: 'snapshot',
      aliases: { i: 'interactive', d: 'depth', s: 'scope' },
      examples: [
        'argus snapshot',
        'argus snapshot -i',
        'argus snapshot --diff',
        'argus snapshot --scope "#main" --depth 4',
        'argus snapshot --max-chars 4000',
      ],
    },
    tool: 'argus_snapshot',
    kind: 'mutation',
    scope: 'read',
    summary:
      'Accessibility snapshot of the page as compact text: `role "name" [state] e12`; the eN that closes an element is its ref for later commands.',
    input: () =>
      z.object({
        // no default: a diff that names no view (interactive, depth, scope) takes the last snapshot's
        interactive: z
          .boolean()
          .optional()
          .describe('Only interactive elements, with the nearest heading or landmark as context'),
        depth: z.number().int().min(1).max(100).optional().describe('Maximum tree depth to print'),
        scope: Target.optional().describe('Only the subtree of this target or landmark'),
        maxChars: z
          .number()
          .int()
          .min(200)
          .max(10_000_000)
          .optional()
          .describe('Cut at a line boundary after N characters; returns a cursor'),
        cursor: z.string().min(1).max(64).optional().describe('Continue a cut snapshot from this cursor'),
        diff: z
          .boolean()
          .default(false)
          .describe(
            "Only lines added (+), removed (-) or changed (~) since this tab's last snapshot in this view (default: the last one's)",
          ),
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        url: z.string(),
        title: Title,
        text: z
          .string()
          .describe(
            'The snapshot, one node a line: role "name" eN [states]: value; in interactive mode same-role siblings share a line: link "A" e1 "B" e2',
          ),
        refs: z.number().describe('How many refs the snapshot carries'),
        truncated: z.boolean().describe('Whether the text was cut at maxChars'),
        cursor: z.string().optional().describe('Pass as --cursor to get the rest'),
        pageChanged: z
          .boolean()
          .optional()
          .describe(
            "With cursor, true when the page's document changed since the snapshot was cut (its DOM was modified; absent when it did not): the lines are the page as it was then. Take a new snapshot to see what changed",
          ),
        baseline: z
          .enum(['previous', 'none', 'navigated'])
          .optional()
          .describe(
            'With diff: previous (only lines changed since it), none (no earlier snapshot in this mode) or navigated (the earlier one was of another document): then the full snapshot, the baseline of the next diff',
          ),
        dialogs: UnreportedDialogs,
      }),
    pageContent: ['text'],
  }),
};
