import type { Session } from './session.js';
import { EventWaiters } from './event-waiters.js';

/** A navigation to a history entry (Page.frameStartedNavigating's navigationType), back or forward. */
export const isHistoryNavigation = (navigationType: string): boolean => /^(history|restore)/i.test(navigationType);

/** A tab opened by the watched page during an action (a `target=_blank` link, `window.open`). */
export interface OpenedTab {
  id: string;
  url: string;
}

/**
 * Watches a page's main frame from just before an action until after it, so the action can tell
 * whether it started a navigation and wait for exactly that document. Event driven only.
 *
 * Only a cross-document navigation of this tab counts as `requested`: Chrome fires
 * `frameStartedLoading` for same-document navigations too (a fragment link, `history.pushState`),
 * and those never commit a new loader, so waiting on them would wait for what will not come.
 */
export class NavigationWatcher {
  /** A cross-document navigation of the main frame was requested or started. */
  requested = false;
  sameDocumentUrl: string | undefined;
  /** loaderId of the newest committed document of the main frame. */
  committedLoader: string | undefined;
  /**
   * The navigation that committed it, by its start's loaderId: the same, except for a document
   * restored from the back/forward cache (see the Page.frameNavigated listener).
   */
  private committedNavigation: string | undefined;
  committedUrl: string | undefined;
  /** The main frame's requested navigation became a download (it will never commit). */
  download: { url: string; filename: string } | undefined;
  /** The main frame stopped loading after a request without committing (204, cancelled, download). */
  stoppedWithoutCommit = false;
  /** HTTP status of the response to the main frame's navigation request, once it came. */
  documentStatus: number | undefined;
  readonly openedTabs: OpenedTab[] = [];
  /** A `window.open` URL seen before its target was announced. */
  private pendingOpenUrl: string | undefined;
  private readonly lifecycle = new Map<string, Set<string>>();
  /** Order of the main frame's cross-document starts and commits, by loaderId (see replacedBy). */
  private order = 0;
  private readonly startedAt = new Map<string, number>();
  /** Page.frameStartedNavigating's navigationType of each start (see sentSince). */
  private readonly startKinds = new Map<string, string>();
  private readonly committedAt = new Map<string, number>();
  /** The URL each navigation committed with (see committedUrlOf). */
  private readonly committedUrls = new Map<string, string>();
  /** The URL each navigation that committed Chromium's error page could not load (see errorPageOf). */
  private readonly unreachableUrls = new Map<string, string>();
  /** Network.loadingFailed's errorText of each document request, by its id (a navigation's is its loaderId). */
  private readonly documentErrors = new Map<string, string>();
  private sameDocumentAt = 0;
  private readonly waiters: EventWaiters;
  private readonly offs: Array<() => void>;

