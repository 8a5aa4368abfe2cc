import { z } from 'zod';
import { defineCommand } from '../define.js';

/** A look-back window: a number and s, m, h or d (`90s`, `30m`, `1h`, `7d`). */
const Window = z
  .string()
  .regex(/^\d{1,6}[smhd]$/, 'a number and s, m, h or d, e.g. 30m, 1h, 7d')
  .describe('Only entries newer than this, e.g. 30m, 1h, 7d');

const Filters = {
  since: Window.optional(),
  command: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe('Only this command: a contract path (input.click) or its CLI verb (click)'),
  errors: z.boolean().default(false).describe('Only failed commands'),
  session: z.string().min(1).max(64).optional().describe('Only commands of this session'),
};

export const JournalEntry = z.object({
  id: z.number().describe('Row id (ascending in time)'),
  at: z.string().describe('When the command started (ISO 8601)'),
  client: z.string().nullable().describe('The name the client gave itself (`cli`, `mcp-…`, a shared token name)'),
  clientKind: z.string().describe('cli, mcp, trpc (a script) or remote (a shared token)'),
  scope: z.string().describe("The caller token's scopes"),
  session: z.string().nullable().describe('Named session (null: the default one)'),
  tab: z.string().nullable(),
  urlBefore: z.string().nullable(),
  urlAfter: z.string().nullable(),
  command: z.string().describe('Contract path'),
  input: z.string().nullable().describe('The input as JSON, secrets replaced by [redacted]'),
  durationMs: z.number(),
  ok: z.boolean(),
  errorCode: z.string().nullable(),
  error: z.string().nullable().describe('The error message (secrets of the input removed)'),
});

export const JournalState = z.object({
  path: z.string(),
  ok: z.boolean().describe('false: the journal cannot write (commands still run); see error'),
  error: z.string().nullable(),
  written: z.number().describe('Rows written since the daemon started'),
  dropped: z.number().describe('Rows lost because the journal could not write'),
  queued: z.number(),
});

export const journalCommands = {
  list: defineCommand({
    name: 'journal.list',
    cli: {
      verb: 'journal',
      examples: [
        'argus journal --since 1h',
        'argus journal --command click --errors',
        'argus journal --json --limit 20',
      ],
    },
    tool: false,
    kind: 'query',
    // the journal holds every client's commands and URLs: only the operator reads it
    scope: 'admin',
    summary:
      'Read the command journal: every command any client ran (time, client, tab, URL before/after, input with secrets redacted, duration, outcome), newest last.',
    input: () =>
      z.object({
        ...Filters,
        limit: z.number().int().min(1).max(10_000).default(100).describe('At most this many entries (the newest)'),
      }),
    output: () => z.object({ entries: z.array(JournalEntry), journal: JournalState }),
  }),
  export: defineCommand({
    name: 'journal.export',
    cli: {
      verb: 'journal export',
      examples: ['argus journal export --out journal.jsonl', 'argus journal export --since 7d > week.jsonl'],
    },
    tool: false,
    kind: 'mutation',
    scope: 'admin',
    summary: 'Export the command journal as JSON lines (one entry per line, oldest first) to a file, or print it.',
    input: () =>
      z.object({
        ...Filters,
        out: z.string().min(1).max(4096).optional().describe('Write to this file (relative to your directory)'),
        overwrite: z.boolean().default(false).describe('Replace an existing --out file'),
        limit: z
          .number()
          .int()
          .min(1)
          .max(1_000_000)
          .default(100_000)
          .describe('At most this many entries (the newest)'),
      }),
    output: () =>
      z.object({
        count: z.number(),
        path: z.string().nullable().describe('The file written (null: the lines are in `jsonl`)'),
        jsonl: z.string().nullable(),
      }),
  }),
};
