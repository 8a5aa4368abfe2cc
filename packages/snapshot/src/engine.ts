import { CommandCancelledError, type Page, PageUnresponsiveError, isDocumentGone } from '@argus/cdp';
import { ArgusError } from '@argus/protocol';
import { diffLines, renderDiff } from './diff.js';
import { appearedText, pageTexts } from './appeared-text.js';
import {
  callWalker,
  callOnElementWithWalker,
  documentContext,
  evalObject,
  evalValue,
  evalWithWalker,
  frameContext,
  installWalker,
  releaseObjects,
  untilInPage,
  type FrameContext,
} from './frame-eval.js';
import { ListenerCache, keepPageDocument, listenedKey, listenedNodes, listenedObjects } from './listeners.js';
import { type ElementHandle, selectorHandle } from './element-handle.js';
import { formatSnapshot } from './format.js';
import { MAX_FRAME_NESTING, childFrameId, frameText, withFrameText } from './frame-text.js';
import { annotateRefs } from './overlay.js';
import { isKnownRole, nearestRoles } from './aria-roles.js';
import { describeLocator, parseLocator, roleWordLocator, snapshotLineLocator, type Locator } from './locator.js';
import { RefRegistry, parseRef, staleError, type RefEntry, type RefNumbering } from './ref-registry.js';
import type { ArgusPageApi, LocateResult } from './page-walker.js';
import type { WalkNode, WalkOptions, WalkResult } from './walker-types.js';
import { pageExpression, pageResult } from './page/page-function.js';
import { WAIT_UNTIL, type WaitTest } from './page/wait.js';

export interface SnapshotOptions {
  /** With `diff` and no `interactive`, `depth` or `scope`: the view of the tab's last snapshot. */
  interactive?: boolean;
  depth?: number;
  scope?: string;
  maxChars?: number;
  cursor?: string;
  diff?: boolean;
  /**
   * An action's snapshots, the one before its input and the one after: each keeps the page's text,
   * and the one after (with `diff`) adds `+ text: …` lines for short text the action made appear
   * that `-i` does not print (a bare toast, `<p>Saved!</p>`; see appeared-text.ts). Plain snapshots
   * never carry them.
   */
  appeared?: boolean;
}

export interface SnapshotResult {
  text: string;
  refs: number;
  truncated: boolean;
  cursor?: string;
  url: string;
  title: string;
  /**
   * With `diff`: `previous` when only the lines changed since the previous snapshot are listed, `none`
   * when there was no earlier snapshot of this tab in this mode, `navigated` when the earlier one was
   * of another document (its refs are all stale, a diff would list two whole pages): in both the full
   * snapshot is returned (and is the next baseline).
   */
  baseline?: 'previous' | 'none' | 'navigated';
  /**
   * A continuation (`cursor`) of a snapshot whose document changed since it was taken (DOM
   * mutations): its lines are the page as it was then.
   */
  pageChanged?: true;
}

export type { ElementHandle } from './element-handle.js';

/**
 * The walker's calls for a snapshot. The tree comes back as one JSON string: DevTools copies a
 * returned object into protocol values node by node, which cost more than the walk itself on a small
 * page; a string crosses as it is.
 */
const WALK = 'function (a, walk) { return JSON.stringify(a.snapshot(walk)); }';
const MARK_AND_WALK =
  'function (a, walk, ...listened) { a.markListened(...listened.filter((el) => el && el.nodeType === 1)); return JSON.stringify(a.snapshot(walk)); }';

/** Characters kept of a text run or a name in the snapshot. */
const TEXT_MAX = 100;
const KEPT_SNAPSHOTS = 4;
/** Documents a locator or selector is resolved in when the page moves on meanwhile (a redirect chain). */
const MAX_DOCUMENTS = 3;
/**
 * How long a call that Chrome failed because its document went away waits for the page's commit of
 * the next one to arrive (the answer can come before the frameNavigated event): event driven.
 */
const COMMIT_WAIT_MS = 2_000;

interface StoredSnapshot {
  id: number;
  lines: string[];
  url: string;
  title: string;
  refs: number;
  baseline?: SnapshotResult['baseline'];
  /** The page's document (Page.epoch) it was taken of: a cursor into it dies with that document. */
  epoch: number;
  /**
   * For a snapshot that was cut: the walked document's mutation count when the cut was made, with
   * the walker install (token) counting it and its frame; a continuation reads the count again to say
   * whether the page changed since. Absent for a snapshot given whole, and when the walked frame is
   * not known (a --scope selector found in a frame below) or could not be watched.
   */
  watch?: MutationWatch;
  /** How it was taken, for a continuation that asks for another view. */
  interactive: boolean;
  depth: number | undefined;
  scope: string | undefined;
}

interface MutationWatch {
  frameId: string;
  token: string;
  count: number;
}

/** How a stored snapshot was taken, in words: `full snapshot`, `-i snapshot --depth 3 --scope main`. */
function describeView(stored: StoredSnapshot): string {
  return [
    stored.interactive ? '-i snapshot' : 'full snapshot',
    stored.depth === undefined ? '' : ` --depth ${stored.depth}`,
    stored.scope === undefined ? '' : ` --scope ${stored.scope}`,
  ].join('');
}

export function nodeLabel(node: WalkNode): string {
  return node.n ? `${node.r} "${node.n}"` : `${node.r} (${node.h ?? 'no name'})`;
}

