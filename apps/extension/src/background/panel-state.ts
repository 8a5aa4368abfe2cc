import { RELAY_EVENTS, type RelayEventName, type RelayEventParams } from '@argus/relay/wire';
import { FEED_KEEP, SESSION_KEYS } from '../shared/messages.js';

export type PanelFeedEntry = RelayEventParams<'panel.feed'>;
export type PanelInbox = RelayEventParams<'panel.inbox'>;

/**
 * The side panel's data, kept by the worker in session storage so a panel opened later (or
 * reopened) shows it at once: the agent's last FEED_KEEP commands, newest first, and the unread
 * inbox as the daemon last pushed it. The panel re-renders on storage changes; nothing polls.
 * Writes run one after another: two feed entries arriving together must not overwrite each other.
 */
export class PanelState {
  private writes: Promise<unknown> = Promise.resolve();

  /** Takes a relay event; anything that is not a well-formed panel event is dropped. */
  receive(event: string, params: unknown): void {
    if (!Object.hasOwn(RELAY_EVENTS, event)) return;
    const parsed = RELAY_EVENTS[event as RelayEventName].safeParse(params);
    if (!parsed.success) return;
    if (event === 'panel.feed') this.serial(() => this.addFeed(parsed.data as PanelFeedEntry));
    else this.serial(() => chrome.storage.session.set({ [SESSION_KEYS.inbox]: parsed.data }));
  }

  private async addFeed(entry: PanelFeedEntry): Promise<void> {
    const key = SESSION_KEYS.feed;
    const stored = (await chrome.storage.session.get(key))[key];
    const feed = Array.isArray(stored) ? (stored as PanelFeedEntry[]) : []; // written only here
    feed.unshift(entry);
    await chrome.storage.session.set({ [key]: feed.slice(0, FEED_KEEP) });
  }

  private serial(write: () => Promise<unknown>): void {
    this.writes = this.writes.then(write).catch(() => undefined);
  }
}
