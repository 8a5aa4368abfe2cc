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
import { hasScope } from '@argus/security';
import type { BrowserManager } from './browser-manager.js';
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

  constructor(
    manager: BrowserManager,
    private readonly config: ConfigStore,
    stateDir: string,
  ) {
    this.fetcher = new PageFetcher(this.http, this.resilience, chromiumTier(manager));
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
    if (!agent) return OPERATOR_POLICY;
    const openRanges = this.config.current().providers?.agentNetworks ?? [];
    assertCidrList(openRanges);
    return openRanges.length ? { ...AGENT_POLICY, openRanges } : AGENT_POLICY;
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
function chromiumTier(manager: BrowserManager): BrowserTier {
  return {
    async render(url, options) {
      const browser = await manager.ensure();
      const page = await browser.newPage();
      try {
        const result = await page.navigate(url, { timeoutMs: options.timeoutMs ?? 20_000 });
        const html = await page.evaluate<string>('document.documentElement.outerHTML');
        return { finalUrl: result.url, status: result.status, html };
      } finally {
        await browser.closePage(page.id).catch(() => undefined);
      }
    },
  };
}