/** One per tab: walks its frames, owns its refs, resolves refs and selectors to elements. */
/**
 * The expression an action's `Page.act` evaluates in the round trip after its input (its `probe`):
 * the fields whose `invalid` events the action caused (ArgusPageApi.takeInvalid). Read with
 * SnapshotEngine.invalidFields.
 */
export const INVALID_PROBE =
  'globalThis.__argus && globalThis.__argus.takeInvalid ? globalThis.__argus.takeInvalid() : null';

export class SnapshotEngine {
  readonly refs: RefRegistry;
  private readonly stored: StoredSnapshot[] = [];
  /**
   * the last snapshot's elements in each mode, the document (epoch) they were of, and the page's
   * text when that snapshot was an action's (SnapshotOptions.appeared)
   */
  private readonly baselines = new Map<string, { units: string[]; epoch: number; texts?: ReadonlySet<string> }>();
  private lastRefs: RefEntry[] = [];
  /** the view of the last snapshot taken: what `diff` alone compares in */
  private lastView: Pick<SnapshotOptions, 'interactive' | 'depth' | 'scope'> | undefined;
  private nextSnapshot = 1;
  private readonly listenerCache = new ListenerCache();

  constructor(
    readonly page: Page,
    numbering: RefNumbering = {},
  ) {
    this.refs = new RefRegistry(numbering);
  }

  async snapshot(asked: SnapshotOptions = {}): Promise<SnapshotResult> {
    this.page.assertOpen();
    if (asked.cursor !== undefined) return this.continueFrom(asked.cursor, asked);
    // "what changed?" (`diff` alone) is asked of the snapshot the agent last read: after an `-i`
    // snapshot a diff of the full tree would find no baseline in that mode and print the whole tree
    const viewless = asked.interactive === undefined && asked.depth === undefined && asked.scope === undefined;
    const options = asked.diff && viewless && this.lastView ? { ...asked, ...this.lastView } : asked;
    if (options.maxChars !== undefined && (!Number.isFinite(options.maxChars) || options.maxChars < 1)) {
      throw new ArgusError('invalid_input', `--max-chars must be a positive number (got ${options.maxChars}).`);
    }
    if (options.depth !== undefined && (!Number.isInteger(options.depth) || options.depth < 0)) {
      throw new ArgusError('invalid_input', `--depth must be a non-negative integer (got ${options.depth}).`);
    }
    const { tree, title, walked } = await this.capture(options.scope);
    const formatOptions = {
      ...(options.interactive ? { interactive: true } : {}),
      ...(options.depth !== undefined ? { depth: options.depth } : {}),
    };
    const formatted = formatSnapshot(tree, formatOptions);
    let lines = formatted.lines;
    const refs = formatted.refs;
    const modeKey = `${options.interactive ? 'i' : 'f'}|${options.depth ?? ''}|${options.scope ?? ''}`;
    const before = this.baselines.get(modeKey);
    // a snapshot of another document is no baseline: nothing of it is on this page
    const previous = before?.epoch === this.page.epoch ? before.units : undefined;
    const texts = options.appeared ? pageTexts(tree) : undefined;
    this.lastView = {
      ...(options.interactive ? { interactive: true } : {}),
      ...(options.depth !== undefined ? { depth: options.depth } : {}),
      ...(options.scope !== undefined ? { scope: options.scope } : {}),
    };
    // the diff compares elements, not lines: a change inside a run of links shows that one link
    this.baselines.set(modeKey, {
      units: formatted.units,
      epoch: this.page.epoch,
      ...(texts ? { texts: new Set(texts) } : {}),
    });
    if (options.diff && previous) {
      const changes = diffLines(previous, formatted.units);
      if (texts && before?.texts) changes.push(...appearedText(before.texts, texts, formatted.units));
      lines = renderDiff(changes).split('\n');
    }
    if (!lines.length) lines = [options.interactive ? '(no interactive elements)' : '(empty page)'];
    const stored: StoredSnapshot = {
      id: this.nextSnapshot++,
      lines,
      url: this.page.url,
      title,
      refs,
      epoch: this.page.epoch,
      interactive: options.interactive === true,
      depth: options.depth,
      scope: options.scope,
    };
    // a diff with nothing to compare against says so, rather than passing the whole tree off as changes
    if (options.diff) stored.baseline = previous ? 'previous' : before ? 'navigated' : 'none';
    this.stored.push(stored);
    if (this.stored.length > KEPT_SNAPSHOTS) this.stored.shift();
    const first = this.page_(stored, 0, options.maxChars);
    if (first.cursor !== undefined && walked) stored.watch = await this.watchFrom(walked);
    return first;
  }

  /**
   * Starts counting the walked document's mutations for a cut snapshot's cursor (one short call, made
   * only when a snapshot is cut: a page whose snapshots are given whole gets no observer) and answers
   * the count now. Mutations between the walk and this call are not counted. Undefined when the
   * document cannot be read now: its continuation then says nothing of changes.
   */
  private async watchFrom(walked: { frameId: string; token: string }): Promise<MutationWatch | undefined> {
    const count = await this.mutationCount(walked, 'watchMutations');
    return count !== undefined && count >= 0 ? { ...walked, count } : undefined;
  }

