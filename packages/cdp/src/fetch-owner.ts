import type { Protocol } from 'devtools-protocol';
import type { Session } from './session.js';

export type PausedRequest = Protocol.Fetch.RequestPausedEvent;

/** What to do with a paused request. */
export type FetchDecision =
  | { action: 'continue' }
  /**
   * At the response stage: the response with these headers instead of its own. The body is read
   * and fulfilled again: Chrome applies a `continueResponse` header override too late for a
   * document's security policy (its CSP and address space come from the response it fulfils).
   */
  | { action: 'rewriteHeaders'; status: number; headers: Protocol.Fetch.HeaderEntry[] }
  | { action: 'fail'; reason: Protocol.Network.ErrorReason }
  | { action: 'fulfill'; status: number; headers: Protocol.Fetch.HeaderEntry[]; body: string };

/** A request paused after its response arrived (a pattern with requestStage Response) rather than before it left. */
export function isResponseStage(event: PausedRequest): boolean {
  return event.responseStatusCode !== undefined || event.responseErrorReason !== undefined;
}

/**
 * One party that wants requests of a tab paused: the navigation guard, the tab's routes, the
 * routes for every tab. It names the requests it wants (`patterns`) and decides on each paused one,
 * or passes (`undefined`) to the next party. `signal` aborts when the request must be let go at once
 * (the tab closes, the daemon stops, the party's rule went away): the party then returns quickly.
 */
export interface FetchParty {
  patterns(): Protocol.Fetch.RequestPattern[];
  /** Whether it asks for responses too (a pattern with requestStage Response); others never see them. */
  readonly responses?: boolean;
  decide(request: PausedRequest, signal: AbortSignal): Promise<FetchDecision | undefined> | FetchDecision | undefined;
}

/** Counts of one owner, so a test (and `argus routes`) can see that nothing was left hanging. */
export interface FetchCounts {
  paused: number;
  resolved: number;
  pending: number;
}

/**
 * The one owner of the Fetch domain on one session. `Fetch.enable` replaces the patterns of the
 * session each time it is called, so two features enabling it separately would silently undo each
 * other; here every party's patterns are merged into one `Fetch.enable`, and every paused request is
 * answered exactly once (continued, fulfilled or failed), by the first party that decides, else
 * continued. Parties are asked in order (the navigation guard first: policy before mocks).
 */
export class FetchOwner {
  private readonly parties: FetchParty[] = [];
  private readonly offs: Array<() => void> = [];
  private readonly pending = new Map<string, Promise<void>>();
  /** The network id of each pending request paused before it left (what `Network.*` events name it by). */
  private readonly networkIds = new Map<string, string>();
  private readonly released = new AbortController();
  private enabled = false;
  paused = 0;
  resolved = 0;

  constructor(private readonly session: Session) {
    this.offs.push(session.on('Fetch.requestPaused', (event) => this.handle(event)));
  }

  /** Adds a party; its patterns count from the next `refresh` (call it whenever a party's patterns change). */
  add(party: FetchParty): void {
    this.parties.push(party);
  }

  /** Adds a party just before `next` (at the end when `next` is not a party). */
  insertBefore(party: FetchParty, next: FetchParty): void {
    const index = this.parties.indexOf(next);
    if (index < 0) this.parties.push(party);
    else this.parties.splice(index, 0, party);
  }

  /** Removes a party (call `refresh` after); requests it is deciding on are answered as it decides. */
  remove(party: FetchParty): void {
    const index = this.parties.indexOf(party);
    if (index >= 0) this.parties.splice(index, 1);
  }

  get counts(): FetchCounts {
    return { paused: this.paused, resolved: this.resolved, pending: this.pending.size };
  }

  /** Enables Fetch with the union of the parties' patterns (or disables it when none wants any). */
  async refresh(): Promise<void> {
    if (this.released.signal.aborted) return;
    const patterns = this.parties.flatMap((party) => party.patterns());
    if (patterns.length === 0) {
      if (!this.enabled) return;
      this.enabled = false;
      // Fetch.disable lets every paused request go on; nothing is left for us to answer
      await this.session.send('Fetch.disable');
      return;
    }
    this.enabled = true;
    await this.session.send('Fetch.enable', { patterns });
  }

