import type { Page } from '@argus/cdp';
import { type WebSocket } from 'ws';
import type { Logger } from '../logger.js';
import type { FrameSink, ScreencastFrame, ScreencastHub } from './screencast-hub.js';
import type { FeedEntry, WatchFeed } from './watch-feed.js';
import type { WatchGrant, WatchTokens } from './watch-tokens.js';

export interface ViewerDeps {
  tokens: WatchTokens;
  hub: ScreencastHub;
  feed: WatchFeed;
  /** The open page of a tab id, if the browser has it (never launches a browser or opens a tab). */
  pageOf(tab: string): Page | undefined;
  log: Logger;
  onActivity(): void;
  /** Why a --control viewer's input is refused on this tab now (another client leases it), else undefined. */
  leaseRefusal(tab: string, claim: WatchGrant['claim']): string | undefined;
}

/** Close codes a viewer sees (4000-4999 are the application's). */
export const CLOSE = { unauthorized: 4401, otherTab: 4403, gone: 4404 } as const;

/** A viewer that has not authenticated within this long is dropped. */
const AUTH_WINDOW_MS = 5_000;
/** Frames handed to the socket and not yet written out; past this the newest waits and older ones are dropped. */
const MAX_IN_FLIGHT = 2;
/** Largest frame edge a viewer gets. */
const VIEW_SIZE = 1280;

type ViewerMessage =
  | { type: 'auth'; tab: string; token: string }
  | { type: 'click'; x: number; y: number }
  | { type: 'key'; key: string };

/** Parses a viewer's message; anything else is undefined (never thrown on). */
function parse(raw: string): ViewerMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object') return undefined;
  const message = value as Record<string, unknown>;
  if (message.type === 'auth' && typeof message.tab === 'string' && typeof message.token === 'string')
    return { type: 'auth', tab: message.tab, token: message.token };
  const inUnit = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 1;
  if (message.type === 'click' && inUnit(message.x) && inUnit(message.y))
    return { type: 'click', x: message.x, y: message.y };
  if (message.type === 'key' && typeof message.key === 'string' && message.key.length > 0 && message.key.length <= 32)
    return { type: 'key', key: message.key };
  return undefined;
}

/**
 * One viewer socket: the first message must carry a watch token for the tab the viewer asks for;
 * then it gets the tab's frames (binary), its URL and the commands run on it (JSON text). Input is
 * dispatched only for a token minted with --control.
 */
export function serveViewer(socket: WebSocket, deps: ViewerDeps): void {
  const authTimer = setTimeout(() => socket.close(CLOSE.unauthorized, 'No watch token sent'), AUTH_WINDOW_MS);
  const cleanups: Array<() => void> = [() => clearTimeout(authTimer)];
  let grant: WatchGrant | undefined;
  let page: Page | undefined;
  let lastFrame: ScreencastFrame | undefined;
  let lastUrl = '';

  const text = (message: object) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  const sendUrl = () => {
    if (page && page.url !== lastUrl) {
      lastUrl = page.url;
      text({ type: 'url', url: page.url, title: page.title });
    }
  };

  // slow viewers lose frames, never memory: at most MAX_IN_FLIGHT frames queued plus the newest one waiting
  let inFlight = 0;
  let waiting: ScreencastFrame | undefined;
  const sendFrame = (frame: ScreencastFrame) => {
    lastFrame = frame;
    if (socket.readyState !== socket.OPEN) return;
    if (inFlight >= MAX_IN_FLIGHT) {
      waiting = frame;
      return;
    }
    inFlight++;
    socket.send(frame.data, { binary: true }, () => {
      inFlight--;
      const next = waiting;
      waiting = undefined;
      if (next) sendFrame(next);
    });
    sendUrl();
  };

  const start = (message: { tab: string; token: string }) => {
    const check = deps.tokens.check(message.token);
    if (!check.ok) {
      deps.log.warn('watch.denied', { reason: check.reason });
      return socket.close(
        CLOSE.unauthorized,
        check.reason === 'expired'
          ? 'This watch link expired: run `argus watch` again'
          : 'Wrong or missing watch token',
      );
    }
    if (check.grant.tab !== message.tab) {
      deps.log.warn('watch.denied', { reason: 'other_tab', tokenId: check.grant.id });
      return socket.close(CLOSE.otherTab, 'This watch token is for another tab');
    }
    const found = deps.pageOf(check.grant.tab);
    if (!found || found.closed) return socket.close(CLOSE.gone, 'The watched tab is closed');
    grant = check.grant;
    page = found;
    lastUrl = page.url;
    deps.onActivity();
    text({
      type: 'hello',
      tab: grant.tab,
      control: grant.control,
      url: page.url,
      title: page.title,
      commands: deps.feed.last(grant.tab),
    });
    const sink: FrameSink = {
      frame: sendFrame,
      ended: () => socket.close(CLOSE.gone, 'The watched tab closed'),
    };
    cleanups.push(
      deps.hub.subscribe(page, sink, VIEW_SIZE),
      deps.feed.follow(grant.tab, (entry: FeedEntry) => {
        text({ type: 'command', entry });
        sendUrl();
      }),
    );
  };

  const input = async (message: Extract<ViewerMessage, { type: 'click' | 'key' }>) => {
    if (!grant?.control || !page) {
      deps.log.warn('watch.input_refused', { tokenId: grant?.id ?? null });
      return text({
        type: 'error',
        message:
          'This watch link is view only: input is refused. Run `argus watch --control` for one that may click and type.',
      });
    }
    const leased = deps.leaseRefusal(page.id, grant.claim);
    if (leased) {
      deps.log.warn('watch.input_refused', { tokenId: grant.id, reason: 'tab_leased' });
      return text({ type: 'error', code: 'tab_leased', message: leased });
    }
    deps.onActivity();
    const session = page.session;
    if (message.type === 'key') return page.press(message.key);
    if (!lastFrame) return;
    const x = message.x * lastFrame.width;
    const y = message.y * lastFrame.height;
    await session.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
    await session.send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', clickCount: 1 });
    await session.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', clickCount: 1 });
  };

  socket.on('message', (data, isBinary) => {
    const message = isBinary ? undefined : parse(String(data));
    if (!grant) {
      clearTimeout(authTimer);
      if (message?.type !== 'auth')
        return socket.close(CLOSE.unauthorized, 'The first message must carry the watch token');
      return start(message);
    }
    if (!message || message.type === 'auth') return text({ type: 'error', message: 'Unknown message' });
    input(message).catch((error: unknown) => text({ type: 'error', message: (error as Error).message }));
  });
  socket.on('close', () => {
    for (const cleanup of cleanups) cleanup();
    // the idle countdown starts when the last viewer leaves, not when it arrived
    if (grant) deps.onActivity();
  });
  socket.on('error', () => socket.terminate());
}