  /**
   * The walker's mutation count in `walked`'s document (`read`: start the watch, or only read it):
   * -1 when the world holds another walker install (its count started again) or none was started,
   * undefined when the document cannot be read now. A page that does not answer, or a caller that
   * left, fails the command as any read does.
   */
  private async mutationCount(
    walked: { frameId: string; token: string },
    read: 'watchMutations' | 'mutations',
  ): Promise<number | undefined> {
    try {
      const ctx = await frameContext(this.page, walked.frameId);
      if (!ctx) return undefined;
      return await evalValue<number>(
        ctx,
        `(() => { const a = globalThis.__argus; return a && a.token === ${JSON.stringify(walked.token)} && a.${read} ? a.${read}() : -1; })()`,
      );
    } catch (error) {
      if (error instanceof CommandCancelledError || error instanceof PageUnresponsiveError) throw error;
      return undefined;
    }
  }

  /** Cuts a stored snapshot at a line boundary; the cursor names the snapshot and the next line. */
  private page_(stored: StoredSnapshot, from: number, maxChars: number | undefined): SnapshotResult {
    const base = {
      url: stored.url,
      title: stored.title,
      refs: stored.refs,
      ...(stored.baseline ? { baseline: stored.baseline } : {}),
    };
    if (maxChars === undefined) return { ...base, text: stored.lines.slice(from).join('\n'), truncated: false };
    let used = 0;
    let end = from;
    while (end < stored.lines.length) {
      const cost = stored.lines[end]!.length + 1;
      if (end > from && used + cost > maxChars + 1) break;
      used += cost;
      end++;
    }
    const text = stored.lines.slice(from, end).join('\n');
    if (end >= stored.lines.length) return { ...base, text, truncated: false };
    return { ...base, text, truncated: true, cursor: `s${stored.id}.${end}` };
  }

  /**
   * The rest of a stored snapshot from its cursor: only while the page still shows the document it
   * was taken of (after a navigation its lines and refs describe a page that is gone: `ref_stale`),
   * and only as the view it was taken in (an explicit -i, --depth or --scope that differs is
   * refused, not ignored). When that document changed since (a list grew, a dialog opened) the rest
   * is still given, with `pageChanged` (see changedSince).
   */
  private async continueFrom(cursor: string, options: SnapshotOptions): Promise<SnapshotResult> {
    const match = /^s(\d+)\.(\d+)$/.exec(cursor.trim());
    if (!match)
      throw new ArgusError(
        'invalid_input',
        `"${cursor}" is not a snapshot cursor. Pass the cursor returned by a truncated snapshot.`,
      );
    const stored = this.stored.find((entry) => entry.id === Number(match[1]));
    if (!stored) throw new ArgusError('invalid_input', `Cursor ${cursor} has expired. Run \`argus snapshot\` again.`);
    if (stored.epoch !== this.page.epoch)
      throw new ArgusError(
        'ref_stale',
        `Cursor ${cursor} is from a page this tab has left (${stored.url}); its lines and refs are gone. Run \`argus snapshot\` again.`,
        { details: { cursorUrl: stored.url, url: this.page.url } },
      );
    const asked = [
      options.interactive === true && !stored.interactive ? '-i' : undefined,
      options.depth !== undefined && options.depth !== stored.depth ? `--depth ${options.depth}` : undefined,
      options.scope !== undefined && options.scope !== stored.scope ? `--scope ${options.scope}` : undefined,
      options.diff === true ? '--diff' : undefined,
    ].filter((flag) => flag !== undefined);
    if (asked.length)
      throw new ArgusError(
        'invalid_input',
        `Cursor ${cursor} continues a ${describeView(stored)}; ${asked.join(' and ')} would be another snapshot. Pass the cursor alone (with --max-chars), or run \`argus snapshot\` with the options you want.`,
      );
    const rest = this.page_(stored, Math.min(Number(match[2]), stored.lines.length), options.maxChars);
    return (await this.changedSince(stored)) ? { ...rest, pageChanged: true } : rest;
  }

  /**
   * Whether the document a stored snapshot walked has changed since: the walker's MutationObserver
   * count read again (one short call) against the one taken when it was cut. A world whose walker is
   * another install (its count started again) or that cannot be read now counts as changed. Only the
   * walked document itself is watched (the top one, or the frame a --scope ref is in), not the
   * iframes whose lines the snapshot holds: reading each frame's count would cost a call per frame.
   */
  private async changedSince(stored: StoredSnapshot): Promise<boolean> {
    if (!stored.watch) return false;
    return (await this.mutationCount(stored.watch, 'mutations')) !== stored.watch.count;
  }

