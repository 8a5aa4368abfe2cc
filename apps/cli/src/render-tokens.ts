type Output = Record<string, unknown>;

interface TokenView {
  id: string;
  kind: string;
  name: string | null;
  scope: string;
  commands: string[] | null;
  expiresAt: string | null;
  lastUsedAt: string | null;
  expired: boolean;
}

function tokenLine(token: TokenView): string {
  const who = token.name ? ` ${token.name}` : '';
  const expiry = token.expiresAt ? `  ${token.expired ? 'expired' : 'expires'} ${token.expiresAt}` : '';
  const used = token.kind === 'shared' ? `  last used ${token.lastUsedAt ?? 'never'}` : '';
  const commands = token.commands ? `  ${token.commands.length} commands` : '';
  return `${token.id}  ${token.kind}${who}  ${token.scope}${expiry}${used}${commands}`;
}

/** Token commands: secrets are printed once (create, share), never by the listing. */
export const tokenRenderers: Record<string, (output: Output) => string> = {
  'token.create': (output) => `${output.token}\n[${output.scope} token; shown once; valid until the daemon stops]`,
  'token.share': (output) =>
    [
      `${output.token}`,
      `[shown once; stored only as a hash. id ${output.id}, client ${output.name}, ${output.scope}, expires ${output.expiresAt}]`,
      `tunnel  ${output.url}  (tRPC ${output.url}/trpc, MCP ${output.url}/mcp; send it as "Authorization: Bearer <token>")`,
      `allows  ${(output.commands as string[]).join(' ')}`,
    ].join('\n'),
  'token.list': (output) =>
    [
      ...(output.tokens as TokenView[]).map(tokenLine),
      `tunnel  ${output.tunnel ?? 'not listening (argus share opens it)'}`,
    ].join('\n'),
  'token.revoke': (output) =>
    `revoked ${output.kind} token ${output.revoked}${output.kind === 'shared' ? ` (${output.closedTabs} tabs closed)` : ''}`,
};
