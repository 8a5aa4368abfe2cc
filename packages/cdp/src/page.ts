import type { Protocol } from 'devtools-protocol';
import { ArgusError } from '@argus/protocol';
import { FrameRegistry } from './frames.js';
import { type WhenHidden, captureScreenshot } from './image-capture.js';
import { pressCombo, typeKeys } from './page-keyboard.js';
import {
  type ActOptions,
  type ActionEffects,
  type NavigationResult,
  type NavigationOptions,
  actOn,
  navigateBy,
  navigatePage,
} from './page-navigation.js';
import { PageCapture, type CaptureOptions } from './capture.js';
import { NetworkCapture } from './network-capture.js';
import { InflightRequests } from './page-inflight.js';
import { PageTitle } from './page-title.js';
import type { NavigationGuard } from './navigation-guard.js';
import { PageInterception } from './page-interception.js';
import type { RouteSet } from './routes.js';
import type { Session, SessionRouter } from './session.js';
import { ProtocolError, TransportClosedError } from './transport.js';
import { withoutPassword } from './url-display.js';

export type { ActionEffects, NavigationOptions, NavigationResult, WaitUntil } from './page-navigation.js';

export const ISOLATED_WORLD = '__argus__';

/** One tab: its flat session, frames (incl. OOPIF sessions), navigation, evaluation, input. */
export class Page {
  readonly frames = new FrameRegistry(ISOLATED_WORLD);
  readonly capture: PageCapture;
  /** Requests of this tab (incl. its OOPIFs), from the moment it was created. */
  readonly network: NetworkCapture;
  mainFrameId = '';
  /** The main frame's URL, as reported (withoutPassword). */
  get url(): string {
    return this.reportedUrl;
  }
  set url(url: string) {
    this.reportedUrl = withoutPassword(url);
  }
  private reportedUrl = '';
  title: string;
  /** Bumped on every main-frame document change; refs from older epochs are stale. */
  epoch = 0;
  private readonly offs: Array<() => void> = [];
  private readonly childSessions = new Set<Session>();
  /** @internal HTTP status of each main-frame document by loaderId */
  readonly documentStatus = new Map<string, number>();
  private closedReason: string | undefined;
  private readonly epochListeners = new Set<(epoch: number) => void>();
  /** Requests of this tab (incl. its OOPIFs) still in flight, for network-idle waits. */
  private readonly requests = new InflightRequests();
  private readonly titles: PageTitle;
  /** The one owner of the Fetch domain of this tab's sessions: navigation guard and routes (`argus route`). */
  readonly interception: PageInterception;

  constructor(
    readonly session: Session,
    readonly targetId: string,
    private readonly router: SessionRouter,
    info: { url: string; title: string },
    captureOptions: CaptureOptions = {},
    /** Asked before every document request of this tab and its OOPIFs (the daemon's domain policy). */
    guard?: NavigationGuard,
    /** Request interception rules for every tab (`argus route --all-tabs`). */
    sharedRoutes?: RouteSet,
  ) {
    this.url = info.url;
    this.title = info.title;
    this.capture = new PageCapture(captureOptions, () => this.url);
    this.interception = new PageInterception(targetId, guard, sharedRoutes);
    this.network = new NetworkCapture(captureOptions);
    this.titles = new PageTitle(session, this);
  }

  get id(): string {
    return this.targetId;
  }

  get closed(): boolean {
    return this.closedReason !== undefined || this.session.isDetached;
  }

