import {
  CommandCancelledError,
  type Page,
  PageUnresponsiveError,
  type Session,
  TargetGoneError,
  TransportClosedError,
  untilCancelled,
} from '@argus/cdp';
import { ArgusError } from '@argus/protocol';
import type { Protocol } from 'devtools-protocol';
import { groupsKit } from './page-groups.js';
import { idsKit } from './page-ids.js';
import { itemsKit } from './page-items.js';
import { locateKit } from './page-locate.js';
import { lookKit } from './page-look.js';
import { namesKit } from './page-names.js';
import { rolesKit } from './page-roles.js';
import { textKit } from './page-text.js';
import { visibilityKit } from './page-visibility.js';
import { WALKER_VERSION, installArgus, type WalkerModules } from './page-walker.js';
import { walkKit } from './page-walk.js';

const MODULES: WalkerModules = {
  visibilityKit,
  itemsKit,
  idsKit,
  textKit,
  namesKit,
  rolesKit,
  groupsKit,
  lookKit,
  walkKit,
  locateKit,
};

/**
 * The walker's source, evaluated in each frame's isolated world (installs itself once per document).
 * Its modules are self-contained factory functions, serialised here into one expression: an object
 * of their sources handed to `installArgus`, which builds them (each gets what it depends on as
 * arguments, since nothing outside a function's body survives `.toString()`).
 */
export const ARGUS_SCRIPT = `(${installArgus.toString()})({ ${Object.entries(MODULES)
  .map(([name, fn]) => `${name}: ${fn.toString()}`)
  .join(', ')} }, ${WALKER_VERSION})`;

/** The walker a world already holds (this version's), else null. */
const INSTALLED = `(globalThis.__argus && globalThis.__argus.v === ${WALKER_VERSION} ? globalThis.__argus : null)`;
/** What the short call answers in a world without the walker (a world this engine did not see install it). */
const MISSING = '__argus_walker_missing__';
/** Isolated worlds (execution context ids, unique per session) where the walker was installed by a call here. */
const installedWorlds = new WeakMap<Session, Set<number>>();
/** Installs under way (installWalker, sent while a document loads), by world: a call meanwhile waits for it. */
const installing = new WeakMap<Session, Map<number, Promise<unknown>>>();

/**
 * Calls `fn` (`function (a, value, ...objects)`, `a` the walker) in the frame's isolated world. The
 * walker's source (~50 KB) goes along only the first time in a world: Chromium parses and compiles
 * a call's function text on every call, which was most of a small page's snapshot (measured: ~9 ms
 * of 13 against ~2.5 ms for the same walk through the installed walker). A world that lost it (a
 * context id seen before is never reused, but a walker of another version may have replaced it)
 * answers MISSING and is called again with the source. A call made while installWalker is still
 * installing it in the world waits for that (the renderer answers in order, so this costs no time)
 * instead of sending the source a second time.
 */
export function callWalker<T>(ctx: FrameContext, fn: string, value: unknown, objectIds: string[]): Promise<T> {
  return throughWalker<T>(
    ctx,
    () =>
      callInWorld<T | typeof MISSING>(
        ctx,
        `function (value, ...objects) { const a = ${INSTALLED}; return a ? (${fn})(a, value, ...objects) : '${MISSING}'; }`,
        value,
        objectIds,
      ),
    () =>
      callInWorld<T>(
        ctx,
        `function (value, ...objects) { return (${fn})(${ARGUS_SCRIPT}, value, ...objects); }`,
        value,
        objectIds,
      ),
  );
}

/**
 * The one rule of callWalker and evalWithWalker: the short call (`viaInstalled`, answering MISSING
 * in a world without the walker) where this session saw the walker installed, else the call with the
 * whole source (`withSource`), after which the world counts as installed.
 */
async function throughWalker<T>(
  ctx: FrameContext,
  viaInstalled: () => Promise<T | typeof MISSING>,
  withSource: () => Promise<T>,
): Promise<T> {
  let worlds = installedWorlds.get(ctx.session);
  if (!worlds) installedWorlds.set(ctx.session, (worlds = new Set()));
  const pending = installing.get(ctx.session)?.get(ctx.contextId);
  // a caller that goes away stops waiting (the install itself is bounded by its own scope)
  if (pending) await untilCancelled(pending.catch(() => undefined));
  if (worlds.has(ctx.contextId)) {
    const result = await viaInstalled();
    if (result !== MISSING) return result as T;
    worlds.delete(ctx.contextId);
  }
  const result = await withSource();
  // a long-lived tab sees a new world per document: keep the set small
  if (worlds.size >= 64) worlds.clear();
  worlds.add(ctx.contextId);
  return result;
}

