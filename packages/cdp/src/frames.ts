import type { Protocol } from 'devtools-protocol';
import type { Session } from './session.js';
import { withoutPassword } from './url-display.js';

export interface FrameInfo {
  id: string;
  parentId: string | undefined;
  url: string;
  name: string;
  /** The flat session that owns this frame: the page's, or an OOPIF child's. */
  session: Session;
}

/**
 * Frames of one page, across its own session and its out-of-process iframe sessions, plus the
 * execution contexts (main world and the Argus isolated world) of each frame.
 */
export class FrameRegistry {
  private readonly frames = new Map<string, FrameInfo>();
  private readonly mainWorlds = new Map<string, number>();
  private readonly isolatedWorlds = new Map<string, number>();
  private readonly isolatedPending = new Map<string, Promise<number>>();

  constructor(readonly worldName: string) {}

  /** Starts tracking a session's frames and contexts. Returns the unsubscribe function. */
  track(session: Session): () => void {
    const offs = [
      session.on('Page.frameAttached', (event) => {
        const existing = this.frames.get(event.frameId);
        this.frames.set(event.frameId, {
          id: event.frameId,
          parentId: event.parentFrameId,
          url: existing?.url ?? '',
          name: existing?.name ?? '',
          session: existing?.session ?? session,
        });
      }),
      session.on('Page.frameNavigated', (event) => this.upsert(event.frame, session)),
      session.on('Page.navigatedWithinDocument', (event) => {
        const frame = this.frames.get(event.frameId);
        if (frame) frame.url = withoutPassword(event.url);
      }),
      session.on('Page.frameDetached', (event) => {
        // a frame swapping to another process detaches with reason 'swap': keep it, its new session re-adopts it
        if (event.reason === 'swap') return;
        this.drop(event.frameId);
      }),
      session.on('Runtime.executionContextCreated', ({ context }) => {
        const aux = context.auxData as { frameId?: string; isDefault?: boolean } | undefined;
        if (!aux?.frameId) return;
        if (aux.isDefault) this.mainWorlds.set(aux.frameId, context.id);
        else if (context.name === this.worldName) this.isolatedWorlds.set(aux.frameId, context.id);
      }),
      session.on('Runtime.executionContextDestroyed', (event) => this.forgetContext(event.executionContextId)),
      session.on('Runtime.executionContextsCleared', () => {
        for (const [frameId, frame] of this.frames) {
          if (frame.session === session) {
            this.mainWorlds.delete(frameId);
            this.isolatedWorlds.delete(frameId);
          }
        }
      }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }

  /** Records a whole frame tree (from Page.getFrameTree) as owned by a session. */
  /** `keepKnown`: frames already known with a URL keep it (their events came after the tree was taken). */
  adoptTree(tree: Protocol.Page.FrameTree, session: Session, options: { keepKnown?: boolean } = {}): void {
    if (!options.keepKnown || !this.frames.get(tree.frame.id)?.url) this.upsert(tree.frame, session);
    for (const child of tree.childFrames ?? []) this.adoptTree(child, session, options);
  }

  private upsert(frame: Protocol.Page.Frame, session: Session): void {
    const existing = this.frames.get(frame.id);
    this.frames.set(frame.id, {
      id: frame.id,
      parentId: frame.parentId ?? existing?.parentId,
      url: withoutPassword(frame.url + (frame.urlFragment ?? '')),
      name: frame.name ?? '',
      session:
        existing &&
        existing.session !== session &&
        existing.session.targetType === 'iframe' &&
        !existing.session.isDetached
          ? existing.session
          : session,
    });
  }

  /** An OOPIF child session owns this frame from now on. */
  assignSession(frameId: string, session: Session): void {
    const existing = this.frames.get(frameId);
    this.frames.set(frameId, {
      id: frameId,
      parentId: existing?.parentId,
      url: existing?.url ?? '',
      name: existing?.name ?? '',
      session,
    });
    this.mainWorlds.delete(frameId);
    this.isolatedWorlds.delete(frameId);
    this.isolatedPending.delete(frameId);
  }

  private forgetContext(contextId: number): void {
    for (const [frameId, id] of this.mainWorlds) if (id === contextId) this.mainWorlds.delete(frameId);
    for (const [frameId, id] of this.isolatedWorlds) if (id === contextId) this.isolatedWorlds.delete(frameId);
  }

  drop(frameId: string): void {
    this.frames.delete(frameId);
    this.mainWorlds.delete(frameId);
    this.isolatedWorlds.delete(frameId);
    this.isolatedPending.delete(frameId);
    for (const frame of [...this.frames.values()]) if (frame.parentId === frameId) this.drop(frame.id);
  }

  get(frameId: string): FrameInfo | undefined {
    return this.frames.get(frameId);
  }

  all(): FrameInfo[] {
    return [...this.frames.values()];
  }

  children(frameId: string): FrameInfo[] {
    return this.all().filter((frame) => frame.parentId === frameId);
  }

  mainWorld(frameId: string): number | undefined {
    return this.mainWorlds.get(frameId);
  }

  /** The frame's isolated world if Argus has one in its document already (none is made). */
  knownIsolatedWorld(frameId: string): number | undefined {
    return this.isolatedWorlds.get(frameId);
  }

  /** The Argus isolated world of a frame, created on first use and cached until the document changes. */
  async isolatedWorld(frameId: string): Promise<number> {
    const known = this.isolatedWorlds.get(frameId);
    if (known !== undefined) return known;
    let pending = this.isolatedPending.get(frameId);
    if (!pending) {
      const frame = this.frames.get(frameId);
      if (!frame) throw new Error(`Unknown frame ${frameId}`);
      pending = frame.session
        .send('Page.createIsolatedWorld', { frameId, worldName: this.worldName, grantUniveralAccess: true })
        .then(({ executionContextId }) => {
          this.isolatedWorlds.set(frameId, executionContextId);
          return executionContextId;
        })
        .finally(() => this.isolatedPending.delete(frameId));
      this.isolatedPending.set(frameId, pending);
    }
    return pending;
  }
}