  /**
   * Walks the main frame (or the scope) and every visible iframe below it; assigns refs. The scope
   * is any target an action takes (a ref, a locator, a CSS selector), or a landmark as the snapshot
   * prints it (`navigation "Primary"`, or a bare role word such as `banner` that no CSS tag matches).
   * A locator, a CSS selector or a landmark is looked for in the locator frame (and a CSS selector
   * then in the frames below it), as an action's would be.
   */
  private async capture(
    scope: string | undefined,
  ): Promise<{ tree: WalkNode; title: string; walked: { frameId: string; token: string } | undefined }> {
    const walk: WalkOptions = { textMax: TEXT_MAX };
    let frameId = this.page.mainFrameId;
    const scopeRef = (ref: string) => {
      const entry = this.entryFor(ref);
      frameId = entry.frameId;
      walk.rootId = entry.id;
    };
    const ref = scope !== undefined && scope.trim() ? parseRef(scope) : undefined;
    if (scope !== undefined && scope.trim()) {
      const locator = ref ? undefined : (parseLocator(scope) ?? snapshotLineLocator(scope));
      if (ref) scopeRef(ref);
      else if (locator) scopeRef(await this.locatorRef(locator, this.locatorFrame()));
      else {
        walk.rootSelector = scope;
        frameId = this.locatorFrame();
      }
    }
    releaseObjects(this.page.session);
    this.refs.retireBefore(this.page.epoch);
    this.lastRefs = [];
    let result = await this.walkFrame(frameId, walk, 0);
    /** the frame whose document `result` walked, when known */
    let walked: string | undefined = frameId;
    // a ref of a frame that has no document any more is stale, as for an action given it
    if (!result && ref && frameId !== this.page.mainFrameId) throw staleError(ref);
    if (result?.error === 'scope_not_found' && walk.rootSelector !== undefined) {
      const below = await this.scopeInFrames(frameId, walk);
      if (below) [result, walked] = [below, undefined];
    }
    // a landmark named by its role alone (`banner`, `navigation`): no tag of that name, the role then
    const landmark = result?.error === 'scope_not_found' && scope !== undefined ? roleWordLocator(scope) : undefined;
    const landmarkRef =
      landmark &&
      (await this.locatorRef(landmark, this.locatorFrame()).catch((error: unknown) => {
        if (error instanceof ArgusError && error.code === 'element_not_found') return undefined;
        throw error;
      }));
    if (landmarkRef) {
      delete walk.rootSelector;
      scopeRef(landmarkRef);
      result = await this.walkFrame(frameId, walk, 0);
      walked = frameId;
    }
    if (!result)
      throw new ArgusError('target_closed', 'The page has no document to snapshot right now. Retry after it loads.');
    if (result.error === 'bad_selector')
      throw new ArgusError(
        'invalid_input',
        `--scope "${scope}" is neither a ref, a locator (role=…, text=…, label=…), a snapshot line (navigation "Main") nor a valid CSS selector.`,
      );
    if (result.error === 'scope_not_found') {
      throw new ArgusError(
        'element_not_found',
        `Nothing matches --scope "${scope}". Run \`argus snapshot\` without --scope to see the page.`,
      );
    }
    return {
      tree: result.tree ?? { r: 'root' },
      title: result.title,
      walked: walked === undefined ? undefined : { frameId: walked, token: result.token },
    };
  }

  /** A --scope selector the top document does not match: the first frame below (breadth first) whose document does. */
  private async scopeInFrames(frameId: string, walk: WalkOptions): Promise<WalkResult | undefined> {
    const queue = this.page.frames.children(frameId);
    for (let index = 0; index < queue.length && index < 50; index++) {
      const frame = queue[index]!;
      const result = await this.walkFrame(frame.id, walk, 1);
      if (result && !result.error) return result;
      queue.push(...this.page.frames.children(frame.id));
    }
    return undefined;
  }

  private async walkFrame(frameId: string, walk: WalkOptions, nesting: number): Promise<WalkResult | undefined> {
    const ctx = await frameContext(this.page, frameId);
    if (!ctx) return undefined;
    let result: WalkResult;
    try {
      result = await this.walkWithListeners(ctx, this.page.frames.mainWorld(frameId), walk);
    } catch (error) {
      if (nesting > 0) return undefined; // a frame that went away mid-snapshot is simply left out
      throw error;
    }
    if (!result.tree) return result;
    const iframes: WalkNode[] = [];
    this.assignRefs(result.tree, ctx, result.token, iframes);
    if (iframes.length && nesting < MAX_FRAME_NESTING) {
      await Promise.all(
        iframes.map(async (node) => {
          const childId = await childFrameId(ctx, node.f ?? -1);
          if (!childId) return;
          const child = await this.walkFrame(childId, { textMax: walk.textMax }, nesting + 1);
          if (child?.tree?.c) node.c = child.tree.c;
        }),
      );
    }
    return result;
  }

  /**
   * One walk of a frame with its click-listened elements marked. The first snapshot of a document
   * asks CDP for them and then walks (two round trips). After that the walk goes out together with
   * the question (one round trip): the world's walker still holds the elements it was last given,
   * and the answer only says whether they are still the ones; when they are not (listeners came or
   * went), the new ones are given and the frame walked again.
   */
  private async walkWithListeners(ctx: FrameContext, mainWorld: number | undefined, walk: WalkOptions) {
    const cache = this.listenerCache;
    const marked = cache.marked(ctx);
    const asked = listenedNodes(ctx, mainWorld, cache);
    if (marked !== undefined) {
      const walked = callWalker<string>(ctx, WALK, walk, []);
      // settled later or never (when the answer differs): a failure then is not an unhandled rejection
      walked.catch(() => undefined);
      const ids = await asked;
      if (ids === undefined || listenedKey(ids) === marked) return JSON.parse(await walked) as WalkResult;
      return this.markAndWalk(ctx, ids, walk);
    }
    return this.markAndWalk(ctx, (await asked) ?? [], walk);
  }

