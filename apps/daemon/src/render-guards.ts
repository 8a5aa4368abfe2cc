import type { NavigationGuard } from '@argus/cdp';
import { type NetworkPolicy, assertHostAllowed } from '@argus/providers';

/**
 * The caller's network policy inside the browser tier. `web.fetch --browser` renders in a tab of its
 * own, registered here with the caller's policy; every document request of that tab (the first
 * navigation, each redirect hop, frames, page-started navigations) passes the domain policy and, for
 * an agent, the address guard (its host resolved; private, loopback, link-local and metadata
 * addresses refused), like the HTTP tier. The refusal keeps its code (policy_denied / policy_blocked).
 * Other tabs (the agent's own browsing) are not affected: goto has its own rules.
 */
export class RenderGuards {
  private readonly policies = new Map<string, NetworkPolicy>();
  private readonly refusals = new Map<string, Error>();

  /** Registers `tabId` for the render's duration; the returned function unregisters it. */
  register(tabId: string, policy: NetworkPolicy): () => void {
    this.policies.set(tabId, policy);
    this.refusals.delete(tabId);
    return () => {
      this.policies.delete(tabId);
      this.refusals.delete(tabId);
    };
  }

  /** The typed error a request of this tab was refused with, if one was. */
  refusal(tabId: string): Error | undefined {
    return this.refusals.get(tabId);
  }

  readonly guard: NavigationGuard = async (request) => {
    const policy = this.policies.get(request.tabId);
    if (!policy || request.url.startsWith('about:')) return undefined;
    try {
      await assertHostAllowed(request.url, policy);
      return undefined;
    } catch (error) {
      const refusal = error instanceof Error ? error : new Error(String(error));
      this.refusals.set(request.tabId, refusal);
      return refusal.message;
    }
  };
}

/** Both guards in turn: the first refusal wins. */
export function chainGuards(...guards: NavigationGuard[]): NavigationGuard {
  return async (request) => {
    for (const guard of guards) {
      const reason = await guard(request);
      if (reason !== undefined) return reason;
    }
    return undefined;
  };
}
