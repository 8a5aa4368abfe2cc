import type { Page, Session } from '@argus/cdp';
import { ArgusError } from '@argus/protocol';
import { evaluateInPage, isolatedContext } from './page-eval.js';
import {
  SCROLL_POSITION,
  type RefNumbering,
  type ElementHandle,
  type Locator,
  OBJECT_GROUP,
  SnapshotEngine,
  type SnapshotOptions,
  type SnapshotResult,
  type WaitTest,
  badTargetError,
  elementLabel,
  noteObjects,
  parseLocator,
  parseRef,
} from '@argus/snapshot';

/** What the engine asks about the frame chosen with `argus frame` (FrameChoices). */
export interface ChosenFrame {
  /** the chosen frame's id, also when it is gone (undefined: the top document) */
  chosen(page: Page): string | undefined;
  /** the frame to run in after a moment's wait for a replaced iframe; throws when it is gone */
  inUse(page: Page): Promise<string | undefined>;
  /** the error to fail with while the chosen frame is gone */
  lostError(page: Page): ArgusError | undefined;
}

/**
 * A snapshot engine whose CSS selectors and locators resolve in the frame chosen with `argus frame` (refs already
 * name their frame). @argus/snapshot resolves selectors in the main frame only and has no frame
 * hook, so the daemon wraps `resolve` here; locators, waits and `snapshot --scope` search the
 * locator frame, which is the chosen one. While the chosen frame is gone (its iframe removed, none
 * like it inserted, or the top document navigated), each of them fails saying so rather than
 * running elsewhere.
 */
export class FrameScopedEngine extends SnapshotEngine {
  constructor(
    page: Page,
    private readonly frames: ChosenFrame,
    numbering: RefNumbering = {},
  ) {
    super(page, numbering);
  }

  override async resolve(target: string): Promise<ElementHandle> {
    if (typeof target !== 'string' || parseRef(target)) return super.resolve(target);
    const frameId = await this.frames.inUse(this.page);
    if (!frameId) return super.resolve(target);
    return this.inChosenFrame(() => {
      if (parseLocator(target)) return super.resolve(target);
      // as a locator: again in the frame's next document when it navigates while the selector resolves
      return this.inLatestDocument(async () => {
        const current = this.frames.chosen(this.page);
        return current ? resolveInFrame(this.page, current, target.trim()) : super.resolve(target);
      });
    });
  }

  override async resolveWaiting(target: string, timeoutMs: number): Promise<ElementHandle> {
    if (typeof target !== 'string' || parseRef(target)) return super.resolveWaiting(target, timeoutMs);
    return this.inChosenFrame(() => super.resolveWaiting(target, timeoutMs));
  }

  override async waitForLocator(locator: Locator, timeoutMs: number): Promise<boolean> {
    await this.frames.inUse(this.page);
    return this.inChosenFrame(() => super.waitForLocator(locator, timeoutMs));
  }

  override async waitUntilShown(test: WaitTest, timeoutMs: number): Promise<boolean> {
    await this.frames.inUse(this.page);
    return this.inChosenFrame(() => super.waitUntilShown(test, timeoutMs));
  }

  /** A snapshot's --scope other than a ref (a selector, locator or landmark) is looked for in the chosen frame. */
  override async snapshot(options: SnapshotOptions = {}): Promise<SnapshotResult> {
    const scope = options.scope;
    if (options.cursor !== undefined || scope === undefined || !scope.trim() || parseRef(scope))
      return super.snapshot(options);
    await this.frames.inUse(this.page);
    return this.inChosenFrame(() => super.snapshot(options));
  }

  protected override locatorFrame(): string {
    return this.frames.chosen(this.page) ?? this.page.mainFrameId;
  }

  /** Runs a read in the chosen frame; when that frame went away meanwhile, fails saying so. */
  private async inChosenFrame<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      throw this.frames.lostError(this.page) ?? error;
    }
  }
}

/** The CDP session that owns a frame (the page's, or an out-of-process frame's own), or a clear error when it went away. */
export function frameSession(page: Page, frameId: string): Session {
  const frame = page.frames.get(frameId);
  if (!frame || frame.session.isDetached) throw frameGone(frameId);
  return frame.session;
}

/** The session and isolated world of a frame, or a clear error when it went away. */
export async function frameWorld(
  page: Page,
  frameId: string,
  world: 'isolated' | 'main' = 'isolated',
): Promise<{ session: Session; contextId: number }> {
  const session = frameSession(page, frameId);
  const contextId =
    world === 'main' ? page.frames.mainWorld(frameId) : await page.frames.isolatedWorld(frameId).catch(() => undefined);
  if (contextId === undefined) throw frameGone(frameId);
  return { session, contextId };
}