  private handle(event: PausedRequest): void {
    this.paused++;
    const done = this.decideAndAnswer(event).finally(() => {
      this.pending.delete(event.requestId);
      this.networkIds.delete(event.requestId);
      this.resolved++;
    });
    this.pending.set(event.requestId, done);
    if (event.networkId !== undefined && !isResponseStage(event)) this.networkIds.set(event.requestId, event.networkId);
  }

  private async decideAndAnswer(event: PausedRequest): Promise<void> {
    const signal = this.released.signal;
    let decision: FetchDecision = { action: 'continue' };
    const atResponse = isResponseStage(event);
    for (const party of this.parties) {
      if (atResponse && party.responses !== true) continue;
      try {
        const decided = await party.decide(event, signal);
        if (decided) {
          decision = decided;
          break;
        }
      } catch (error) {
        decision = { action: 'fail', reason: 'Failed' };
        console.error('argus: a request handler failed', error);
        break;
      }
    }
    await this.answer(event.requestId, decision, atResponse);
  }

  private async answer(requestId: string, decision: FetchDecision, atResponse: boolean): Promise<void> {
    try {
      if (decision.action === 'continue' && atResponse)
        await this.session.send('Fetch.continueResponse', { requestId });
      else if (decision.action === 'continue') await this.session.send('Fetch.continueRequest', { requestId });
      else if (decision.action === 'rewriteHeaders') {
        const { body, base64Encoded } = await this.session.send('Fetch.getResponseBody', { requestId });
        await this.session.send('Fetch.fulfillRequest', {
          requestId,
          responseCode: decision.status,
          responseHeaders: decision.headers,
          body: base64Encoded ? body : Buffer.from(body).toString('base64'),
        });
      } else if (decision.action === 'fail')
        await this.session.send('Fetch.failRequest', { requestId, errorReason: decision.reason });
      else
        await this.session.send('Fetch.fulfillRequest', {
          requestId,
          responseCode: decision.status,
          responseHeaders: decision.headers,
          body: decision.body,
        });
    } catch {
      // the tab closed (or the request was cancelled by the page) meanwhile: nothing left to answer
    }
  }

  /**
   * Lets every paused request go on at once (the tab or the daemon is going away, or we detach from
   * a browser we leave running): each pending decision sees the abort and answers `continue`. A
   * request continued here has only been handed back to Chrome, which sends it on its own: closing
   * the browser right after could still drop it, so this waits until each one has an outcome on the
   * network (a response or a failure). Then turns Fetch off, so nothing new is paused for a listener
   * that is gone. Bounded: a browser that stopped answering must not hold up a stop.
   */
  async release(): Promise<void> {
    if (this.released.signal.aborted) return;
    const outcomes = this.networkOutcomes(new Set(this.networkIds.values()));
    this.released.abort();
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, 2_000)));
    const settled = Promise.allSettled([...this.pending.values()]).then(() => outcomes.done);
    await Promise.race([settled, gaveUp]);
    clearTimeout(timer);
    outcomes.stop();
    if (this.enabled && !this.session.isDetached) await this.session.send('Fetch.disable').catch(() => undefined);
    this.enabled = false;
    for (const off of this.offs) off();
    this.offs.length = 0;
  }

  /**
   * Resolves once every request in `ids` got its network outcome (a response, or a failure such as
   * the page cancelling it). Listens from before the requests are let go, so no outcome is missed.
   */
  private networkOutcomes(ids: Set<string>): { done: Promise<void>; stop: () => void } {
    if (ids.size === 0) return { done: Promise.resolve(), stop: () => undefined };
    let finish: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (finish = resolve));
    const settle = (event: { requestId: string }) => {
      if (ids.delete(event.requestId) && ids.size === 0) finish();
    };
    const offs = [
      this.session.on('Network.responseReceived', settle),
      this.session.on('Network.loadingFailed', settle),
    ];
    return { done, stop: () => offs.forEach((off) => off()) };
  }

  /** The tab is gone: its paused requests went with it; stop listening. */
  dispose(): void {
    this.released.abort();
    for (const off of this.offs) off();
    this.offs.length = 0;
  }
}
