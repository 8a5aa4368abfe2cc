import { ArgusError } from '@argus/protocol';
import { REF_PATTERN, refParts, refsInLine } from '@argus/protocol/snapshot-refs';

/** Where a ref points: a walker id inside one document of one frame, minted in one page epoch. */
export interface RefEntry {
  ref: string;
  frameId: string;
  /** the walker's per-document token */
  token: string;
  id: number;
  epoch: number;
  label: string;
  /** the node's DOM.BackendNodeId once an action looked it up (it never changes for a node) */
  backendNodeId?: number;
}

/**
 * Parses `e12`, `@e12`, `f1e3`, and `[ref=e12]` / `ref=e12` as other tools' snapshots write refs
 * (as CSS, `[ref=e12]` would match nothing on a real page); undefined for anything else (a locator
 * or a CSS selector). Any case: `E12` is the ref e12 (as CSS it would be an `<e12>` tag, which no
 * page has, and the action would wait its whole timeout for it).
 */
export function parseRef(target: string): string | undefined {
  const ref = target
    .trim()
    .toLowerCase()
    .replace(/^@/, '')
    .replace(/^\[ref=(.+)\]$/, '$1')
    .replace(/^ref=/, '');
  return REF_PATTERN.test(ref) ? ref : undefined;
}

/**
 * A target that is neither a ref nor valid CSS. When it holds a ref (a snapshot line pasted whole,
 * `link "News" e2`, or `[ref=e2]`), the message names it.
 */
export function badTargetError(target: string): ArgusError {
  const ref = refIn(target);
  const hint = ref ? refHint(ref) : ' Pass a ref from `argus snapshot` (e.g. e12) or a CSS selector.';
  return new ArgusError('invalid_input', `"${target}" is neither a ref (like e12) nor a valid CSS selector.${hint}`, {
    details: { target, ...(ref ? { ref } : {}) },
  });
}

/**
 * A selector that matched nothing. `[ref=e2]` is valid CSS (an attribute selector), so a ref written
 * the Playwright way lands here: the message names the ref then.
 */
export function noMatchError(selector: string): ArgusError {
  const ref = refIn(selector);
  const hint = ref ? refHint(ref) : ' Run `argus snapshot -i` and use a ref, or fix the selector.';
  return new ArgusError('element_not_found', `No element matches "${selector}".${hint}`, {
    details: { selector, ...(ref ? { ref } : {}) },
  });
}

function refIn(target: string): string | undefined {
  return refsInLine(target)[0]?.ref ?? /\bref=((?:f\d+)?e\d+)\b/.exec(target)?.[1];
}

function refHint(ref: string): string {
  return ` Did you mean ${ref}? Pass the ref alone, e.g. \`argus click ${ref}\`.`;
}

export function staleError(ref: string): ArgusError {
  return new ArgusError(
    'ref_stale',
    `Ref ${ref} is stale: the page changed since the snapshot. Run \`argus snapshot\` and use the new ref.`,
    {
      details: { ref },
    },
  );
}

/** Where a tab's ref numbers start and where they come from (RefRegistry). */
export interface RefNumbering {
  /** The first number this tab mints (default 1); every number below it reads as `ref_stale`. */
  first?: number;
  /**
   * Hands out the next number (default: a counter of this tab's own, from `first`). A daemon shares
   * one among its tabs, so a ref names an element of one tab only: `e3` of another tab is unknown
   * here, never an element of this tab that happens to have the same number.
   */
  allocate?: () => number;
  /** The tab that issued a ref unknown here, named for the error (undefined: no tab the caller sees). */
  issuedElsewhere?: (ref: string) => string | undefined;
}

/**
 * How many of its minted numbers a tab remembers the frame of, past the refs of its current
 * document. Every ref ever minted was remembered before (issue 16: 4 tabs x 2,500 commands grew a
 * 114 KB table a tab, without end); an older one now reads as stale (`forgotten`), which it is.
 */
const MINTED_KEPT = 512;

/**
 * A tab's refs. The same (frame, document, walker id) always maps to the same ref, so a node keeps
 * its ref across snapshots; numbers come from a counter (the tab's, or one shared by all tabs:
 * RefNumbering.allocate) and are never reused. A tab of a relaunched browser starts above every
 * number its dead predecessor minted (`first`), so a ref from before the relaunch is stale rather
 * than unknown, and never names a new element.
 */
