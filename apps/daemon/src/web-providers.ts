import type { CallContext } from '@argus/protocol';
import { join } from 'node:path';
import {
  AGENT_POLICY,
  ArtifactStore,
  type BrowserTier,
  HttpClient,
  type NetworkPolicy,
  OPERATOR_POLICY,
  PageFetcher,
  Resilience,
  type SearchSettings,
  assertCidrList,
} from '@argus/providers';
import { ArgusError, isArgusError } from '@argus/protocol/errors';
import { hasScope } from '@argus/security';
import { checkDomain } from '@argus/security';
import type { BrowserManager } from './browser-manager.js';
import { RenderGuards } from './render-guards.js';
import { CrawlProgressHub } from './crawl-progress.js';
import type { ConfigStore } from './policy/config-store.js';

/**
 * The web providers as the daemon composes them: one HTTP client (connection pools), one set of
 * breakers and limits for every caller, and the browser tier backed by this daemon's Chromium.
 */
export class WebProviders {
  readonly http = new HttpClient();
  readonly resilience = new Resilience();
  readonly fetcher: PageFetcher;
  /** Crawl and research bundles: `<state dir>/artifacts` (0700), TTL 72 h. */
  readonly artifacts: ArtifactStore;
  /** Progress of running crawls, by the job id their caller chose. */
  readonly crawlProgress = new CrawlProgressHub();

  constructor(
    manager: BrowserManager,
    private readonly config: ConfigStore,
    stateDir: string,
    renderGuards: RenderGuards,
    private readonly resolveHost?: (host: string) => Promise<readonly string[]>,
  ) {
    this.fetcher = new PageFetcher(this.http, this.resilience, chromiumTier(manager, renderGuards));
    this.artifacts = new ArtifactStore(join(stateDir, 'artifacts'));
  }

  /**
   * Agents (MCP sessions, scoped and shared tokens) reach the public internet only, plus the ranges
   * the operator opened (`providers.agentNetworks`); the operator's own admin CLI reaches local
   * servers too. The MCP server runs with the root token, so it is told apart by the name it gives
   * itself (`mcp-…`): a label, but one only our MCP server sets, and it only narrows.
   */
  policyFor(ctx: Pick<CallContext, 'scopes' | 'owner' | 'client'>): NetworkPolicy {
    const agent = !hasScope(ctx.scopes, 'admin') || ctx.owner !== undefined || (ctx.client ?? '').startsWith('mcp');
    // the operator's domain policy (policy.domains) holds for every URL a provider opens, whoever
    // asks: the first one (authorize checks it too) and every redirect hop and crawled link after it
    const allowUrl = (url: string): string | undefined => {
      const domains = this.config.current().policy?.domains;
      if (!domains) return undefined;
      const verdict = checkDomain(domains, url);
      return verdict.allowed ? undefined : verdict.reason;
    };
    const resolve = this.resolveHost ? { resolve: this.resolveHost } : {};
    if (!agent) return { ...OPERATOR_POLICY, allowUrl, ...resolve };
    const openRanges = this.config.current().providers?.agentNetworks ?? [];
    assertCidrList(openRanges);
    return { ...AGENT_POLICY, ...(openRanges.length ? { openRanges } : {}), allowUrl, ...resolve };
  }

  /** `providers.search.*` (env ARGUS_BRAVE_API_KEY, ARGUS_SEARXNG_URL, ... fill the same keys), read per call. */
  searchSettings(): SearchSettings {
    return this.config.current().providers?.search ?? {};
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

/**
 * Renders in a fresh tab of the daemon's Chromium (never the caller's active tab, which stays as it
 * was) under the browser's own navigation guard, reads the DOM, and closes the tab on every path.
 */
function chromiumTier(manager: BrowserManager, guards: RenderGuards): BrowserTier {
  return {
    async render(url, options) {
      const browser = await manager.ensure();
      const page = await browser.newPage();
      // every document request of the render tab (redirect hops too) passes the caller's policy
      const unregister = guards.register(page.id, options.policy, (frameId) => frameId === page.mainFrameId);
      let unwatch = (): void => undefined;
      try {
        // an agent's render: every other request the page makes is address-checked too (one Fetch owner)
        if (RenderGuards.checksSubresources(options.policy)) {
          await page.interception.addPolicy(guards.subresources(page.id));
          unwatch = await guards.watchUncheckable(page.id, page.session);
        }
        const result = await page.navigate(url, { timeoutMs: options.timeoutMs ?? 20_000 }).catch((error: unknown) => {
          throw refused(guards, page.id, url) ?? error;
        });
        const refusal = refused(guards, page.id, url);
        if (refusal) throw refusal;
        const html = await page.evaluate<string>('document.documentElement.outerHTML');
        const blocked = guards.blocked(page.id);
        return { finalUrl: result.url, status: result.status, html, blockedRequests: blocked.requests };
      } finally {
        unwatch();
        unregister();
        await browser.closePage(page.id).catch(() => undefined);
      }
    },
  };
}

function refused(guards: RenderGuards, tabId: string, url: string): Error | undefined {
  const refusal = guards.refusal(tabId);
  if (refusal === undefined) return undefined;
  const code = isArgusError(refusal) ? refusal.code : 'policy_blocked';
  return new ArgusError(code, `The browser tier refused a request while rendering ${url}: ${refusal.message}`, {
    details: { ...(isArgusError(refusal) ? refusal.details : {}), url, retryable: false },
  });
}