  /** Enables the domains we rely on, then lets the (paused) target run. */
  async init(): Promise<void> {
    const session = this.session;
    this.offs.push(this.frames.track(session), this.capture.attach(session), this.network.attach(session));
    this.offs.push(
      session.on('Page.frameNavigated', ({ frame }) => {
        if (frame.parentId) return;
        this.mainFrameId = frame.id;
        // a failed navigation commits Chromium's error page (chrome-error://chromewebdata/) for the
        // URL it could not reach: the tab's URL is that one, as the target's info says too (which of
        // the two events came last decided page.url before)
        this.url = frame.unreachableUrl ?? frame.url + (frame.urlFragment ?? '');
        this.bumpEpoch();
      }),
      session.on('Page.navigatedWithinDocument', (event) => {
        if (event.frameId === this.mainFrameId) this.url = event.url;
      }),
      // headless Chromium never updates a target's title: read the document's own when it is parsed and loaded
      session.on('Page.domContentEventFired', () => this.titles.refresh()),
      session.on('Page.loadEventFired', () => this.titles.refresh()),
      session.on('Network.responseReceived', (event) => {
        if (event.type === 'Document' && event.requestId === event.loaderId)
          this.documentStatus.set(event.loaderId, event.response.status);
      }),
      session.on('Target.attachedToTarget', (event) => void this.adoptChild(event)),
      ...this.requests.track(session),
      session.on('Target.detachedFromTarget', (event) => {
        for (const child of this.childSessions) if (child.id === event.sessionId) this.childSessions.delete(child);
      }),
    );
    const [, , , , , tree] = await Promise.all([
      this.interception.attach(session, this.offs),
      session.send('Page.enable'),
      session.send('Page.setLifecycleEventsEnabled', { enabled: true }),
      session.send('Runtime.enable'),
      session.send('Network.enable', { maxPostDataSize: 65_536 }),
      session.send('Page.getFrameTree'),
      session.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }),
      // sent in the same batch, after the enables (a session runs its commands in order): a popup
      // (target=_blank, window.open) paused at start answers some of them only once it runs
      session.send('Runtime.runIfWaitingForDebugger').catch(() => undefined),
    ]);
    // a popup already running may have navigated before the tree answered: its events are newer
    const navigated = this.epoch > 0;
    if (!navigated) this.mainFrameId = tree.frameTree.frame.id;
    this.frames.adoptTree(tree.frameTree, session, { keepKnown: navigated });
    const { frame } = tree.frameTree;
    if (!navigated && frame.url) this.url = frame.unreachableUrl ?? frame.url + (frame.urlFragment ?? '');
  }

  /** Out-of-process iframes and workers attach as flat child sessions of this page. */
  private async adoptChild(event: Protocol.Target.AttachedToTargetEvent): Promise<void> {
    const child = this.router.get(event.sessionId);
    if (!child) return;
    const type = event.targetInfo.type;
    try {
      if (type === 'iframe') {
        this.childSessions.add(child);
        this.frames.assignSession(event.targetInfo.targetId, child);
        this.offs.push(
          this.frames.track(child),
          this.capture.attach(child),
          this.network.attach(child),
          ...this.requests.track(child),
        );
        child.on('Target.attachedToTarget', (nested) => void this.adoptChild(nested));
        const [, , , , tree] = await Promise.all([
          this.interception.attach(child, this.offs),
          child.send('Page.enable'),
          child.send('Runtime.enable'),
          child.send('Network.enable', { maxPostDataSize: 65_536 }),
          child.send('Page.getFrameTree'),
          child.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }),
        ]);
        this.frames.adoptTree(tree.frameTree, child);
      } else if (type === 'worker' || type === 'service_worker' || type === 'shared_worker') {
        this.offs.push(this.capture.attach(child));
        await child.send('Runtime.enable');
      }
      await child.send('Runtime.runIfWaitingForDebugger');
    } catch (error) {
      // the child went away while we were setting it up (closed session or protocol error): nothing
      // to do; anything else is a bug we must not turn into an unhandled rejection
      if (!(error instanceof TransportClosedError) && !(error instanceof ProtocolError))
        console.error('argus: OOPIF set-up failed', error);
    }
  }

  /** Resolves once no request has been in flight for `idleMs` (event driven). */
  waitForNetworkIdle(idleMs: number, timeoutMs: number): Promise<void> {
    return this.requests.waitForIdle(idleMs, timeoutMs, this.session, this.targetId);
  }

  private bumpEpoch(): void {
    this.epoch++;
    for (const listener of this.epochListeners) listener(this.epoch);
  }

  onEpoch(listener: (epoch: number) => void): () => void {
    this.epochListeners.add(listener);
    return () => this.epochListeners.delete(listener);
  }

  markClosed(reason: string): void {
    if (this.closedReason) return;
    this.closedReason = reason;
    this.interception.dispose();
    for (const off of this.offs) off();
    this.offs.length = 0;
  }

  assertOpen(): void {
    if (this.closed)
      throw new ArgusError(
        'target_closed',
        `Tab ${this.targetId} is closed${this.closedReason ? ` (${this.closedReason})` : ''}. Run \`argus tabs\` and pick another tab.`,
      );
  }

  // ---------------------------------------------------------------- navigation (page-navigation.ts)

  navigate(url: string, options: NavigationOptions = {}): Promise<NavigationResult> {
    return navigatePage(this, url, options);
  }

  /** Back or forward one entry; `readTitle` as for navigate (NavigationOptions). */
  async history(delta: -1 | 1, timeoutMs = 30_000, readTitle?: boolean): Promise<NavigationResult> {
    this.assertOpen();
    const { currentIndex, entries } = await this.session.send('Page.getNavigationHistory');
    const entry = entries[currentIndex + delta];
    if (!entry) {
      throw new ArgusError(
        'navigation_failed',
        `There is no ${delta < 0 ? 'previous' : 'next'} page in this tab's history.`,
      );
    }
    return navigateBy(this, 'entry', entry, timeoutMs, delta < 0 ? 'Going back' : 'Going forward', readTitle);
  }

  reload(timeoutMs = 30_000, readTitle?: boolean): Promise<NavigationResult> {
    // the entry reloaded, to go back to if the page left behind moves the tab on before the reload's
    // load (sendUntilLanded): asked alongside the reload, as the browser answers in order, and read
    // only then; unknown, it is the URL reloaded
    const url = this.url;
    const entry = this.session.send('Page.getNavigationHistory').then(
      ({ currentIndex, entries }) => entries[currentIndex] ?? { id: -1, url },
      () => ({ id: -1, url }),
    );
    return navigateBy(this, 'reload', entry, timeoutMs, 'Reload', readTitle);
  }

  /** Runs an input action and reports what it caused (see actOn). */
  act<T>(
    run: () => Promise<T>,
    options: ActOptions = {},
  ): Promise<{ value: T; effects: ActionEffects; probed?: unknown }> {
    return actOn(this, run, options);
  }

  /** The browser-level session (tabs this page opens are announced there). */
  get rootSession(): Session {
    return this.router.root;
  }

  /**
   * @internal the dialogs no reply has reported yet (during the action, or since the previous
   * reply: a dialog a timer opened after the last command), and console errors since the given
   * sequence number (for actOn)
   */
  effectsSince(consoleSeq: number, navigated: boolean): Omit<ActionEffects, 'openedTabs' | 'download'> {
    const dialogs = this.capture.takeUnreported();
    const consoleErrors = this.capture.console
      .entries(consoleSeq)
      .filter(({ item }) => item.level === 'error')
      .map(({ item }) => item.text.slice(0, 500));
    return { navigated, url: this.url, dialogs, consoleErrors };
  }

  /** Reads document.title now. */
  readTitle(): Promise<string> {
    return this.titles.read();
  }

  /** The title, after a read that a load event started (at most `waitMs`). */
  settledTitle(waitMs = 500): Promise<string> {
    return this.titles.settled(waitMs);
  }

  // ---------------------------------------------------------------- evaluation

  /** Evaluates an expression (main world of the main frame unless a context is given). */
  async evaluate<T = unknown>(
    expression: string,
    options: { contextId?: number; awaitPromise?: boolean; timeoutMs?: number; session?: Session } = {},
  ): Promise<T> {
    this.assertOpen();
    const session = options.session ?? this.session;
    const params: Protocol.Runtime.EvaluateRequest = {
      expression,
      returnByValue: true,
      awaitPromise: options.awaitPromise ?? true,
    };
    if (options.contextId !== undefined) params.contextId = options.contextId;
    if (options.timeoutMs !== undefined) params.timeout = options.timeoutMs;
    const { result, exceptionDetails } = await session.send('Runtime.evaluate', params);
    if (exceptionDetails) throw evalError(exceptionDetails);
    return result.value as T;
  }

  /**
   * Runs `expression` as a script and returns its completion value as Chrome describes it: an object
   * stays in the page (its objectId, in `objectGroup`; the caller releases it), a primitive comes by value.
   */
  async evaluateRemote(
    expression: string,
    options: { objectGroup: string; contextId?: number; timeoutMs?: number; session?: Session },
  ): Promise<Protocol.Runtime.RemoteObject> {
    this.assertOpen();
    const params: Protocol.Runtime.EvaluateRequest = {
      expression,
      objectGroup: options.objectGroup,
      returnByValue: false,
      awaitPromise: true,
    };
    if (options.contextId !== undefined) params.contextId = options.contextId;
    if (options.timeoutMs !== undefined) params.timeout = options.timeoutMs;
    const { result, exceptionDetails } = await (options.session ?? this.session).send('Runtime.evaluate', params);
    if (exceptionDetails) throw evalError(exceptionDetails);
    return result;
  }

  /** Calls a function on a remote object; returns its JSON value. */
  async callOn<T = unknown>(
    objectId: string,
    fn: string,
    args: unknown[] = [],
    session: Session = this.session,
  ): Promise<T> {
    const params: Protocol.Runtime.CallFunctionOnRequest = {
      objectId,
      functionDeclaration: fn,
      arguments: args.map((value) => ({ value })),
      returnByValue: true,
      awaitPromise: true,
    };
    const { result, exceptionDetails } = await session.send('Runtime.callFunctionOn', params);
    if (exceptionDetails) throw evalError(exceptionDetails);
    return result.value as T;
  }

  // ---------------------------------------------------------------- input

  async mouseClick(
    x: number,
    y: number,
    options: { button?: 'left' | 'right' | 'middle'; clickCount?: number; modifiers?: number } = {},
  ): Promise<void> {
    const button = options.button ?? 'left';
    const modifiers = options.modifiers ?? 0;
    const clicks = options.clickCount ?? 1;
    // Sent back to back and awaited together: CDP keeps their order, and the renderer handles them
    // in one go instead of one frame per event.
    const events: Array<Promise<unknown>> = [
      this.session.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, modifiers }),
    ];
    for (let count = 1; count <= clicks; count++) {
      events.push(
        this.session.send('Input.dispatchMouseEvent', {
          type: 'mousePressed',
          x,
          y,
          button,
          clickCount: count,
          modifiers,
        }),
      );
      events.push(
        this.session.send('Input.dispatchMouseEvent', {
          type: 'mouseReleased',
          x,
          y,
          button,
          clickCount: count,
          modifiers,
        }),
      );
    }
    await Promise.all(events);
  }

  async mouseMove(x: number, y: number): Promise<void> {
    await this.session.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
  }

  /** Presses a key or a combo like `Control+a`. */
  async press(combo: string): Promise<void> {
    await pressCombo(this.session, combo);
  }

  /** Types text as key presses (characters without a key are inserted as text). */
  async typeText(text: string): Promise<void> {
    await typeKeys(this.session, text);
  }

  async insertText(text: string): Promise<void> {
    await this.session.send('Input.insertText', { text });
  }

  // ---------------------------------------------------------------- capture

  /**
   * Whether the tab is hidden (a background tab of its window, or a minimized window): Chrome draws
   * no frames for it. Read in Argus's isolated world, where the page cannot redefine the getter.
   */
  async isHidden(): Promise<boolean> {
    const world = await this.frames.isolatedWorld(this.mainFrameId).catch(() => undefined);
    const state = await this.evaluate<string>('document.visibilityState', {
      awaitPromise: false,
      ...(world === undefined ? {} : { contextId: world }),
    });
    return state === 'hidden';
  }

  async screenshot(
    options: {
      full?: boolean;
      clip?: { x: number; y: number; width: number; height: number };
      /** what a capture of a hidden tab does (captureScreenshot); refused by default */
      whenHidden?: WhenHidden;
    } = {},
  ): Promise<{ data: Buffer; width: number; height: number }> {
    this.assertOpen();
    let clip = options.clip;
    if (options.full && !clip) {
      const metrics = await this.session.send('Page.getLayoutMetrics');
      const size = metrics.cssContentSize;
      clip = { x: 0, y: 0, width: Math.ceil(size.width), height: Math.ceil(size.height) };
    }
    const data = await captureScreenshot(
      this,
      {
        format: 'png',
        ...(clip ? { clip: { ...clip, scale: 1 }, captureBeyondViewport: true } : {}),
      },
      options.whenHidden,
    );
    const buffer = Buffer.from(data, 'base64');
    // PNG IHDR: width and height are big-endian u32 at bytes 16 and 20
    return { data: buffer, width: buffer.readUInt32BE(16), height: buffer.readUInt32BE(20) };
  }
}

function evalError(details: Protocol.Runtime.ExceptionDetails): ArgusError {
  const description = details.exception?.description ?? details.exception?.value ?? details.text;
  const firstLine = String(description).split('\n')[0] ?? String(description);
  return new ArgusError('eval_failed', `The page script threw: ${firstLine}`, {
    details: { line: details.lineNumber, column: details.columnNumber, stack: String(description).slice(0, 2000) },
  });
}
