import { z } from 'zod';
import { defineCommand } from '../define.js';

/**
 * What a shared token (`argus share`) may run when `--commands` is not given: the everyday read and
 * act set. No `eval`, nothing that takes a file path, no cookies, state, tokens or configuration.
 */
export const DEFAULT_SHARE_COMMANDS = [
  'page.goto',
  'page.back',
  'page.forward',
  'page.reload',
  'page.url',
  'page.scroll',
  'page.screenshot',
  'page.wait',
  'snapshot.take',
  'read.text',
  'read.title',
  'read.links',
  'read.forms',
  'input.click',
  'input.fill',
  'input.select',
  'input.press',
  'input.type',
  'input.hover',
  'input.check',
  'input.uncheck',
  'input.scrollIntoView',
  'inspect.is',
  'inspect.attrs',
  'tabs.list',
  'tabs.open',
  'tabs.select',
  'tabs.close',
  'capture.dialogs',
  'capture.dialogAccept',
  'capture.dialogDismiss',
] as const;

/**
 * Commands a shared token can never get, even when listed in `--commands`: they reach the operator's
 * files, the browser profile as a whole (cookies, storage state, sessions), or the daemon itself.
 */
export const NEVER_SHARED_PREFIXES = [
  'token.',
  'session.',
  'daemon.',
  'state.',
  'files.',
  'route.',
  'watch.',
  'screencast.',
] as const;
export const NEVER_SHARED_COMMANDS = [
  'inspect.cookies',
  'inspect.storage',
  'inspect.storageSet',
  'dom.loadHtml',
  'capture.debugTrace',
  'visual.archive',
  'visual.pdf',
  'visual.responsive',
] as const;

const ShareScope = z.enum(['read', 'write']);

const TokenInfo = z.object({
  id: z.string().describe('Token id (a prefix of the sha256 of the secret; the secret itself is never shown again)'),
  kind: z
    .enum(['root', 'local', 'shared'])
    .describe('root: the daemon token; local: `token create`, main listener; shared: `argus share`, tunnel listener'),
  name: z.string().nullable().describe('Client name (shared tokens)'),
  scope: z.enum(['read', 'write', 'admin']),
  commands: z.array(z.string()).nullable().describe('Allowed commands (shared tokens)'),
  createdAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  expired: z.boolean(),
});

export const tokenCommands = {
  create: defineCommand({
    name: 'token.create',
    cli: {
      verb: 'token create',
      examples: ['argus token create --scope read', 'argus token create --scope write --json'],
    },
    tool: false,
    kind: 'mutation',
    scope: 'admin',
    summary:
      'Mint a bearer token with a narrower scope (read < write < admin) for a skill or a local agent on the main listener. Tokens live in memory until the daemon stops; for a remote agent use `argus share`.',
    input: () =>
      z.object({
        scope: z
          .enum(['read', 'write', 'admin'])
          .default('read')
          .describe('What the token may do: read (inspect), write (also act on pages), admin (everything)'),
      }),
    output: () =>
      z.object({
        token: z.string().describe('The new bearer token; shown once'),
        scope: z.enum(['read', 'write', 'admin']),
        tokens: z.number().describe('Tokens the daemon now accepts, the root token included'),
      }),
  }),
  share: defineCommand({
    name: 'token.share',
    cli: {
      verb: 'share',
      examples: [
        'argus share --name laptop-agent',
        'argus share --name ci --scope read --ttl 2h',
        'argus share --name bot --commands goto,snapshot,click,text --ttl 30m',
        'argus share --name lan --listen 0.0.0.0:9444 --i-know',
      ],
    },
    tool: false,
    kind: 'mutation',
    scope: 'admin',
    summary:
      'Mint a token for a remote agent: bound to a client name, an expiry and a command allow-list, valid only on the tunnel listener (started on 127.0.0.1 if needed), seeing and acting on its own tabs only. The secret is printed once and stored hashed.',
    input: () =>
      z.object({
        name: z
          .string()
          .regex(/^[A-Za-z0-9._-]{1,64}$/, 'letters, digits, . _ - (1-64)')
          .describe('Client name the token is bound to (shown in `argus tokens` and the log)'),
        scope: ShareScope.default('write').describe('read: inspect only; write: also act on its tabs (never admin)'),
        ttl: z
          .string()
          .regex(/^\d{1,6}[smhd]$/, 'a number and s, m, h or d, e.g. 30m, 24h, 7d')
          .default('24h')
          .describe('How long the token lives, e.g. 30m, 24h, 7d (at most 30d)'),
        commands: z
          .array(z.string().min(1).max(64))
          .max(200)
          .optional()
          .describe(
            'Allowed commands as CLI verbs or contract paths (goto or page.goto); default: the everyday read/act set',
          ),
        listen: z
          .string()
          .max(300)
          .optional()
          .describe('host:port of the tunnel listener (default 127.0.0.1 and a free port, or the one used before)'),
        iKnow: z
          .boolean()
          .default(false)
          .describe('Required to listen on anything but loopback: the token is then the only protection'),
      }),
    output: () =>
      z.object({
        token: z.string().describe('The bearer token; shown once, stored only as a hash'),
        id: z.string(),
        name: z.string(),
        scope: ShareScope,
        commands: z.array(z.string()),
        expiresAt: z.string(),
        url: z.string().describe('Tunnel base URL: tRPC at <url>/trpc, MCP (Streamable HTTP) at <url>/mcp'),
      }),
  }),
  list: defineCommand({
    name: 'token.list',
    cli: { verb: 'tokens', examples: ['argus tokens', 'argus tokens --json'] },
    tool: false,
    kind: 'query',
    scope: 'admin',
    summary:
      'List the tokens the daemon accepts (root, local, shared) with scope, expiry and last use; never the secrets.',
    input: () => z.object({}),
    output: () =>
      z.object({
        tokens: z.array(TokenInfo),
        tunnel: z.string().nullable().describe('Tunnel listener URL, when it runs'),
      }),
  }),
  revoke: defineCommand({
    name: 'token.revoke',
    cli: { verb: 'token revoke', positionals: ['id'], examples: ['argus token revoke 3f9a1c2b7d4e'] },
    tool: false,
    kind: 'mutation',
    scope: 'admin',
    summary: "Revoke a local or shared token at once by id (from `argus tokens`); a shared token's tabs are closed.",
    input: () =>
      z.object({
        id: z.string().min(4).max(64).describe('Token id from `argus tokens` (a unique prefix is enough)'),
      }),
    output: () => z.object({ revoked: z.string(), kind: z.enum(['local', 'shared']), closedTabs: z.number() }),
  }),
};
