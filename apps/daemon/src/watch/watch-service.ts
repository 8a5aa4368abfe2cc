import type { Page } from '@argus/cdp';
import type { BrowserManager } from '../browser-manager.js';
import type { LocateTab } from '../journal/journal.js';
import type { Logger } from '../logger.js';
import type { LeaseClaim } from '../tab-leases.js';
import type { Recording } from './recorder.js';
import { ScreencastHub } from './screencast-hub.js';
import { WatchFeed } from './watch-feed.js';
import { WatchServer } from './watch-server.js';
import { WatchTokens } from './watch-tokens.js';

/** A link minted outside any call (never in practice): it proves no lease. */
const NO_CLAIM: LeaseClaim = { write: true, presented: [], waitMs: 0, name: 'a watch viewer' };

/**
 * Live watch and recording of tabs: one screencast per tab shared by viewers and recordings, the
 * watch links' tokens, the feed of commands per tab and the watch listener (opened on first use).
 */
export class WatchService {
  readonly tokens = new WatchTokens();
  readonly hub = new ScreencastHub();
  readonly feed: WatchFeed;
  readonly server: WatchServer;
  /** Recordings by tab: running ones, and ones that ended by themselves until `screencast stop` reports them. */
  readonly recordings = new Map<string, Recording>();

  constructor(
    manager: BrowserManager,
    locate: LocateTab,
    log: Logger,
    onActivity: () => void,
    /** The daemon's environment: its PATH says where ffmpeg is (not this process's, which a test or embedder may not control). */
    readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.feed = new WatchFeed(locate);
    this.server = new WatchServer({
      tokens: this.tokens,
      hub: this.hub,
      feed: this.feed,
      pageOf: (tab) => manager.current?.page(tab),
      log,
      onActivity,
      leaseRefusal: (tab, claim) => {
        // a view-only link never writes; a --control link writes as the client that asked for it
        const blocker = manager.leases.blocker(tab, { ...(claim ?? NO_CLAIM), write: true, waitMs: 0 });
        if (!blocker) return undefined;
        return `Tab ${tab} is leased by ${blocker.holder}: input from this watch link is refused. Ask the holder to \`argus tab release\`, or have the lease holder create the link (\`argus --lease <id> watch --control\`).`;
      },
    });
    // a closed tab ends its screencast, recordings and links at once (not when its session detaches later)
    manager.onStart(async (browser) => {
      browser.onPage((event, page) => {
        if (event !== 'removed') return;
        this.hub.pageClosed(page);
        this.tokens.revokeTab(page.id);
        this.feed.forget(page.id);
      });
    });
  }

  /** A watch link for a tab: the page's URL with the tab and a fresh token in the fragment. */
  async link(
    page: Page,
    control: boolean,
    ttlMs: number,
    claim?: LeaseClaim,
  ): Promise<{ url: string; expiresAt: string }> {
    const port = await this.server.port();
    const { secret, grant } = this.tokens.mint(page.id, control, ttlMs, claim);
    const fragment = new URLSearchParams({ tab: page.id, token: secret }).toString();
    return { url: `http://127.0.0.1:${port}/watch#${fragment}`, expiresAt: new Date(grant.expiresAt).toISOString() };
  }

  /** Viewers connected now: a watched daemon is in use, so it does not stop for being idle. */
  get viewers(): number {
    return this.server.viewers;
  }

  /** Daemon stop: recordings write their manifests, viewers are disconnected, the listener closes. */
  async close(): Promise<void> {
    await Promise.all([...this.recordings.values()].map((recording) => recording.stop('stopped')));
    await this.server.close();
  }
}
