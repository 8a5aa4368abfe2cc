import { type FetchParty, type NavigationGuard, type Session, isResponseStage } from '@argus/cdp';
import {
  type BlockedRequest,
  type NetworkPolicy,
  type RequestChecker,
  assertHostAllowed,
  createRequestChecker,
} from '@argus/providers';

/** At most this many blocked requests are listed per render (a page may retry in a loop); the rest are counted. */
const LISTED = 50;

interface RenderTab {
  policy: NetworkPolicy;
  checker: RequestChecker;
  isMainFrame: (frameId: string) => boolean;
  refusal?: Error;
  blocked: BlockedRequest[];
  blockedTotal: number;
}

/**
 * The caller's network policy inside the browser tier. `web.fetch --browser` renders in a tab of its
 * own, registered here with the caller's policy. Every document request of that tab (the first
 * navigation, each redirect hop, page-started navigations) passes the domain policy and, for an
 * agent, the address guard (its host resolved; private, loopback, link-local and metadata addresses
 * refused), like the HTTP tier; a refused main-frame document fails the render with its code
 * (policy_denied / policy_blocked). For an agent, every other request of the tab (images, scripts,
 * XHR/fetch, frames, workers' requests) is held to the same address rules by `subresources`, with
 * one lookup per host per render; those are failed and listed, the render goes on.
 * Other tabs (the agent's own browsing) are not affected: goto has its own rules.
 */
export class RenderGuards {
  private readonly tabs = new Map<string, RenderTab>();

  /** Registers `tabId` for the render's duration; the returned function unregisters it. */
  register(tabId: string, policy: NetworkPolicy, isMainFrame: (frameId: string) => boolean = () => true): () => void {
    const checker = createRequestChecker(policy);
    this.tabs.set(tabId, { policy, checker, isMainFrame, blocked: [], blockedTotal: 0 });
    return () => this.tabs.delete(tabId);
  }

  /** The typed error the main document of this tab was refused with, if it was. */
  refusal(tabId: string): Error | undefined {
    return this.tabs.get(tabId)?.refusal;
  }

  /** The requests of this tab failed so far (the first 50) and how many in all. */
  blocked(tabId: string): { requests: BlockedRequest[]; total: number } {
    const tab = this.tabs.get(tabId);
    return { requests: [...(tab?.blocked ?? [])], total: tab?.blockedTotal ?? 0 };
  }

  /** Whether requests other than documents must be checked for this policy (agents: yes). */
  static checksSubresources(policy: NetworkPolicy): boolean {
    return !policy.allowPrivate;
  }

  readonly guard: NavigationGuard = async (request) => {
    const tab = this.tabs.get(request.tabId);
    if (!tab || request.url.startsWith('about:')) return undefined;
    try {
      await assertHostAllowed(request.url, tab.policy);
      return undefined;
    } catch (error) {
      const refusal = error instanceof Error ? error : new Error(String(error));
      // a frame of the page is one of its sub-resources: listed, the render goes on
      if (tab.isMainFrame(request.frameId)) tab.refusal = refusal;
      else record(tab, { url: request.url, type: 'Document', reason: refusal.message });
      return refusal.message;
    }
  };

  /**
   * The party of the render tab's Fetch owner that pauses every request but documents (the guard
   * above has those) and fails the ones the caller's policy refuses, before they leave the browser.
   * Two kinds of request never pass through Fetch: WebSockets, and the requests of a service worker
   * (a target of its own). So every document of the tab that is not in a range the operator opened
   * gets one more Content-Security-Policy (enforced alongside the page's own, it only narrows them):
   * `treat-as-public-address`, under which Chromium's Local Network Access refuses the document's
   * connections to loopback, private and link-local addresses (WebSockets included) with the address
   * it actually dials (no DNS rebinding between a check and the connect), and `worker-src blob: data:`,
   * so no worker is loaded from the network (a blob: worker's requests pause on the tab's sessions).
   */
  subresources(tabId: string): FetchParty {
    return {
      responses: true,
      patterns: () => [
        { urlPattern: '*', requestStage: 'Request' },
        { urlPattern: '*', resourceType: 'Document', requestStage: 'Response' },
      ],
      decide: async (event) => {
        const tab = this.tabs.get(tabId);
        if (!tab) return undefined;
        if (isResponseStage(event)) {
          // a redirect goes on as it is: its next hop is paused again
          const status = event.responseStatusCode;
          if (event.resourceType !== 'Document' || status === undefined || (status >= 300 && status < 400))
            return undefined;
          // a page of the operator's opened intranet keeps its address space (its own images are local)
          if (await tab.checker.opened(event.request.url)) return undefined;
          const headers = [...(event.responseHeaders ?? []), RENDER_CSP];
          return { action: 'rewriteHeaders', status, headers };
        }
        if (event.resourceType === 'Document') return undefined;
        const url = event.request.url;
        const reason = await tab.checker.check(url);
        if (reason === undefined) return undefined;
        record(tab, { url, type: event.resourceType, reason });
        return { action: 'fail', reason: 'BlockedByClient' };
      },
    };
  }

  /**
   * Lists what the render CSP refused as blocked requests of the tab: a worker from the network, and
   * each WebSocket to an address the policy refuses (Local Network Access refuses it in the browser).
   */
  async watchUncheckable(tabId: string, session: Session): Promise<() => void> {
    const offs = [
      session.on('Audits.issueAdded', ({ issue }) => {
        const details = issue.details.contentSecurityPolicyIssueDetails;
        const tab = this.tabs.get(tabId);
        if (!tab || !details?.blockedURL || details.isReportOnly || details.violatedDirective !== 'worker-src') return;
        record(tab, { url: details.blockedURL, type: 'Worker', reason: WORKER_REASON });
      }),
      session.on('Network.webSocketCreated', ({ url }) => {
        const tab = this.tabs.get(tabId);
        if (!tab) return;
        void tab.checker.check(url).then((reason) => {
          if (reason !== undefined) record(tab, { url, type: 'WebSocket', reason });
        });
      }),
    ];
    await session.send('Audits.enable');
    return () => {
      for (const off of offs) off();
    };
  }
}

/** Added to every document of an agent's render that is not in an opened range (see `subresources`). */
const RENDER_CSP = { name: 'Content-Security-Policy', value: 'treat-as-public-address; worker-src blob: data:' };

const WORKER_REASON =
  "workers loaded from the network do not run in an agent's render: their requests cannot be checked";

function record(tab: RenderTab, request: BlockedRequest): void {
  tab.blockedTotal++;
  if (tab.blocked.length < LISTED) tab.blocked.push(request);
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