  constructor(
    session: Session,
    private readonly mainFrameId: () => string,
    /** The browser (root) session, to see tabs this page opens; the page's own target id. */
    opener?: { root: Session; targetId: string },
  ) {
    this.waiters = new EventWaiters(session);
    const isMain = (frameId: string) => frameId === this.mainFrameId();
    this.offs = [
      session.on('Page.frameRequestedNavigation', (event) => {
        // newTab/newWindow dispositions open another tab; `download` never navigates this one
        if (isMain(event.frameId) && event.disposition === 'currentTab') this.mark(() => (this.requested = true));
      }),
      session.on('Page.frameStartedNavigating', (event) => {
        if (isMain(event.frameId) && !event.navigationType.toLowerCase().includes('samedocument'))
          this.mark(() => {
            this.requested = true;
            if (this.startedAt.has(event.loaderId)) return;
            this.startedAt.set(event.loaderId, ++this.order);
            this.startKinds.set(event.loaderId, event.navigationType);
          });
      }),
      session.on('Page.frameStoppedLoading', (event) => {
        if (isMain(event.frameId) && this.requested && this.committedLoader === undefined)
          this.mark(() => (this.stoppedWithoutCommit = true));
      }),
      session.on('Page.frameNavigated', (event) => {
        if (event.frame.parentId) return;
        this.mark(() => {
          const loaderId = event.frame.loaderId;
          const restored = event.type === 'BackForwardCacheRestore';
          // a document restored from the back/forward cache commits under the loader that first
          // loaded it, not the history navigation's (traced on Chromium 156: started 8879, committed
          // 3A82): it is the commit of the history navigation started last
          const navigation = restored ? (this.lastPendingHistory() ?? loaderId) : loaderId;
          this.requested = true;
          this.committedLoader = loaderId;
          this.committedNavigation = navigation;
          this.committedAt.set(navigation, ++this.order);
          this.committedUrl = event.frame.url + (event.frame.urlFragment ?? '');
          this.committedUrls.set(navigation, this.committedUrl);
          if (event.frame.unreachableUrl) this.unreachableUrls.set(navigation, event.frame.unreachableUrl);
          if (restored) {
            for (const id of new Set([loaderId, navigation])) {
              this.record(id, 'DOMContentLoaded');
              this.record(id, 'load');
            }
          }
        });
      }),
      session.on('Page.navigatedWithinDocument', (event) => {
        if (isMain(event.frameId))
          this.mark(() => {
            this.sameDocumentUrl = event.url;
            this.sameDocumentAt = ++this.order;
          });
      }),
      // a navigation request's id is its loader's id
      session.on('Network.responseReceived', (event) => {
        if (event.type === 'Document' && event.requestId === event.loaderId && isMain(event.frameId ?? ''))
          this.mark(() => (this.documentStatus = event.response.status));
      }),
      session.on('Network.loadingFailed', (event) => {
        if (event.type === 'Document') this.documentErrors.set(event.requestId, event.errorText);
      }),
      session.on('Page.downloadWillBegin', (event) => {
        if (isMain(event.frameId))
          this.mark(() => (this.download = { url: event.url, filename: event.suggestedFilename }));
      }),
      session.on('Page.lifecycleEvent', (event) => {
        if (isMain(event.frameId)) this.mark(() => this.record(event.loaderId, event.name));
      }),
    ];
    if (opener) {
      this.offs.push(
        opener.root.on('Target.targetCreated', ({ targetInfo }) => {
          if (targetInfo.type === 'page' && targetInfo.openerId === opener.targetId)
            this.mark(() => this.openedTabs.push({ id: targetInfo.targetId, url: targetInfo.url }));
        }),
        // the new tab's URL is known from windowOpen before its target has navigated
        session.on('Page.windowOpen', (event) => {
          const blank = this.openedTabs.find((tab) => !tab.url || tab.url === 'about:blank');
          if (blank) blank.url = event.url;
          else this.pendingOpenUrl = event.url;
        }),
        opener.root.on('Target.targetInfoChanged', ({ targetInfo }) => {
          const tab = this.openedTabs.find((candidate) => candidate.id === targetInfo.targetId);
          if (tab && targetInfo.url && targetInfo.url !== 'about:blank') tab.url = targetInfo.url;
        }),
      );
    }
  }

  /**
   * The navigation was answered with content (not a 204/205) and stopped without committing it: the
   * browser is turning it into a download, which it announces a moment later.
   */
  becomingDownload(): boolean {
    const status = this.documentStatus;
    return (
      this.stoppedWithoutCommit &&
      this.download === undefined &&
      status !== undefined &&
      status >= 200 &&
      status < 300 &&
      status !== 204 &&
      status !== 205
    );
  }

  /** Tabs opened during the action, with the URL they were opened for. */
  tabsOpened(): OpenedTab[] {
    return this.openedTabs.map((tab) => ({
      id: tab.id,
      url: tab.url && tab.url !== 'about:blank' ? tab.url : (this.pendingOpenUrl ?? tab.url),
    }));
  }

  private record(loaderId: string, name: string): void {
    let names = this.lifecycle.get(loaderId);
    if (!names) {
      names = new Set();
      this.lifecycle.set(loaderId, names);
    }
    names.add(name);
  }

  private mark(update: () => void): void {
    update();
    this.waiters.notify();
  }

  /** The newest history navigation that started and has not committed. */
  private lastPendingHistory(): string | undefined {
    let last: { loaderId: string; started: number } | undefined;
    for (const [loaderId, started] of this.startedAt) {
      const history = isHistoryNavigation(this.startKinds.get(loaderId) ?? '');
      if (history && !this.committedAt.has(loaderId) && (last === undefined || started > last.started))
        last = { loaderId, started };
    }
    return last?.loaderId;
  }

  /** Where the main frame's navigation events are now: what comes later is `since` it (sentSince). */
  get step(): number {
    return this.order;
  }

