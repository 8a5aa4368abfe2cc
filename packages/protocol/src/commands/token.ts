import { z } from 'zod';
import { defineCommand } from '../define.js';

export const tokenCommands = {
  create: defineCommand({
    name: 'token.create',
    cli: { verb: 'token create', examples: ['argus token create --scope read', 'argus token create --scope write --json'] },
    tool: false,
    kind: 'mutation',
    scope: 'admin',
    summary: 'Mint a bearer token with a narrower scope (read < write < admin) for a skill or a remote agent. Tokens live in memory until the daemon stops.',
    input: z.object({
      scope: z.enum(['read', 'write', 'admin']).default('read').describe('What the token may do: read (inspect), write (also act on pages), admin (everything)'),
    }),
    output: z.object({
      token: z.string().describe('The new bearer token; shown once'),
      scope: z.enum(['read', 'write', 'admin']),
      tokens: z.number().describe('Tokens the daemon now accepts, the root token included'),
    }),
  }),
};
