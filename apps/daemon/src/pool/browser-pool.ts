import type { Browser } from '@argus/cdp';
import { ArgusError, type PoolState } from '@argus/protocol';
import type { z } from 'zod';
import type { Logger } from '../logger.js';
import { sessionOwner } from '../caller.js';
import { choosePlacement } from './placement.js';
import { PoolEndpoint } from './pool-endpoint.js';

export interface PoolOptions {
  endpoints: string[];
  maxSessions: number;
  healthIntervalMs: number;
  restoreState: boolean;
}

export interface PoolHooks {
  log: Logger;
  /** Opens one connection to an endpoint (the manager's CDP connect, with its start hooks). */
  open(url: string): Promise<Browser>;
  /** A session's endpoint died: forget its tabs, leases and context (they died with it). */
  onSessionLost(owner: string, browser: Browser | undefined): void;
}

/** The owner key of the session of calls without --session (every other owner is a ClientTabs id). */
export const DEFAULT_OWNER = '';

/** A session's name as status shows it: `default`, `shop`, or `<token>/shop` for a shared token's. */
export function sessionLabel(owner: string): string {
  if (owner === DEFAULT_OWNER) return 'default';
  return owner.replace(/^session:/, '').replace('/session:', '/');
}

/**
 * Whether the caller sees a session's name in the pool view. A call in a named session (`--session
 * NAME`, the operator's or a shared token's) sees only that session; the operator's default session
 * (no --session), which sees every tab, sees the operator's sessions; a shared token its own. Every
 * other session is counted, never named: session names are chosen by clients and can say what they
 * work on.
 */
export function seesSession(
  caller: { owner?: string | undefined; session?: string | undefined },
  key: string,
): boolean {
  if (caller.session !== undefined) return key === sessionOwner(caller.owner, caller.session);
  return caller.owner === undefined
    ? key === DEFAULT_OWNER || key.startsWith('session:')
    : key === caller.owner || key.startsWith(`${caller.owner}/session:`);
}

/** A session recreated after a loss, and what it restores from. */
export interface Acquired {
  browser: Browser;
  /** The saved state to load into the recreated session (restoreState on and one was saved). */
  restore: string | undefined;
}

/**
 * The placement half of pool mode: which session lives on which endpoint, health checks, failover.
 * Sessions are placed on first use on the least loaded healthy endpoint with a free slot. When an
 * endpoint dies every session on it is lost at once: its next command reports `browser_lost` (or the
 * command running then does), and the one after places it afresh on another endpoint, loading its
 * last `state save` when restoreState is on. The pool never launches a browser: the grid owns them.
 */
export class BrowserPool {
  readonly endpoints: PoolEndpoint[];
  private readonly placements = new Map<string, PoolEndpoint>();
  /** owner -> the browser_lost message still to report */
  private readonly lost = new Map<string, ArgusError>();
  /** owners to recreate (their endpoint died): the placement after the report may restore state */
  private readonly recreate = new Set<string>();
  /** owner -> name of its last `state save` */
  private readonly saved = new Map<string, string>();
  private readonly placing = new Map<string, Promise<Acquired>>();
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;

  constructor(
    readonly options: PoolOptions,
    private readonly hooks: PoolHooks,
  ) {
    this.endpoints = options.endpoints.map(
      (url) =>
        new PoolEndpoint(url, options.maxSessions, hooks.open, (endpoint, reason, browser) =>
          this.endpointDown(endpoint, reason, browser),
        ),
    );
  }

  /** Starts the periodic health checks (a timer: Chrome has no event for "I am still fine"). */
  start(): void {
    this.timer ??= setInterval(() => void this.checkAll(), this.options.healthIntervalMs);
    this.timer.unref();
  }

  /** Asks every endpoint Browser.getVersion now (connecting where needed); one round at a time. */
  checkAll(): Promise<void> {
    this.checking ??= Promise.all(this.endpoints.map((endpoint) => endpoint.check()))
      .then(() => undefined)
      .finally(() => {
        this.checking = undefined;
      });
    return this.checking;
  }

  /** The browser of a session's endpoint, if it is placed and connected (no placement happens). */
  browserOf(owner: string): Browser | undefined {
    return this.placements.get(owner)?.current;
  }

  /** Any endpoint connected. */
  get connected(): boolean {
    return this.endpoints.some((endpoint) => endpoint.current);
  }

  /** The browser for a session: its endpoint's, placing it first if it has none. */
  acquire(owner: string): Promise<Acquired> {
    const pending = this.lost.get(owner);
    if (pending) {
      this.lost.delete(owner);
      return Promise.reject(pending);
    }
    const placed = this.placements.get(owner);
    const live = placed?.current;
    if (live) return Promise.resolve({ browser: live, restore: undefined });
    let placing = this.placing.get(owner);
    if (!placing) {
      placing = this.place(owner).finally(() => this.placing.delete(owner));
      this.placing.set(owner, placing);
    }
    return placing;
  }

