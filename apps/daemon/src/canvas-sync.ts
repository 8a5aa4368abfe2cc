import { randomBytes } from 'node:crypto';
import type { CanvasSession } from '@argus/canvas';
import { canvas } from './canvas-lib.js';
import { ArgusError, type CANVAS_UPDATE_KINDS } from '@argus/protocol';
import { TabLeases, type LeaseClaim, type LeaseSubject } from './tab-leases.js';

export type CanvasUpdateKind = (typeof CANVAS_UPDATE_KINDS)[number];

export interface CanvasUpdate {
  doc: string;
  revision: number;
  kind: CanvasUpdateKind;
  by: string | null;
  update: string;
  bytes: number;
  replica: string;
}

/** A replica's own change: the update it pushed, not to be sent back to its subscription. */
export interface PushOrigin {
  replica: string;
  update: Uint8Array;
}

const CANVAS_LEASE: LeaseSubject = {
  code: 'canvas_leased',
  name: (doc) => `Design document "${doc}"`,
  detailsKey: 'doc',
  advice:
    'Reading it (show, export, open, updates) still works; to change it, wait with --lease-wait 30s (ARGUS_LEASE_WAIT), or ask the holder to `argus canvas release`.',
  verbs: { list: 'argus canvas leases', take: 'argus canvas lease <doc>' },
};

interface Subscriber {
  id: string;
  /** What this subscriber has been sent, as a state vector: the next update is exactly what it lacks. */
  vector: Uint8Array;
  push(update: CanvasUpdate): void;
  end(): void;
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

/**
 * Several clients on one design document: the edit leases (the tab lease machinery, keyed by
 * document id) and the feed of each document's Yjs updates. After every change the daemon sends
 * each subscriber exactly what it lacks (`encodeStateAsUpdate` against the subscriber's own state
 * vector), so a replica that applies the feed in order converges with the daemon's document.
 */
export class CanvasSync {
  readonly leases: TabLeases;
  private readonly subscribers = new Map<string, Set<Subscriber>>();

  constructor(now: () => number = Date.now) {
    this.leases = new TabLeases(now, CANVAS_LEASE);
  }

  /** Lets a change onto `doc`: at once when it is not leased or leased by the caller; else waits or fails with canvas_leased. */
  admit(doc: string, claim: LeaseClaim | undefined, signal?: AbortSignal): Promise<void> {
    // the daemon's own work (no claim) is never held by a lease
    return claim ? this.leases.admit(doc, claim, signal) : Promise.resolve();
  }

  /** A new subscriber: sent the state it lacks at once, then every change. Returns the cleanup. */
  subscribe(
    doc: string,
    session: CanvasSession,
    since: Uint8Array | undefined,
    push: (update: CanvasUpdate) => void,
    end: () => void,
  ): () => void {
    let first: Uint8Array;
    try {
      first = session.encodeState(since);
    } catch (error) {
      throw new ArgusError('invalid_input', `--since is not a Yjs state vector (${(error as Error).message}).`);
    }
    const subscriber: Subscriber = {
      id: `r_${randomBytes(9).toString('base64url')}`,
      vector: session.stateVector(),
      push,
      end,
    };
    push(this.updateOf(subscriber, doc, session.revision, 'state', null, first));
    let set = this.subscribers.get(doc);
    if (!set) this.subscribers.set(doc, (set = new Set()));
    set.add(subscriber);
    return () => {
      set.delete(subscriber);
      if (set.size === 0 && this.subscribers.get(doc) === set) this.subscribers.delete(doc);
    };
  }

  /** `doc` changed (patch, undo, redo, push, import): each subscriber gets what it lacks. */
  changed(doc: string, session: CanvasSession, kind: CanvasUpdateKind, by: string | null, origin?: PushOrigin): void {
    const set = this.subscribers.get(doc);
    if (!set) return;
    const vector = session.stateVector();
    for (const subscriber of set) {
      const has =
        subscriber.id === origin?.replica ? canvas().vectorWith(subscriber.vector, origin.update) : subscriber.vector;
      const update = session.encodeState(has);
      subscriber.vector = vector;
      subscriber.push(this.updateOf(subscriber, doc, session.revision, kind, by, update));
    }
  }

  /** `doc` was replaced by another Y.Doc (load --overwrite): subscribers start their replica again. */
  replaced(doc: string, session: CanvasSession, by: string | null): void {
    const set = this.subscribers.get(doc);
    if (!set) return;
    const state = session.encodeState();
    const vector = session.stateVector();
    for (const subscriber of set) {
      subscriber.vector = vector;
      subscriber.push(this.updateOf(subscriber, doc, session.revision, 'reset', by, state));
    }
  }

  /** `doc` was removed: its subscribers are told and their streams end; its lease ends. */
  removed(doc: string, revision: number, by: string | null): void {
    this.leases.forget(doc);
    const set = this.subscribers.get(doc);
    this.subscribers.delete(doc);
    for (const subscriber of set ?? []) {
      subscriber.push(this.updateOf(subscriber, doc, revision, 'removed', by, new Uint8Array()));
      subscriber.end();
    }
  }

  close(): void {
    this.leases.clear();
    for (const set of this.subscribers.values()) for (const subscriber of set) subscriber.end();
    this.subscribers.clear();
  }

  private updateOf(
    subscriber: Subscriber,
    doc: string,
    revision: number,
    kind: CanvasUpdateKind,
    by: string | null,
    update: Uint8Array,
  ): CanvasUpdate {
    return { doc, revision, kind, by, update: base64(update), bytes: update.byteLength, replica: subscriber.id };
  }
}

/** A base64 Yjs update or state vector from a client, as bytes (the schema checked the alphabet). */
export function bytesOf(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'base64'));
}