  /**
   * Readies the top document for its first read (the daemon calls this for each new document, once
   * the command that navigated has answered): the walker installed in its isolated world and the
   * page's `document` handle looked up for the listener query. The first snapshot of a document
   * otherwise did both first: about 10 ms of Chromium parsing and running the walker's source, and a
   * round trip that waits while the renderer finishes loading, before its own walk (CDP traces,
   * issue 16). Best effort: a document gone or busy meanwhile leaves it to the next read, as before.
   */
  async readyDocument(): Promise<void> {
    const epoch = this.page.epoch;
    const frameId = this.page.mainFrameId;
    try {
      const ctx = await frameContext(this.page, frameId);
      if (!ctx || this.page.epoch !== epoch) return;
      const mainWorld = this.page.frames.mainWorld(frameId);
      await Promise.all([
        installWalker(ctx),
        mainWorld === undefined ? undefined : keepPageDocument(ctx, mainWorld, this.listenerCache),
      ]);
    } catch {
      // the next read installs what is missing
    }
  }

  private async markAndWalk(ctx: FrameContext, ids: number[], walk: WalkOptions): Promise<WalkResult> {
    const objects = await listenedObjects(ctx, ids, this.listenerCache);
    const text = await callWalker<string>(ctx, MARK_AND_WALK, walk, objects);
    this.listenerCache.setMarked(ctx, listenedKey(ids));
    return JSON.parse(text) as WalkResult;
  }

  private assignRefs(node: WalkNode, ctx: FrameContext, token: string, iframes: WalkNode[]): void {
    if (node.id !== undefined) {
      const label = nodeLabel(node);
      node.ref = this.refs.refFor(
        ctx.frameId,
        ctx.frameId === this.page.mainFrameId,
        token,
        node.id,
        this.page.epoch,
        label,
      );
      this.lastRefs.push({ ref: node.ref, frameId: ctx.frameId, token, id: node.id, epoch: this.page.epoch, label });
    }
    if (node.f !== undefined) iframes.push(node);
    if (node.c) for (const child of node.c) if (typeof child !== 'string') this.assignRefs(child, ctx, token, iframes);
  }

  /**
   * The text a person sees on the page (or in `target`), hidden text left out by the walker's own
   * rules, each visible iframe's text (same- or cross-origin) in its place between frame markers.
   */
  async text(target: string | undefined, maxChars: number): Promise<{ text: string; truncated: boolean }> {
    this.page.assertOpen();
    if (!Number.isFinite(maxChars) || maxChars < 1)
      throw new ArgusError('invalid_input', `maxChars must be a positive number (got ${maxChars}).`);
    let text: string;
    if (target !== undefined && target.trim()) {
      const handle = await this.resolve(target);
      const ctx = await documentContext(this.page, handle.frameId);
      const read = await callOnElementWithWalker<{ text: string; frames: number }>(
        handle.session,
        handle.objectId,
        'function (a) { return a.text(this); }',
      );
      text = await withFrameText(this.page, ctx, read, 0);
    } else {
      const ctx = await documentContext(this.page, this.page.mainFrameId);
      text = await frameText(this.page, ctx, 0);
    }
    return text.length > maxChars ? { text: text.slice(0, maxChars), truncated: true } : { text, truncated: false };
  }

  private entryFor(ref: string): RefEntry {
    const entry = this.refs.get(ref);
    if (!entry) {
      if (this.refs.issued(ref)) throw staleError(ref);
      const tab = this.refs.issuedElsewhere(ref);
      if (tab !== undefined)
        throw new ArgusError(
          'ref_not_found',
          `Ref ${ref} is from tab ${tab}, not this one: a ref belongs to the tab whose snapshot gave it. Act in that tab (\`--tab ${tab}\`, or switch with \`argus tab ${tab}\`), or run \`argus snapshot\` here and use a ref from it.`,
          { details: { ref, tab } },
        );
      if (this.refs.forgotten(ref)) throw staleError(ref);
      throw new ArgusError(
        'ref_not_found',
        `Ref ${ref} was never issued in this tab. Run \`argus snapshot\` and use a ref from its output.`,
        {
          details: { ref },
        },
      );
    }
    if (entry.epoch !== this.page.epoch) throw staleError(ref);
    return entry;
  }

  /** `e12` | `@e12` | `f1e3` | a locator (`role=button[name="Save"]`, `text=…`, `label=…`) | a CSS selector (main frame). */
  async resolve(target: string): Promise<ElementHandle> {
    this.page.assertOpen();
    if (typeof target !== 'string' || !target.trim())
      throw new ArgusError(
        'invalid_input',
        'Pass a ref (e.g. e12), a locator (role=…, text=…, label=…) or a CSS selector.',
      );
    const ref = parseRef(target);
    if (ref) return this.resolveRef(ref);
    const locator = parseLocator(target);
    return this.inLatestDocument(() =>
      locator ? this.resolveLocator(locator, this.locatorFrame()) : selectorHandle(this.page, target.trim()),
    );
  }

