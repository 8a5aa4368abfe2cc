import { z } from 'zod';
import { defineCommand } from '../define.js';

const Pending = z.object({
  id: z.string().describe('Pass to `argus approve <id>` or `argus deny <id>`'),
  command: z.string().describe('The command waiting (contract path), or `form.submit` for a form the page submits'),
  summary: z.string().describe('What it would do, e.g. the file and target of an upload'),
  reason: z.string().describe('The policy rule that asked for the approval'),
  client: z.string().nullable().describe('Who asked (cli, mcp, a shared token)'),
  waitingMs: z.number(),
  expiresInMs: z.number().describe('Denied as approval_timeout when this reaches 0'),
});

const Decision = z.object({ id: z.string(), command: z.string(), decision: z.enum(['approved', 'denied']) });
const Id = z.string().min(1).max(64).describe('The approval id from `argus approvals`');

export const approvalsCommands = {
  list: defineCommand({
    name: 'approvals.list',
    cli: { verb: 'approvals', examples: ['argus approvals', 'argus approvals --json'] },
    // agents may see what waits for the operator (and why); only the operator decides
    tool: 'argus_approvals',
    kind: 'query',
    scope: 'read',
    summary: 'List commands waiting for an operator approval (policy.approve in the config).',
    input: () => z.object({}),
    output: () => z.object({ pending: z.array(Pending) }),
  }),
  watch: defineCommand({
    name: 'approvals.watch',
    cli: { verb: 'approvals --follow', examples: ['argus approvals --follow', 'argus approvals --follow --json'] },
    tool: false,
    kind: 'subscription',
    // what waits is no secret from callers that may list it; the MCP server watches so it can ask
    // its user (MCP elicitation) about the approvals its own calls wait for
    scope: 'read',
    summary: 'Stream commands as they start waiting for an approval (those already waiting first), until Ctrl-C.',
    input: () => z.object({}),
    output: () => Pending,
  }),
  approve: defineCommand({
    name: 'approvals.approve',
    cli: { verb: 'approve', positionals: ['id'], examples: ['argus approve a7f3'] },
    tool: false,
    kind: 'mutation',
    scope: 'admin',
    summary: 'Approve a waiting command: it runs now.',
    input: () => z.object({ id: Id }),
    output: () => Decision,
  }),
  deny: defineCommand({
    name: 'approvals.deny',
    cli: { verb: 'deny', positionals: ['id'], examples: ['argus deny a7f3'] },
    tool: false,
    kind: 'mutation',
    scope: 'admin',
    summary: 'Deny a waiting command: it fails with approval_denied.',
    input: () => z.object({ id: Id }),
    output: () => Decision,
  }),
};
