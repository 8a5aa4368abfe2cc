import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { DaemonStream } from './daemon-stream.js';

/** What `inbox.watch` streams: the unread count, and how many items the change brought. */
export interface InboxChange {
  unread: number;
  added: number;
  newest: string | null;
}

/** What the MCP server needs from its daemon link to hear about the person's annotations. */
export interface InboxSource {
  watchInbox(onChange: (change: InboxChange) => void, onEnd: () => void): Promise<() => void>;
}

/** The one line a tool response carries when annotations arrived: `1 new annotation from the user: argus_inbox to read`. */
export function inboxHint(count: number): string {
  return `${count} new annotation${count === 1 ? '' : 's'} from the user: argus_inbox to read`;
}

/**
 * Tells the agent that the person sent annotations, without it polling. The MCP server follows the
 * daemon's `inbox.watch` from its first tool call (so listing tools starts no daemon); when items
 * arrive it sends a `notifications/message` log notice (level notice, logger `argus.inbox`), which
 * every client may receive without subscribing to anything, and the next tool response of the
 * session carries the one-line hint. `argus_inbox` consuming clears the pending count. Models do not
 * see notifications in most clients, so the hint in a response is what reaches the agent.
 */
export class InboxNotifier {
  private readonly stream = new DaemonStream((onEnd) =>
    this.source.watchInbox((change) => this.changed(change), onEnd),
  );
  private pending = 0;
  /** The next change is the count at subscription. */
  private first = true;

  constructor(
    private readonly server: Server,
    private readonly source: InboxSource,
  ) {}

  /** Starts following the inbox (once; again after the daemon went away). */
  ensure(): Promise<void> {
    if (!this.stream.active) this.first = true;
    return this.stream.ensure();
  }

  /** The hint for this response, once: undefined when nothing arrived since the last one. */
  take(): string | undefined {
    if (this.pending === 0) return undefined;
    const line = inboxHint(this.pending);
    this.pending = 0;
    return line;
  }

  /** The agent read the inbox: nothing is new any more. */
  consumed(): void {
    this.pending = 0;
  }

  private changed(change: InboxChange): void {
    // the first message is the count at subscription: unread items this session has not been told of
    if (this.first) {
      this.first = false;
      this.pending = change.unread;
      return;
    }
    const arrived = change.added > 0 ? change.added : 0;
    if (change.unread === 0) this.pending = 0;
    else this.pending = Math.min(change.unread, this.pending + arrived);
    if (arrived > 0)
      void this.server
        .sendLoggingMessage({ level: 'notice', logger: 'argus.inbox', data: inboxHint(arrived) })
        .catch(() => undefined);
  }
}
