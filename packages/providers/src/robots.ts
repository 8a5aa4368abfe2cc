import { isArgusError } from '@argus/protocol/errors';
import type { NetworkPolicy } from './address-guard.js';
import type { HttpClient } from './http-client.js';
import { robots as robotsParser } from './lazy-deps.js';

export const ROBOTS_AGENT = 'ArgusBot';

export interface RobotsRules {
  allowed(url: string): boolean;
  /** Seconds between requests the site asks for, if it does. */
  crawlDelay: number | undefined;
  sitemaps: string[];
  /** Set when robots.txt could not be read (a 5xx, a host that does not answer): why everything is disallowed. */
  unreadable?: { code: string; message: string };
}

const ALLOW_ALL: RobotsRules = { allowed: () => true, crawlDelay: undefined, sitemaps: [] };

/**
 * robots.txt per origin, read once through the guarded client (so the SSRF guard and size cap hold
 * for it too). A missing file (4xx) allows everything, as the robots standard says; a server error
 * (5xx) or an unreachable host disallows everything for a strict crawl (RFC 9309 §2.3.1.4).
 */
export class RobotsCache {
  private readonly cache = new Map<string, Promise<RobotsRules>>();

  constructor(
    private readonly http: HttpClient,
    private readonly policy: NetworkPolicy,
    /** Ends the reads of a run that is over (a crawl's deadline or its caller's abort). */
    private readonly signal?: AbortSignal,
  ) {}

  rules(url: string): Promise<RobotsRules> {
    const origin = new URL(url).origin;
    let rules = this.cache.get(origin);
    if (!rules) {
      rules = this.load(origin);
      this.cache.set(origin, rules);
    }
    return rules;
  }

  private async load(origin: string): Promise<RobotsRules> {
    const robotsUrl = `${origin}/robots.txt`;
    try {
      const response = await this.http.get(robotsUrl, {
        policy: this.policy,
        accept: ['text/plain', 'text/html', 'application/octet-stream'],
        maxBytes: 512 * 1024,
        timeoutMs: 10_000,
        ...(this.signal === undefined ? {} : { signal: this.signal }),
      });
      if (response.status >= 400 && response.status < 500) return ALLOW_ALL;
      if (response.status >= 500)
        return disallowAll({ code: 'upstream', message: `${robotsUrl} answered ${response.status}` });
      const robots = robotsParser()(robotsUrl, response.body);
      return {
        allowed: (target) => robots.isAllowed(target, ROBOTS_AGENT) !== false,
        crawlDelay: robots.getCrawlDelay(ROBOTS_AGENT),
        sitemaps: robots.getSitemaps(),
      };
    } catch (error) {
      if (isArgusError(error) && error.code === 'policy_blocked') throw error;
      return disallowAll({
        code: isArgusError(error) ? error.code : 'network',
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }
}

function disallowAll(unreadable: { code: string; message: string }): RobotsRules {
  return { allowed: () => false, crawlDelay: undefined, sitemaps: [], unreadable };
}
