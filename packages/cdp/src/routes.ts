import type { Protocol } from 'devtools-protocol';
import type { FetchDecision, FetchParty, PausedRequest } from './fetch-owner.js';

/** What a route does with a request it matches: answer it, fail it, or let it go (after a delay). */
export interface RouteAction {
  /** Answer with this response instead of asking the server. */
  fulfill?: { status: number; headers: Protocol.Fetch.HeaderEntry[]; body: string };
  /** Fail the request with this network error (the page sees a network error). */
  abort?: Protocol.Network.ErrorReason;
  /** Hold the request this long first (then fulfil, fail or let it go on). */
  delayMs?: number;
}

export interface RouteRule {
  id: string;
  /** The pattern as the user wrote it (for lists). */
  pattern: string;
  /** Chrome's own wildcard pattern (`*`, `?`), at least as wide as `matches`: only these requests are paused. */
  fetchPattern: string;
  matches(url: string): boolean;
  action: RouteAction;
}

interface LiveRule extends RouteRule {
  hits: number;
  /** Aborted when the rule is removed: a request it holds (delay) is let go at once. */
  removed: AbortController;
}

export interface RouteInfo {
  id: string;
  pattern: string;
  action: RouteAction;
  hits: number;
}

/**
 * Request interception rules of one tab (or of every tab): the newest matching rule decides, as with
 * Playwright's `route`. A party of each tab's FetchOwner, which pauses only what `patterns` names.
 */
export class RouteSet implements FetchParty {
  private rules: LiveRule[] = [];

  get size(): number {
    return this.rules.length;
  }

  add(rule: RouteRule): void {
    this.rules.unshift({ ...rule, hits: 0, removed: new AbortController() });
  }

  /** Removes the rules `which` selects (all when omitted); requests they hold go on at once. */
  remove(which?: (rule: RouteInfo) => boolean): RouteInfo[] {
    const gone = this.rules.filter((rule) => !which || which(info(rule)));
    this.rules = this.rules.filter((rule) => !gone.includes(rule));
    for (const rule of gone) rule.removed.abort();
    return gone.map(info);
  }

  list(): RouteInfo[] {
    return this.rules.map(info);
  }

  patterns(): Protocol.Fetch.RequestPattern[] {
    return this.rules.map((rule) => ({ urlPattern: rule.fetchPattern, requestStage: 'Request' }));
  }

  async decide(event: PausedRequest, signal: AbortSignal): Promise<FetchDecision | undefined> {
    const url = event.request.url;
    const rule = this.rules.find((candidate) => candidate.matches(url));
    if (!rule) return undefined;
    rule.hits++;
    const { action } = rule;
    if (action.delayMs) {
      const letGo = AbortSignal.any([signal, rule.removed.signal]);
      await sleep(action.delayMs, letGo);
      // removed (or the tab / daemon is going away) while held: the request goes on untouched
      if (letGo.aborted) return { action: 'continue' };
    }
    if (action.abort) return { action: 'fail', reason: action.abort };
    if (action.fulfill) return { action: 'fulfill', ...action.fulfill };
    return { action: 'continue' };
  }
}

function info(rule: LiveRule): RouteInfo {
  return { id: rule.id, pattern: rule.pattern, action: rule.action, hits: rule.hits };
}

/** Resolves after `ms`, or as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