  private async place(owner: string): Promise<Acquired> {
    const current = this.placements.get(owner);
    if (current) {
      // placed, not connected yet (or the link is being re-made): stay where the session is
      return { browser: await current.connect(), restore: undefined };
    }
    const tried = new Set<number>();
    for (;;) {
      const index = choosePlacement(
        this.endpoints.map((endpoint) => ({
          health: endpoint.health,
          load: this.loadOf(endpoint),
          max: endpoint.maxSessions,
        })),
        tried,
      );
      if (index === undefined) throw this.exhausted();
      tried.add(index);
      const endpoint = this.endpoints[index]!;
      const browser = await endpoint.connect().catch(() => undefined);
      if (!browser) continue;
      this.placements.set(owner, endpoint);
      const restore = this.recreate.delete(owner) && this.options.restoreState ? this.saved.get(owner) : undefined;
      this.hooks.log.info('pool.placed', {
        session: sessionLabel(owner),
        endpoint: endpoint.shown,
        ...(restore ? { restore } : {}),
      });
      return { browser, restore };
    }
  }

  private loadOf(endpoint: PoolEndpoint): number {
    let load = 0;
    for (const placed of this.placements.values()) if (placed === endpoint) load++;
    return load;
  }

  private exhausted(): ArgusError {
    const down = this.endpoints.filter((endpoint) => endpoint.health === 'down').length;
    return new ArgusError(
      'pool_exhausted',
      `No pool endpoint can take another session: ${this.endpoints.length} endpoint(s), ${down} down, the rest full (${this.options.maxSessions} session${this.options.maxSessions === 1 ? '' : 's'} each). Add endpoints (\`argus connect --pool URL,...\`), raise pool.maxSessionsPerEndpoint (--max-sessions), or close a session (\`argus session close NAME\`).`,
      { details: { endpoints: this.endpoints.length, down, maxSessions: this.options.maxSessions } },
    );
  }

  private endpointDown(endpoint: PoolEndpoint, reason: string, browser: Browser | undefined): void {
    const owners = [...this.placements].filter(([, placed]) => placed === endpoint).map(([owner]) => owner);
    this.hooks.log.warn('pool.endpoint_down', { endpoint: endpoint.shown, reason, sessions: owners.map(sessionLabel) });
    for (const owner of owners) {
      this.placements.delete(owner);
      this.recreate.add(owner);
      const saved = this.options.restoreState ? this.saved.get(owner) : undefined;
      this.lost.set(
        owner,
        new ArgusError(
          'browser_lost',
          `The pool endpoint ${endpoint.shown} holding session "${sessionLabel(owner)}" went away (${reason}); its tabs and refs are gone. Your next command recreates the session on another endpoint${saved ? ` and loads its last saved state "${saved}"` : ' with an empty browser context (`argus state save NAME` beforehand and --restore-state carry cookies and storage over)'}.`,
          { details: { endpoint: endpoint.shown, session: sessionLabel(owner), ...(saved ? { restore: saved } : {}) } },
        ),
      );
      this.hooks.onSessionLost(owner, browser);
    }
  }

  /**
   * A command of `owner` failed because its connection closed: the loss is reported by that command
   * (not again by the next one). The endpoint is marked down here too, should the close event not
   * have arrived yet.
   */
  report(owner: string): ArgusError | undefined {
    const placed = this.placements.get(owner);
    if (placed && !placed.current) placed.markDown('its connection closed');
    const error = this.lost.get(owner);
    this.lost.delete(owner);
    return error;
  }

  /** A session closed (`session close`, a revoked token): its slot is free. */
  release(owner: string): void {
    this.placements.delete(owner);
    this.lost.delete(owner);
    this.recreate.delete(owner);
  }

  /** Sessions placed now, every owner's (what a daemon stop releases). */
  get placed(): number {
    return this.placements.size;
  }

  noteSaved(owner: string, name: string): void {
    this.saved.set(owner, name);
  }

  /** The pool as `caller` may see it: its own sessions by name, everyone else's counted (seesSession). */
  view(caller: { owner?: string | undefined; session?: string | undefined }): z.output<typeof PoolState> {
    const own = (owner: string) => seesSession(caller, owner);
    return {
      endpoints: this.endpoints.map((endpoint) => {
        const placed = [...this.placements].filter(([, at]) => at === endpoint).map(([owner]) => owner);
        return {
          url: endpoint.shown,
          health: endpoint.health,
          version: endpoint.version,
          sessions: placed.filter(own).map(sessionLabel).sort(),
          others: placed.filter((owner) => !own(owner)).length,
          maxSessions: endpoint.maxSessions,
          lastError: endpoint.lastError,
        };
      }),
      healthIntervalMs: this.options.healthIntervalMs,
      restoreState: this.options.restoreState,
      lost: [...this.lost.keys()].filter(own).map(sessionLabel).sort(),
      othersLost: [...this.lost.keys()].filter((owner) => !own(owner)).length,
    };
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.checking?.catch(() => undefined);
    await Promise.all(this.endpoints.map((endpoint) => endpoint.close()));
    this.placements.clear();
  }
}