  /**
   * The navigation sent at `step` whose answer does not name it (a history entry, a reload): the first
   * cross-document start since then whose navigationType `kind` accepts (`historyDifferentDocument`,
   * `reload`; the page's own `location.href = …` is a `differentDocument`). `loaderId` is undefined
   * when it stayed in the document (a history entry of the same document). Without start events (an
   * older Chrome) the first document committed since then is taken. Undefined while none is known.
   */
  sentSince(step: number, kind: (navigationType: string) => boolean): { loaderId: string | undefined } | undefined {
    let first: { loaderId: string | undefined; at: number } | undefined;
    const consider = (loaderId: string | undefined, at: number) => {
      if (at > step && (first === undefined || at < first.at)) first = { loaderId, at };
    };
    for (const [loaderId, started] of this.startedAt)
      if (kind(this.startKinds.get(loaderId) ?? '')) consider(loaderId, started);
    consider(undefined, this.sameDocumentAt);
    if (this.startedAt.size === 0) for (const [loaderId, committed] of this.committedAt) consider(loaderId, committed);
    return first && { loaderId: first.loaderId };
  }

  reached(loaderId: string, name: string): boolean {
    return this.lifecycle.get(loaderId)?.has(name) ?? false;
  }

  /** The URL `loaderId`'s navigation committed with (fragment included), once it committed. */
  committedUrlOf(loaderId: string): string | undefined {
    return this.committedUrls.get(loaderId);
  }

  /**
   * When `loaderId`'s navigation committed Chromium's error page (chrome-error://chromewebdata/)
   * instead of a document: the URL it could not load and, when its request's failure was seen, the
   * network error (net::ERR_CONNECTION_REFUSED). Chrome answers a reload or a history entry without
   * an error, so this is how their failure shows; an HTTP error status with a body is a document.
   */
  errorPageOf(loaderId: string): { url: string; errorText: string | undefined } | undefined {
    const url = this.unreachableUrls.get(loaderId);
    return url === undefined ? undefined : { url, errorText: this.documentErrors.get(loaderId) };
  }

  /**
   * The document that replaced `loaderId`'s once it had committed (the main frame's newest), or
   * undefined while `loaderId`'s is the newest or has not committed. `stale` tells whether that
   * navigation had already started before `loaderId`'s document committed: then the document before
   * it started it (a script's `location.href = …` under way as the tab was sent elsewhere, which
   * Chrome lets commit after the new document), not the new document (a redirect by script). Known
   * only when Chrome sends Page.frameStartedNavigating; without it, every replacement counts as the
   * new document's own.
   */
  replacedBy(loaderId: string): { loaderId: string; stale: boolean } | undefined {
    const committed = this.committedAt.get(loaderId);
    const newest = this.committedNavigation;
    if (committed === undefined || newest === undefined || newest === loaderId) return undefined;
    const started = this.startedAt.get(newest);
    const stale = this.startedAt.has(loaderId) && (started === undefined || started < committed);
    return { loaderId: newest, stale };
  }

  /**
   * A navigation of the main frame that started after `loaderId`'s and before its document
   * committed, and has not committed: the page left behind asked for it while the tab was being sent
   * elsewhere, and Chrome may still commit it over `loaderId`'s document (see replacedBy).
   */
  contested(loaderId: string): boolean {
    const ours = this.startedAt.get(loaderId);
    if (ours === undefined) return false;
    const committed = this.committedAt.get(loaderId) ?? Infinity;
    for (const [other, started] of this.startedAt) {
      if (other !== loaderId && started > ours && started < committed && !this.committedAt.has(other)) return true;
    }
    return false;
  }

  /**
   * Whether the navigation `loaderId` reached `name`, or, once its document committed and was
   * replaced by a later one, whether the main frame's newest document did: a page that moves on by
   * script before its `load` (a redirect on load, a framework's route) ends the wait when the
   * document it moved to is loaded, as a person would see the page settle.
   */
  settled(loaderId: string, name: string): boolean {
    if (this.reached(loaderId, name)) return true;
    const replaced = this.replacedBy(loaderId);
    return replaced !== undefined && this.reached(replaced.loaderId, name);
  }

  /**
   * Resolves when `check()` is true, re-checked on every observed event; rejects on timeout, on
   * detach, or when `signal` aborts (the caller went away).
   */
  until(check: () => boolean, timeoutMs: number, describe: () => string, signal?: AbortSignal): Promise<void> {
    return this.waiters.until(check, timeoutMs, describe, signal);
  }

  dispose(): void {
    for (const off of this.offs) off();
    this.waiters.clear();
  }
}