  /**
   * Runs a read that names no element of a particular document (a locator, a selector, a wait for
   * one) again when the locator frame's document changed while it ran: the main frame's, or that of
   * the frame chosen with `argus frame` (an iframe navigates without the page's epoch moving).
   * Whatever the read found or failed on (a ref minted in the old document, "Cannot find context
   * with specified id", a wait cut short) belongs to a document that is gone. Resolution only
   * reads, nothing is dispatched yet, so running it again cannot act twice. At most MAX_DOCUMENTS
   * documents; a ref is never retried (it names an element of one document, and is stale after it).
   */
  protected async inLatestDocument<T>(read: () => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries++) {
      const mark = this.documentMark();
      try {
        return await read();
      } catch (error) {
        // Chrome said the document went away: its commit may still be on the way
        if (this.documentMark() === mark && this.documentGone(error)) await this.nextDocument(mark);
        if (this.documentMark() === mark || tries >= MAX_DOCUMENTS || this.page.closed) throw error;
        // a page that does not answer, or a caller that left, is not a page that moved on
        if (error instanceof PageUnresponsiveError || error instanceof CommandCancelledError) throw error;
      }
    }
  }

  /**
   * What changes when the locator frame's document does: the page's epoch for the main frame; for a
   * selected frame also the session that owns it (a move to another process) and its main world
   * (a new document in the same process), which the frame registry updates from CDP's events.
   */
  private documentMark(): string {
    const frameId = this.locatorFrame();
    if (frameId === this.page.mainFrameId) return String(this.page.epoch);
    const frame = this.page.frames.get(frameId);
    return `${this.page.epoch}|${frameId}|${frame ? (frame.session.id ?? 'page') : 'gone'}|${this.page.frames.mainWorld(frameId) ?? '-'}`;
  }

  /**
   * Whether a read failed because its document went away: Chrome's answer, or, in a selected frame,
   * no document to read at all (the frame is between two of them, e.g. moving to another process).
   */
  private documentGone(error: unknown): boolean {
    if (isDocumentGone(error)) return true;
    return (
      this.locatorFrame() !== this.page.mainFrameId && error instanceof ArgusError && error.code === 'target_closed'
    );
  }

  /**
   * Resolves once the locator frame's document is not the one `mark` names, or after COMMIT_WAIT_MS
   * (whichever comes first): event driven, on the page's epoch and on the frame events of the tab's
   * sessions (the registry, subscribed first, has taken each event in when it is checked here).
   */
  private nextDocument(mark: string): Promise<void> {
    if (this.documentMark() !== mark) return Promise.resolve();
    return new Promise((resolve) => {
      const offs: Array<() => void> = [];
      const done = () => {
        clearTimeout(timer);
        for (const off of offs) off();
        resolve();
      };
      const check = () => {
        if (this.documentMark() !== mark) done();
      };
      const timer = setTimeout(done, COMMIT_WAIT_MS);
      offs.push(this.page.onEpoch(done));
      if (this.locatorFrame() === this.page.mainFrameId) return;
      const sessions = new Set([this.page.session, ...this.page.frames.all().map((frame) => frame.session)]);
      for (const session of sessions) {
        offs.push(
          session.on('Runtime.executionContextCreated', check),
          session.on('Runtime.executionContextDestroyed', check),
          session.on('Runtime.executionContextsCleared', check),
          session.on('Page.frameNavigated', check),
          session.on('Page.frameDetached', check),
          session.on('Target.attachedToTarget', check),
        );
      }
    });
  }

  /**
   * As `resolve`, but a locator or CSS selector that matches nothing yet is waited for, up to
   * `timeoutMs` (an action's own bound), as on a page that renders late: the page itself says when
   * (a MutationObserver, untilInPage), nothing polls. A ref never waits: it exists or is stale.
   */
  async resolveWaiting(target: string, timeoutMs: number): Promise<ElementHandle> {
    const started = performance.now();
    try {
      return await this.resolve(target);
    } catch (error) {
      // a selector that holds a ref (`ref=e12`) is a mistake the message explains: nothing to wait for
      const mistaken = (error as ArgusError | undefined)?.details as { ref?: string } | undefined;
      if (!(error instanceof ArgusError) || error.code !== 'element_not_found' || timeoutMs <= 0 || mistaken?.ref)
        throw error;
      const left = () => Math.max(0, Math.round(timeoutMs - (performance.now() - started)));
      const locator = parseLocator(target);
      // a wait in a document the page (or the selected frame) leaves ends with it: it goes on in the next one
      const appeared = locator
        ? await this.waitForLocator(locator, left())
        : await this.inLatestDocument(() => this.waitForSelector(target.trim(), left()));
      if (appeared) return this.resolve(target);
      // the wait watched the locator frame: a late element of an iframe (where a locator also looks) is found now
      return this.resolve(target).catch((again: unknown) => {
        if (!(again instanceof ArgusError) || again.code !== 'element_not_found') throw again;
        throw new ArgusError('element_not_found', error.message.replace(/\.(?= Run )/, ` within ${timeoutMs} ms.`), {
          details: { ...(error.details as Record<string, unknown> | undefined), waitedMs: timeoutMs },
        });
      });
    }
  }

  /** Resolves true once an element matches the CSS selector in the locator frame, false after `timeoutMs`. */
  private waitForSelector(selector: string, timeoutMs: number): Promise<boolean> {
    return this.untilInLocatorFrame(
      `(() => { try { return document.querySelector(${JSON.stringify(selector)}) !== null; } catch { return true; } })()`,
      timeoutMs,
    );
  }

  /** Resolves true once `test` (an expression of the isolated world, `a` = the Argus script) holds in the locator frame, false after `timeoutMs`. */
  private async untilInLocatorFrame(test: string, timeoutMs: number, frameId = this.locatorFrame()): Promise<boolean> {
    this.page.assertOpen();
    const ctx = await documentContext(this.page, frameId);
    return evalWithWalker<boolean>(ctx, `return ${untilInPage(test, timeoutMs)};`, true);
  }

  /**
   * A wait in the locator frame; with none chosen, in the top document and every frame's at once, as
   * actions find a locator's element in a frame when the top document has none: the first document
   * to see it ends the wait (the others' in-page waits answer false when their time is up).
   * The top document's failures (a navigation, a closed tab) are the wait's; a frame's (it went away,
   * it has no document now) only take it out of the race.
   */
  private async inAnyFrame(run: (frameId: string) => Promise<boolean>): Promise<boolean> {
    const top = this.locatorFrame();
    const frames =
      top === this.page.mainFrameId
        ? this.page.frames
            .all()
            .map((frame) => frame.id)
            .filter((id) => id !== top)
        : [];
    if (frames.length === 0) return run(top);
    return new Promise<boolean>((resolve, reject) => {
      let left = frames.length + 1;
      const lost = () => {
        left -= 1;
        if (left === 0) resolve(false);
      };
      run(top).then((seen) => (seen ? resolve(true) : lost()), reject);
      for (const id of frames) run(id).then((seen) => (seen ? resolve(true) : lost()), lost);
    });
  }

  /**
   * `argus wait` for a CSS selector's first match to be visible, or for a text to show: true once it
   * holds in the locator frame (with none chosen: the top document or any frame's, inAnyFrame), false
   * after `timeoutMs`. The page decides (WAIT_UNTIL, a
   * MutationObserver), nothing polls; a wait the document's end cuts short goes on in the next
   * document within what is left of `timeoutMs`, as waitForLocator's does.
   */
  async waitUntilShown(test: WaitTest, timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    return this.inLatestDocument(() =>
      this.inAnyFrame(async (frameId) => {
        this.page.assertOpen();
        const ctx = await documentContext(this.page, frameId);
        const left = Math.max(0, Math.round(deadline - performance.now()));
        const answer = await this.page.evaluate(pageExpression(WAIT_UNTIL, 'undefined', [test, left]), {
          contextId: ctx.contextId,
          session: ctx.session,
        });
        return pageResult(WAIT_UNTIL, answer);
      }),
    );
  }

  /** The frame locators search: the top document (the daemon's engine uses the frame chosen with `argus frame`). */
  protected locatorFrame(): string {
    return this.page.mainFrameId;
  }

  /**
   * Resolves true once a visible element matches the locator in the locator frame (with none chosen:
   * the top document or any frame's, inAnyFrame), false after `timeoutMs`. The page decides (a MutationObserver re-checks on each DOM change), so nothing
   * polls from here. A wait the document's end cuts short (the page, or the selected frame,
   * navigates) goes on in the next document within what is left of `timeoutMs`.
   */
  async waitForLocator(locator: Locator, timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    return this.inLatestDocument(async () => {
      await this.refuseUnusedRole(locator, this.locatorFrame());
      return this.inAnyFrame((frameId) =>
        this.untilInLocatorFrame(
          `${locateCall(locator, 1)}.total > 0`,
          Math.max(0, Math.round(deadline - performance.now())),
          frameId,
        ),
      );
    });
  }

  /**
   * The one visible element a locator matches in a frame. None: `element_not_found`; several:
   * `element_ambiguous`, naming the first few with refs (minted now, valid like a snapshot's), so
   * the caller can pick one instead of Argus guessing.
   */
  protected async resolveLocator(locator: Locator, frameId: string): Promise<ElementHandle> {
    return this.resolveRef(await this.locatorRef(locator, frameId));
  }

  /** The ref of the one visible element a locator matches (see resolveLocator), minted if new. */
  private async locatorRef(locator: Locator, frameId: string): Promise<string> {
    let hits = [{ frameId, found: await this.locateIn(locator, frameId) }];
    /** what each document searched answered (undefined: a frame with no document right now) */
    const searched: Array<LocateResult | undefined> = [hits[0]!.found];
    if (hits[0]!.found.total === 0 && frameId === this.page.mainFrameId) {
      // not in the top document: the snapshot shows the iframes' content inline, so their documents
      // count too (a frame that has no document right now has nothing to match)
      const others = this.page.frames.all().filter((frame) => frame.id !== frameId);
      const answers = await Promise.all(
        others.map(async (frame) => ({
          frameId: frame.id,
          found: await this.locateIn(locator, frame.id).catch(() => undefined),
        })),
      );
      searched.push(...answers.map((hit) => hit.found));
      hits = answers.filter((hit): hit is (typeof hits)[number] => (hit.found?.total ?? 0) > 0);
    }
    const described = describeLocator(locator);
    const total = hits.reduce((sum, hit) => sum + hit.found.total, 0);
    if (total === 0) {
      // a role that is no ARIA role and that no element searched has: nothing to wait for
      if (unknownRole(locator) && searched.every((found) => found?.carried === false)) throw unusedRoleError(locator);
      throw new ArgusError(
        'element_not_found',
        `No visible element matches ${described}. Run \`argus snapshot -i\` and use a ref, or loosen the locator (name*= / text= without quotes match part of the text).`,
        {
          details: { locator: described },
        },
      );
    }
    const candidates = hits.flatMap((hit) =>
      hit.found.ids.map((id, index) => {
        const label = hit.found.labels[index] ?? '';
        const main = hit.frameId === this.page.mainFrameId;
        return { label, ref: this.refs.refFor(hit.frameId, main, hit.found.token, id, this.page.epoch, label) };
      }),
    );
    if (total > 1) {
      const shown = candidates.slice(0, 5);
      const listed = shown.map(({ label, ref }) => `${label} ${ref}`).join(', ');
      throw new ArgusError(
        'element_ambiguous',
        `${described} matches ${total} visible elements: ${listed}${total > shown.length ? ', …' : ''}. Pass one of these refs, or a more specific locator.`,
        {
          details: { locator: described, matches: total, refs: shown.map(({ ref }) => ref) },
        },
      );
    }
    return candidates[0]!.ref;
  }

  /**
   * Fails at once (`invalid_input`, with the nearest roles) for a role locator whose role is no ARIA
   * role and that no element of the frame's document has, nor (from the top document) of any frame:
   * nothing can match it, so waiting would only spend the whole timeout. A made-up role the page
   * does use (`<div role="foo">`) is waited for like any other.
   */
  private async refuseUnusedRole(locator: Locator, frameId: string): Promise<void> {
    if (!unknownRole(locator)) return;
    const found = await this.locateIn(locator, frameId);
    if (found.total > 0 || found.carried !== false) return;
    if (frameId === this.page.mainFrameId) {
      const others = this.page.frames.all().filter((frame) => frame.id !== frameId);
      const answers = await Promise.all(others.map((frame) => this.locateIn(locator, frame.id).catch(() => undefined)));
      if (!answers.every((answer) => answer?.carried === false)) return;
    }
    throw unusedRoleError(locator);
  }

  /** What a locator matches in one frame's document (the first few, with ids for refs). */
  private async locateIn(locator: Locator, frameId: string): Promise<LocateResult & { token: string }> {
    const ctx = await documentContext(this.page, frameId);
    return evalWithWalker<LocateResult & { token: string }>(
      ctx,
      `return { ...${locateCall(locator, 5)}, token: a.token };`,
    );
  }

  private async resolveRef(ref: string): Promise<ElementHandle> {
    const entry = this.entryFor(ref);
    const ctx = await frameContext(this.page, entry.frameId);
    if (!ctx) throw staleError(ref);
    const object = await evalObject(
      ctx,
      `globalThis.__argus ? globalThis.__argus.get(${entry.id}, ${JSON.stringify(entry.token)}) : null`,
    ).catch((error: unknown) => {
      // a page that does not answer (or a caller that left) is not a stale ref: say what happened
      if (error instanceof PageUnresponsiveError || error instanceof CommandCancelledError) throw error;
      return undefined;
    });
    if (!object?.objectId) throw staleError(ref);
    // the walker id resolves to the same DOM node for the document's life, so its backend id is looked up once
    entry.backendNodeId ??= (
      await ctx.session.send('DOM.describeNode', { objectId: object.objectId })
    ).node.backendNodeId;
    return {
      session: ctx.session,
      objectId: object.objectId,
      backendNodeId: entry.backendNodeId,
      frameId: entry.frameId,
      label: `${entry.label} [${ref}]`,
    };
  }

  /**
   * A ref for an element of the top document that page code found by itself (the annotation
   * picker): its walker id and the document's walker token, minted as a snapshot would, so the same
   * element keeps the same ref.
   */
  refForTopElement(token: string, id: number, label: string): string {
    const frameId = this.page.mainFrameId;
    return this.refs.refFor(frameId, true, token, id, this.page.epoch, label);
  }

  /** The fields INVALID_PROBE found, each named with its ref as an action names its element: `textbox "Email" [e2]`. */
  invalidFields(probed: unknown): Array<{ element: string; message: string }> {
    const taken = probed as ReturnType<ArgusPageApi['takeInvalid']> | null | undefined;
    if (!taken) return [];
    return taken.fields.map((field) => ({
      element: `${field.label} [${this.refForTopElement(taken.token, field.id, field.label)}]`,
      message: field.message,
    }));
  }

  /** How many refs of the latest snapshot still belong to the current document (what `annotate` can draw). */
  currentRefs(): number {
    return this.lastRefs.filter((entry) => entry.epoch === this.page.epoch).length;
  }

  /** Draws each current ref's label over its element; returns the function that removes the overlay. */
  async annotate(): Promise<() => Promise<void>> {
    this.page.assertOpen();
    return annotateRefs(this.page, this.lastRefs);
  }
}

