import type { AnyCommand, Authorize, CallContext } from '@argus/protocol';
import { ArgusError } from '@argus/protocol';
import type { ArgusConfig } from '@argus/protocol/config';
import { type NavigationGuard } from '@argus/cdp';
import { checkDomain, hostMatches, networkHost } from '@argus/security';
import type { Logger } from '../logger.js';
import type { ApprovalQueue } from './approvals.js';

type Policy = NonNullable<ArgusConfig['policy']>;

/** Commands whose `url` input is a page the browser is about to load. */
const NAVIGATING = new Set(['page.goto', 'tabs.open', 'web.fetch']);
/** Never held for approval: approving them is how a wait ends. */
const NEVER_HELD = new Set(['approvals', 'config', 'daemon']);
export const DEFAULT_APPROVAL_TIMEOUT_MS = 120_000;

/**
 * Which entry of `policy.approve.commands` holds this command: a contract path (`files.upload`), a
 * namespace (`state`), a CLI verb (`upload`, `cookie set`) or its first word (`cookie`).
 */
export function approvalRule(entries: readonly string[] | undefined, command: AnyCommand): string | undefined {
  if (!entries?.length) return undefined;
  const [namespace] = command.name.split('.');
  if (NEVER_HELD.has(namespace ?? '')) return undefined;
  const verb = command.cli === false ? undefined : command.cli.verb;
  return entries.find(
    (entry) =>
      entry === command.name ||
      entry === namespace ||
      (verb !== undefined && (entry === verb || entry === verb.split(' ')[0])),
  );
}

function summarize(input: unknown): string {
  const text = JSON.stringify(input) ?? '';
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

export interface PolicyDeps {
  policy: () => Policy | undefined;
  approvals: ApprovalQueue;
  log: Logger;
}

function deny(deps: PolicyDeps, ctx: Pick<CallContext, 'client'>, command: string, reason: string, url: string): never {
  deps.log.warn('policy.denied', { command, reason, url: url.slice(0, 500), client: ctx.client });
  throw new ArgusError(
    'policy_denied',
    `${command} refused by the operator's policy: ${reason}. Pick another site, or ask the operator to change policy.domains (\`argus config list\`).`,
    {
      details: { reason },
    },
  );
}

/** The policy part of the daemon's `authorize` (after the token checks): the domain policy, then approvals. */
export function createPolicyAuthorize(deps: PolicyDeps): Authorize {
  return async (ctx, command, input) => {
    const policy = deps.policy();
    if (!policy) return;
    const url = (input as { url?: unknown } | null)?.url;
    if (NAVIGATING.has(command.name) && typeof url === 'string') {
      const verdict = checkDomain(policy.domains, url);
      if (!verdict.allowed) deny(deps, ctx, command.name, verdict.reason, url);
    }
    const rule = approvalRule(policy.approve?.commands, command);
    if (rule !== undefined) {
      await deps.approvals.request({
        command: command.name,
        summary: summarize(input),
        reason: `policy.approve.commands lists "${rule}"`,
        client: ctx.client,
        timeoutMs: policy.approve?.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
        signal: ctx.signal,
      });
    }
  };
}

/**
 * The same policy for documents the page loads by itself (links, scripts, redirects, popups, form
 * submits): a blocked host fails with Chrome's blocked page; a form submit on a `submitOn` host
 * waits for an approval.
 */
export function createNavigationGuard(deps: PolicyDeps): NavigationGuard {
  return async (request) => {
    const policy = deps.policy();
    if (!policy) return undefined;
    const verdict = checkDomain(policy.domains, request.url);
    if (!verdict.allowed) {
      deps.log.warn('policy.blocked_navigation', {
        tab: request.tabId,
        url: request.url.slice(0, 500),
        reason: verdict.reason,
      });
      return verdict.reason;
    }
    const target = networkHost(request.url);
    if (request.formSubmission && target && hostMatches(policy.approve?.submitOn, target.host, target.port)) {
      try {
        await deps.approvals.request({
          command: 'form.submit',
          summary: `${request.method} ${request.url.slice(0, 300)}`,
          reason: `policy.approve.submitOn lists ${target.host}`,
          client: 'page',
          timeoutMs: policy.approve?.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
        });
      } catch (error) {
        return (error as Error).message;
      }
    }
    return undefined;
  };
}
