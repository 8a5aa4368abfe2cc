import { z } from 'zod';
import { defineCommand } from '../define.js';

const Layer = z
  .enum(['default', 'user', 'project', 'env', 'flags'])
  .describe('Where the value comes from: default, user file, project file, environment, flags');

const Entry = z.object({
  key: z.string(),
  value: z.unknown().describe('The effective value (null when unset and without a default)'),
  source: Layer,
  where: z.string().nullable().describe('The file or environment variable that set it'),
  env: z.string().nullable().describe('The environment variable for this key, if any'),
  description: z.string(),
});

export const configCommands = {
  get: defineCommand({
    name: 'config.get',
    cli: {
      verb: 'config get',
      positionals: ['key'],
      examples: ['argus config get chrome.headless', 'argus config get policy.domains.deny --json'],
    },
    tool: false,
    kind: 'query',
    scope: 'read',
    summary:
      'Show one configuration key: its effective value and which layer set it (user file < project file < environment < flags).',
    input: () =>
      z.object({
        key: z.string().min(1).max(200).describe('A config key such as chrome.headless (see `argus config list`)'),
      }),
    output: () => Entry,
  }),
  set: defineCommand({
    name: 'config.set',
    cli: {
      verb: 'config set',
      positionals: ['key', 'value'],
      examples: [
        'argus config set chrome.headless false',
        'argus config set policy.domains.deny \'["*.evil.test"]\'',
        'argus config set policy.approve.commands upload,download --user',
        'argus config set idleTimeoutMs --unset',
      ],
    },
    tool: false,
    kind: 'mutation',
    scope: 'admin',
    summary:
      'Set (or --unset) a configuration key in the project file (.argus/config.json) or, with --user, in ~/.config/argus/config.json. Policy keys apply at once; browser keys at the next daemon start.',
    input: () =>
      z.object({
        key: z.string().min(1).max(200).describe('A config key such as chrome.headless'),
        value: z
          .unknown()
          .optional()
          .describe('The value: JSON (false, 8787, ["a","b"]) or plain text; a list also takes a,b,c'),
        user: z
          .boolean()
          .default(false)
          .describe('Write the user file (~/.config/argus/config.json) instead of the project file'),
        unset: z.boolean().default(false).describe('Remove the key from the file instead of setting it'),
      }),
    output: () =>
      z.object({
        key: z.string(),
        value: z.unknown().describe('The value now in the file (null after --unset)'),
        file: z.string().describe('The file written (mode 0600)'),
        effective: z.unknown().describe('The value in effect after every layer (environment and flags still win)'),
        restartNeeded: z.boolean().describe('True for keys read only at daemon start (browser, state dir, ports)'),
      }),
  }),
  list: defineCommand({
    name: 'config.list',
    cli: { verb: 'config list', examples: ['argus config list', 'argus config list --json'] },
    tool: false,
    kind: 'query',
    scope: 'read',
    summary: 'List every configuration key with its effective value and source, and the files read.',
    input: () => z.object({}),
    output: () =>
      z.object({
        files: z.object({ user: z.string(), project: z.string() }),
        entries: z.array(Entry),
      }),
  }),
};