/**
 * Installs the walker in a frame's isolated world ahead of its first use (see
 * SnapshotEngine.readyDocument); a world that has it already costs one short call.
 */
export function installWalker(ctx: FrameContext): Promise<unknown> {
  let pending = installing.get(ctx.session);
  if (!pending) installing.set(ctx.session, (pending = new Map()));
  const known = pending.get(ctx.contextId);
  if (known) return known;
  const done = callWalker<number>(ctx, 'function () { return 0; }', null, []).finally(() =>
    pending.delete(ctx.contextId),
  );
  pending.set(ctx.contextId, done);
  return done;
}

/**
 * An in-page expression that resolves true once `test` (a JS expression) holds, re-checked by a
 * MutationObserver on every DOM change, or false after `timeoutMs`: the page decides, nothing polls.
 */
export function untilInPage(test: string, timeoutMs: number): string {
  return `new Promise((resolve) => {
    const test = () => (${test});
    if (test()) return resolve(true);
    const observer = new MutationObserver(() => { if (test()) { clearTimeout(timer); observer.disconnect(); resolve(true); } });
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const timer = setTimeout(() => { observer.disconnect(); resolve(false); }, ${timeoutMs});
  })`;
}

/** Remote objects created by Argus live in this group; it is released before each snapshot. */
export const OBJECT_GROUP = 'argus';

/** Sessions where an object may have been put in OBJECT_GROUP since the group was last released. */
const holdingObjects = new WeakSet<Session>();

/** Says that a call just put a remote object in OBJECT_GROUP of `session` (evalObject does; so must any other such call). */
export function noteObjects(session: Session): void {
  holdingObjects.add(session);
}

/**
 * Releases OBJECT_GROUP of `session` (not awaited: a session's commands run in the order sent, so
 * the next call finds it released), and only when something was put in it since the last release:
 * a run of snapshots with nothing resolved in between sends nothing.
 */
export function releaseObjects(session: Session): void {
  if (!holdingObjects.delete(session)) return;
  void session.send('Runtime.releaseObjectGroup', { objectGroup: OBJECT_GROUP }).catch(() => undefined);
}

export interface FrameContext {
  frameId: string;
  session: Session;
  contextId: number;
}

export async function frameContext(page: Page, frameId: string): Promise<FrameContext | undefined> {
  const frame = page.frames.get(frameId);
  if (!frame || frame.session.isDetached) return undefined;
  try {
    const contextId = await page.frames.isolatedWorld(frameId);
    return { frameId, session: frame.session, contextId };
  } catch (error) {
    // a page that does not answer, or a caller that left, is not a page without a document
    if (error instanceof PageUnresponsiveError || error instanceof CommandCancelledError) throw error;
    // nor is a browser that is gone (its connection closed, the extension disconnected)
    if (error instanceof TransportClosedError && !(error instanceof TargetGoneError)) throw error;
    if (error instanceof ArgusError && error.code === 'browser_not_found') throw error;
    return undefined;
  }
}

/** The isolated world of a frame's document, or `target_closed` while it has none. */
export async function documentContext(page: Page, frameId: string): Promise<FrameContext> {
  const ctx = await frameContext(page, frameId);
  if (!ctx) throw new ArgusError('target_closed', 'The page has no document right now. Retry after it loads.');
  return ctx;
}

function exceptionText(details: Protocol.Runtime.ExceptionDetails): string {
  return String(details.exception?.description ?? details.exception?.value ?? details.text).split('\n')[0] ?? 'error';
}

/**
 * An Argus page script that threw: what it threw can come from the page's document (an element's
 * own getter, a handler it ran), so `details.exception` marks the message as quoting the page.
 */
function scriptFailed(details: Protocol.Runtime.ExceptionDetails): ArgusError {
  const exception = exceptionText(details);
  return new ArgusError('internal', `Argus page script failed: ${exception}`, { details: { exception } });
}

