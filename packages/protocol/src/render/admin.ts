import { duration } from './format.js';
import type { OutputOf, RenderersOf } from './types.js';

type Token = OutputOf<'token.list'>['tokens'][number];

function tokenLine(token: Token): string {
  const who = token.name ? ` ${token.name}` : '';
  const expiry = token.expiresAt ? `  ${token.expired ? 'expired' : 'expires'} ${token.expiresAt}` : '';
  const used = token.kind === 'shared' ? `  last used ${token.lastUsedAt ?? 'never'}` : '';
  const commands = token.commands ? `  ${token.commands.length} commands` : '';
  return `${token.id}  ${token.kind}${who}  ${token.scope}${expiry}${used}${commands}`;
}

/** Token commands: secrets are printed once (create, share), never by the listing. */
export const tokenRenderers: RenderersOf<'token'> = {
  'token.create': (output) => `${output.token}\n[${output.scope} token; shown once; valid until the daemon stops]`,
  'token.share': (output) =>
    [
      output.token,
      `[shown once; stored only as a hash. id ${output.id}, client ${output.name}, ${output.scope}, expires ${output.expiresAt}]`,
      `tunnel  ${output.url}  (tRPC ${output.url}/trpc, MCP ${output.url}/mcp; send it as "Authorization: Bearer <token>")`,
      `allows  ${output.commands.join(' ')}`,
    ].join('\n'),
  'token.list': (output) =>
    [...output.tokens.map(tokenLine), `tunnel  ${output.tunnel ?? 'not listening (argus share opens it)'}`].join('\n'),
  'token.revoke': (output) =>
    `revoked ${output.kind} token ${output.revoked}${output.kind === 'shared' ? ` (${output.closedTabs} tabs closed)` : ''}`,
};

const json = (value: unknown) => JSON.stringify(value) ?? 'undefined';
type Entry = OutputOf<'config.get'>;
const entryLine = (entry: Entry) =>
  `${entry.key} = ${json(entry.value)}  (${entry.source}${entry.where ? `: ${entry.where}` : ''})`;

export const configRenderers: RenderersOf<'config'> = {
  'config.get': (output) =>
    [entryLine(output), output.description, ...(output.env ? [`environment variable ${output.env}`] : [])].join('\n'),
  'config.set': (output) =>
    [
      `${output.key} = ${json(output.value)} in ${output.file}`,
      ...(json(output.effective) === json(output.value)
        ? []
        : [`in effect: ${json(output.effective)} (a later layer wins)`]),
      ...(output.restartNeeded ? ['takes effect when the daemon restarts (`argus stop`, then any command)'] : []),
    ].join('\n'),
  'config.list': (output) =>
    [
      `user file    ${output.files.user}`,
      `project file ${output.files.project}`,
      ...output.entries.map(entryLine),
    ].join('\n'),
};

type Pending = OutputOf<'approvals.watch'>;
const pendingLine = (item: Pending) =>
  `${item.id}  ${item.command}  ${item.summary}  (${item.reason}; ${item.client ?? 'unknown client'}; waiting ${duration(item.waitingMs)}, expires in ${duration(item.expiresInMs)})`;

export const approvalsRenderers: RenderersOf<'approvals'> = {
  'approvals.list': (output) => output.pending.map(pendingLine).join('\n') || '(no commands waiting for approval)',
  'approvals.watch': pendingLine,
  'approvals.approve': (output) => `${output.decision} ${output.id} (${output.command})`,
  'approvals.deny': (output) => `${output.decision} ${output.id} (${output.command})`,
};

export const cdpRenderers: RenderersOf<'cdp'> = {
  'cdp.send': (output) => JSON.stringify(output.result, null, 2) ?? '(no result)',
};
