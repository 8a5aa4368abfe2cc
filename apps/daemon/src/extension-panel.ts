import { commandByName } from '@argus/protocol';
import type { PanelInboxItem, RelayEventName, RelayEventParams } from '@argus/relay/wire';
import type { BrowserManager } from './browser-manager.js';
import type { InboxStore } from './inbox/inbox-store.js';
import type { FeedEntry, WatchFeed } from './watch/watch-feed.js';

/** Inbox items the panel is sent (newest first); the count says how many more there are. */
const PANEL_INBOX_ITEMS = 20;
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export interface ExtensionPanelDeps {
  manager: Pick<BrowserManager, 'mode'>;
  feed: WatchFeed;
  inbox: InboxStore;
  /** Pushes an event to the connected extension (RelayHost.notify); false when none is connected. */
  notify: <E extends RelayEventName>(event: E, params: RelayEventParams<E>) => boolean;
}

/**
 * What the extension's side panel shows: each command an agent runs on the user's tabs (from the
 * watch feed, so inputs are already redacted by the journal's redactor) and the unread inbox after
 * every change. Pushed over the relay socket as it happens; nothing polls. Returns a stop function.
 */
export function startExtensionPanel(deps: ExtensionPanelDeps): { pushInbox(): void; stop(): void } {
  const pushInbox = () => void deps.notify('panel.inbox', panelInbox(deps.inbox));
  const offFeed = deps.feed.followAll((tab, entry) => {
    // only the user's own tabs (extension mode) are the panel's business
    if (deps.manager.mode !== 'extension' || !actsOnTab(entry)) return;
    deps.notify('panel.feed', panelFeedEntry(tab, entry));
  });
  const offInbox = deps.inbox.onChange(pushInbox);
  return {
    pushInbox,
    stop() {
      offFeed();
      offInbox();
    },
  };
}

/** Commands that act on a tab (their input names one) or open/close/select tabs; not status calls. */
function actsOnTab(entry: FeedEntry): boolean {
  const command = commandByName(entry.command);
  if (!command) return false;
  return 'tab' in command.input.shape || (command.name.startsWith('tabs.') && command.scope !== 'read');
}

export function panelFeedEntry(tab: string, entry: FeedEntry): RelayEventParams<'panel.feed'> {
  const command = commandByName(entry.command);
  return {
    targetId: clip(tab, 128),
    at: entry.at,
    verb: clip(command && command.cli !== false ? command.cli.verb : entry.command, 64),
    target: entry.target === null ? null : clip(entry.target, 300),
    ok: entry.ok,
    error: entry.error === null ? null : clip(entry.error, 64),
  };
}

/** The unread items, newest first, cut to what the wire schema allows. */
export function panelInbox(inbox: InboxStore): RelayEventParams<'panel.inbox'> {
  const unread = inbox.list({ unread: true });
  const items = unread
    .slice(-PANEL_INBOX_ITEMS)
    .reverse()
    .map(
      (item): PanelInboxItem => ({
        id: item.id,
        createdAt: item.createdAt,
        url: clip(item.url, 2048),
        title: clip(item.title, 300),
        elements: item.elements.slice(0, 50).map((element) => ({
          note: clip(element.note, 600),
          locator: element.locator === null ? null : clip(element.locator, 400),
        })),
      }),
    );
  return { unread: unread.length, items };
}