export class RefRegistry {
  private readonly byRef = new Map<string, RefEntry>();
  private readonly byKey = new Map<string, string>();
  private readonly frameOrdinals = new Map<string, number>();
  /** The frame ordinal (0: the main frame) each of the last MINTED_KEPT numbers this tab minted was minted with. */
  private readonly mintedIn = new Map<number, number>();
  /** Numbers below this may have been minted here and were forgotten (see MINTED_KEPT). */
  private forgottenBelow = 0;
  private readonly first: number;
  private nextRef: number;
  private nextFrame = 1;

  constructor(private readonly numbering: RefNumbering = {}) {
    this.first = Math.max(1, Math.floor(numbering.first ?? 1));
    this.nextRef = this.first;
  }

  refFor(frameId: string, isMainFrame: boolean, token: string, id: number, epoch: number, label: string): string {
    const key = `${frameId}|${token}|${id}`;
    const known = this.byKey.get(key);
    if (known) {
      const entry = this.byRef.get(known);
      if (entry) {
        entry.label = label;
        entry.epoch = epoch;
      }
      return known;
    }
    let ordinal = 0;
    if (!isMainFrame) {
      ordinal = this.frameOrdinals.get(frameId) ?? this.nextFrame++;
      this.frameOrdinals.set(frameId, ordinal);
    }
    const number = this.numbering.allocate ? this.numbering.allocate() : this.nextRef++;
    this.mintedIn.set(number, ordinal);
    if (this.mintedIn.size > MINTED_KEPT) {
      // numbers are minted in increasing order: the first key is the oldest
      const oldest = this.mintedIn.keys().next().value as number;
      this.mintedIn.delete(oldest);
      this.forgottenBelow = oldest + 1;
    }
    const ref = `${ordinal ? `f${ordinal}` : ''}e${number}`;
    this.byKey.set(key, ref);
    this.byRef.set(ref, { ref, frameId, token, id, epoch, label });
    return ref;
  }

  /** The ref already minted for a walker id, if any (never mints one). */
  lookup(frameId: string, token: string, id: number): string | undefined {
    return this.byKey.get(`${frameId}|${token}|${id}`);
  }

  get(ref: string): RefEntry | undefined {
    return this.byRef.get(ref);
  }

  /** Forgets refs of older epochs; looking them up still answers `ref_stale` (see `issued`). */
  retireBefore(epoch: number): void {
    for (const [ref, entry] of this.byRef) {
      if (entry.epoch < epoch) {
        this.byRef.delete(ref);
        this.byKey.delete(`${entry.frameId}|${entry.token}|${entry.id}`);
      }
    }
  }

  /**
   * True when this tab minted the ref at some point (numbers are never reused), with
   * that frame prefix: `f9e1` is not `e1`, nor `f2e1` when e1 was minted in the main frame. A number
   * below `first` was minted by a predecessor tab (a relaunched browser) and counts as issued.
   */
  issued(ref: string): boolean {
    if (this.byRef.has(ref)) return true;
    const parts = refParts(ref);
    if (!parts) return false;
    if (parts.number < this.first) return true;
    return this.mintedIn.get(parts.number) === parts.frame;
  }

  /**
   * True when the ref's number is older than what this tab still remembers (MINTED_KEPT; numbers
   * are minted in increasing order, so every remembered one is above it): it may have been minted
   * here, so it reads as stale, not as never issued.
   */
  forgotten(ref: string): boolean {
    const parts = refParts(ref);
    return parts !== undefined && parts.number < this.forgottenBelow;
  }

  /** How many minted numbers this tab remembers the frame of (bounded by MINTED_KEPT). */
  get remembered(): number {
    return this.mintedIn.size;
  }

  /** The tab that issued a ref this one did not (RefNumbering.issuedElsewhere). */
  issuedElsewhere(ref: string): string | undefined {
    return this.numbering.issuedElsewhere?.(ref);
  }

  /** Current refs grouped by frame (for overlays). */
  byFrame(epoch: number): Map<string, RefEntry[]> {
    const out = new Map<string, RefEntry[]>();
    for (const entry of this.byRef.values()) {
      if (entry.epoch !== epoch) continue;
      const list = out.get(entry.frameId) ?? [];
      list.push(entry);
      out.set(entry.frameId, list);
    }
    return out;
  }
}
