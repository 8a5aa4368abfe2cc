import { z } from 'zod';
import { defineCommand } from '../define.js';

/** Most commands one batch or chain may carry. */
export const MAX_BATCH = 50;

const Step = z.object({
  command: z.string().min(3).max(100).describe('Contract path of the command, e.g. page.goto (see docs/SURFACE.md)'),
  input: z
    .record(z.string(), z.unknown())
    .default({})
    .describe('Input object of that command, as its tool or script takes it'),
});

const StepError = z.object({
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});

const StepResult = z.object({
  index: z.number().describe('Position in the request, from 0'),
  command: z.string(),
  ok: z.boolean(),
  output: z.unknown().optional().describe("The command's output when ok"),
  error: StepError.optional().describe("The command's error when not ok"),
});

export const batchCommands = {
  chain: defineCommand({
    name: 'batch.chain',
    cli: {
      verb: 'chain',
      examples: [
        `echo '[["goto","example.com"],["snapshot","-i"],["click","e3"]]' | argus chain`,
        `argus chain < steps.json`,
      ],
    },
    tool: 'argus_chain',
    kind: 'mutation',
    scope: 'read',
    summary: `Run up to ${MAX_BATCH} commands in order and stop at the first error (reported with its step). The CLI reads a JSON array of [verb, ...args] on stdin. Each step is validated and authorized like a single command.`,
    input: () => z.object({ steps: z.array(Step).min(1).max(MAX_BATCH).describe('The commands, in order') }),
    output: () =>
      z.object({
        ok: z.boolean().describe('Whether every step succeeded'),
        failedStep: z.number().nullable().describe('Index (from 0) of the step that failed; later steps did not run'),
        results: z.array(StepResult).describe('One result per step that ran'),
      }),
    pageContent: ['results'],
  }),
  run: defineCommand({
    name: 'batch.run',
    cli: {
      verb: 'batch',
      examples: [
        `echo '[{"command":"page.url","input":{}},{"command":"read.text","input":{"target":"h1"}}]' | argus batch`,
      ],
    },
    tool: 'argus_batch',
    kind: 'mutation',
    scope: 'read',
    summary: `Run up to ${MAX_BATCH} commands in one request, with one result (or error) each; a failure does not stop the others. Commands for different tabs run in parallel, those for the same tab in order. The CLI reads a JSON array of {command, input} on stdin.`,
    input: () =>
      z.object({
        commands: z.array(Step).min(1).max(MAX_BATCH).describe('The commands; `input.tab` picks the tab of each'),
      }),
    output: () =>
      z.object({
        succeeded: z.number(),
        failed: z.number(),
        results: z.array(StepResult).describe('One result per command, in request order'),
      }),
    pageContent: ['results'],
  }),
  tabEach: defineCommand({
    name: 'batch.tabEach',
    cli: {
      verb: 'tab-each',
      positionals: ['command'],
      examples: ['argus tab-each url', 'argus tab-each text h1', 'argus tab-each eval "document.readyState"'],
    },
    tool: 'argus_tab_each',
    kind: 'mutation',
    scope: 'read',
    summary:
      'Run one command on every open tab (in parallel), with one result per tab. The CLI takes a verb and its arguments: `argus tab-each <verb> [args]`.',
    input: () =>
      z.object({
        command: z.string().min(3).max(100).describe('Contract path of a command that takes a tab, e.g. page.url'),
        input: z.record(z.string(), z.unknown()).default({}).describe('Its input, without `tab`'),
      }),
    output: () =>
      z.object({
        results: z.array(
          z.object({
            tab: z.string(),
            url: z.string(),
            ok: z.boolean(),
            output: z.unknown().optional(),
            error: StepError.optional(),
          }),
        ),
      }),
    pageContent: ['results'],
  }),
};