/** Evaluates in the frame's isolated world and returns the JSON value. */
export async function evalValue<T>(ctx: FrameContext, expression: string, awaitPromise = false): Promise<T> {
  const { result, exceptionDetails } = await ctx.session.send('Runtime.evaluate', {
    expression,
    contextId: ctx.contextId,
    returnByValue: true,
    awaitPromise,
  });
  if (exceptionDetails) throw scriptFailed(exceptionDetails);
  return result.value as T;
}

/** Evaluates in the frame's isolated world and returns a remote object (or undefined for null/undefined). */
export async function evalObject(
  ctx: FrameContext,
  expression: string,
): Promise<Protocol.Runtime.RemoteObject | undefined> {
  const { result, exceptionDetails } = await ctx.session.send('Runtime.evaluate', {
    expression,
    contextId: ctx.contextId,
    returnByValue: false,
    objectGroup: OBJECT_GROUP,
  });
  noteObjects(ctx.session);
  if (exceptionDetails) throw scriptFailed(exceptionDetails);
  if (!result.objectId || result.subtype === 'null') return undefined;
  return result;
}

/** Calls `fn` in the frame's isolated world with JSON `value` first, then remote objects; returns its JSON value. */
export async function callInWorld<T>(ctx: FrameContext, fn: string, value: unknown, objectIds: string[]): Promise<T> {
  const params: Protocol.Runtime.CallFunctionOnRequest = {
    functionDeclaration: fn,
    executionContextId: ctx.contextId,
    arguments: [{ value }, ...objectIds.map((objectId) => ({ objectId }))],
    returnByValue: true,
    objectGroup: OBJECT_GROUP,
  };
  const { result, exceptionDetails } = await ctx.session.send('Runtime.callFunctionOn', params);
  if (exceptionDetails) {
    noteObjects(ctx.session); // the thrown value is kept in the group
    throw scriptFailed(exceptionDetails);
  }
  return result.value as T;
}

/**
 * Evaluates `body` (statements ending in `return`, with `a` the walker) in the frame's isolated world
 * and returns its JSON value: through the walker the world holds when it has one (a few hundred bytes
 * sent), else with the walker's whole source, which installs it (see callWalker).
 */
export function evalWithWalker<T>(ctx: FrameContext, body: string, awaitPromise = false): Promise<T> {
  return throughWalker<T>(
    ctx,
    () =>
      evalValue<T | typeof MISSING>(
        ctx,
        `(() => { const a = ${INSTALLED}; if (!a) return '${MISSING}'; ${body} })()`,
        awaitPromise,
      ),
    () => evalValue<T>(ctx, `(() => { const a = ${ARGUS_SCRIPT}; ${body} })()`, awaitPromise),
  );
}

/**
 * Calls `fn` (`function (a, ...args)`, `a` the walker) with `this` bound to an element of Argus's
 * isolated world: through the walker that world holds (it has one once anything was read there),
 * and with the walker's whole source only when it answers that it has none.
 */
export async function callOnElementWithWalker<T>(
  session: Session,
  objectId: string,
  fn: string,
  args: unknown[] = [],
): Promise<T> {
  const result = await callOnElement<T | typeof MISSING>(
    session,
    objectId,
    `function (...args) { const a = ${INSTALLED}; return a ? (${fn}).call(this, a, ...args) : '${MISSING}'; }`,
    args,
  );
  if (result !== MISSING) return result as T;
  return callOnElement<T>(
    session,
    objectId,
    `function (...args) { return (${fn}).call(this, ${ARGUS_SCRIPT}, ...args); }`,
    args,
  );
}

/** Calls `fn` with `this` bound to the element; returns its JSON value (promises are awaited). */
export async function callOnElement<T>(
  session: Session,
  objectId: string,
  fn: string,
  args: unknown[] = [],
): Promise<T> {
  const params: Protocol.Runtime.CallFunctionOnRequest = {
    objectId,
    functionDeclaration: fn,
    arguments: args.map((value) => ({ value })),
    returnByValue: true,
    awaitPromise: true,
  };
  const { result, exceptionDetails } = await session.send('Runtime.callFunctionOn', params);
  if (exceptionDetails) throw scriptFailed(exceptionDetails);
  return result.value as T;
}
