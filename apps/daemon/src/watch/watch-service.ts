import type { Page } from '@argus/cdp';
import type { BrowserManager } from '../browser-manager.js';
import type { LocateTab } from '../journal/journal.js';
import type { Logger } from '../logger.js';
import type { Recording } from './recorder.js';
import { ScreencastHub } from './screencast-hub.js';
import { WatchFeed } from './watch-feed.js';
import { WatchServer } from './watch-server.js';
import { WatchTokens } from './watch-tokens.js';

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

  constructor(manager: BrowserManager, locate: LocateTab, log: Logger, onActivity: () => void) {
    this.feed = new WatchFeed(locate);
    this.server = new WatchServer({
      tokens: this.tokens,
      hub: this.hub,
      feed: this.feed,
      pageOf: (tab) => manager.current?.page(tab),
      log,
      onActivity,
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
  async link(page: Page, control: boolean, ttlMs: number): Promise<{ url: string; expiresAt: string }> {
    const port = await this.server.port();
    const { secret, grant } = this.tokens.mint(page.id, control, ttlMs);
    const fragment = new URLSearchParams({ tab: page.id, token: secret }).toString();
    return { url: `http://127.0.0.1:${port}/watch#${fragment}`, expiresAt: new Date(grant.expiresAt).toISOString() };
  }

  /** Daemon stop: recordings write their manifests, viewers are disconnected, the listener closes. */
  async close(): Promise<void> {
    await Promise.all([...this.recordings.values()].map((recording) => recording.stop('stopped')));
    await this.server.close();
  }
}