function frameGone(frameId: string): ArgusError {
  return new ArgusError(
    'element_not_found',
    `The selected frame ${frameId} has no document right now (it was removed or is loading). Run \`argus frame main\` or select it again.`,
  );
}

async function resolveInFrame(page: Page, frameId: string, selector: string): Promise<ElementHandle> {
  if (!selector) throw new ArgusError('invalid_input', 'Pass a ref (e.g. e12) or a CSS selector.');
  const { session, contextId } = await frameWorld(page, frameId);
  const { result, exceptionDetails } = await session.send('Runtime.evaluate', {
    expression: `document.querySelector(${JSON.stringify(selector)})`,
    contextId,
    objectGroup: OBJECT_GROUP,
  });
  // in the snapshot engine's group, so it is released with its own handles
  noteObjects(session);
  if (exceptionDetails) throw badTargetError(selector);
  if (!result.objectId || result.subtype === 'null') {
    throw new ArgusError(
      'element_not_found',
      `No element matches "${selector}" in the selected frame. Run \`argus frame main\` to search the top document, or fix the selector.`,
      {
        details: { selector, frameId },
      },
    );
  }
  const [{ node }, label] = await Promise.all([
    session.send('DOM.describeNode', { objectId: result.objectId }),
    elementLabel(session, result.objectId, selector),
  ]);
  return { session, objectId: result.objectId, backendNodeId: node.backendNodeId, frameId, label };
}

/**
 * With a frame selected (`argus frame`), a whole-page read is of that frame's document: its root as
 * the target (resolved by FrameScopedEngine, which fails while the chosen frame is gone).
 */
export function selectedFrameRoot(
  manager: { selectedFrame(page: Page): string | undefined },
  page: Page,
): 'html' | undefined {
  return manager.selectedFrame(page) ? 'html' : undefined;
}

/** What a command about a whole document asks of the frame choice (the BrowserManager). */
export interface DocumentChoice {
  frameInUse(page: Page): Promise<string | undefined>;
  readonly frameChoices: { lostError(page: Page): ArgusError | undefined };
}

/** The document a command runs in: its frame, the session that owns it and a context of it (none: the top's main world). */
export interface DocumentWorld {
  frameId: string;
  session: Session;
  contextId?: number;
}

/**
 * Runs a command about a whole document (scroll by an offset, cleanup, title, storage, perf,
 * `wait --load`) in the document commands run in: the frame chosen with `argus frame` (its
 * session and `world`), else the top document. While the chosen frame is gone it fails with the
 * choice's `ref_stale`, and so does a failure because it went away meanwhile: nothing runs in the top
 * document instead.
 */
export async function inDocument<T>(
  manager: DocumentChoice,
  page: Page,
  world: 'isolated' | 'main',
  run: (where: DocumentWorld) => Promise<T>,
): Promise<T> {
  const frameId = await manager.frameInUse(page);
  if (!frameId) {
    const top = { frameId: page.mainFrameId, session: page.session };
    return run(world === 'isolated' ? { ...top, contextId: await isolatedContext(page) } : top);
  }
  try {
    return await run({ frameId, ...(await frameWorld(page, frameId, world)) });
  } catch (error) {
    throw manager.frameChoices.lostError(page) ?? error;
  }
}

/**
 * The window scroll offsets of the document `target` is in, after it was scrolled to: its frame's
 * (found by resolving it again; a page without iframes needs no lookup), else the top document's.
 */
export async function targetScrollPosition(
  page: Page,
  engine: SnapshotEngine,
  target: string,
): Promise<{ x: number; y: number }> {
  const frameId = page.frames.all().length > 1 ? (await engine.resolve(target)).frameId : page.mainFrameId;
  const where = frameId === page.mainFrameId ? {} : await frameWorld(page, frameId, 'main');
  return evaluateInPage(page, SCROLL_POSITION, [], where);
}

/** Where page-level evaluation runs: the selected frame's main world, or `{}` for the main frame. */
export async function frameEvalTarget(
  manager: { frameInUse(page: Page): Promise<string | undefined> },
  page: Page,
): Promise<{ session?: Session; contextId?: number }> {
  const frameId = await manager.frameInUse(page);
  return frameId ? frameWorld(page, frameId, 'main') : {};
}