/** Whether a locator names a role that is no ARIA role (aria-roles.ts): only a page's own element can have it. */
function unknownRole(locator: Locator): boolean {
  return locator.kind === 'role' && locator.role !== undefined && !isKnownRole(locator.role);
}

/**
 * A role locator that can match nothing: its role is not an ARIA role (aria-roles.ts) and no element
 * searched has it. Names the nearest roles.
 */
function unusedRoleError(locator: Locator): ArgusError {
  const role = locator.role ?? '';
  const target = describeLocator(locator);
  if (role === 'clickable')
    return new ArgusError(
      'invalid_input',
      `"${target}": clickable is the snapshot's word for an element with a click handler and no role; no locator matches it. Use its ref, or text="…" with its text.`,
      { details: { role } },
    );
  const near = nearestRoles(role);
  return new ArgusError(
    'invalid_input',
    `"${target}": ${role} is not an ARIA role and no element here has role="${role}", so it matches nothing. Did you mean ${near.map((known) => `role=${known}`).join(', ')}? Roles are the words \`argus snapshot\` prints before a name.`,
    { details: { role, suggestions: near } },
  );
}

/** The walker's `locate` call for a locator, with `a` bound to the walker's API in the page. */
function locateCall(locator: Locator, max: number): string {
  return `a.locate(...${JSON.stringify([locator.kind, locator.role ?? '', locator.value ?? null, locator.exact, max])})`;
}
