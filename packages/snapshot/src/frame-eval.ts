import { CommandCancelledError, type Page, PageUnresponsiveError, type Session } from '@argus/cdp';
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
import { installArgus, type WalkerModules } from './page-walker.js';
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
  .join(', ')} })`;

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

/** Evaluates in the frame's isolated world and returns the JSON value. */
export async function evalValue<T>(ctx: FrameContext, expression: string, awaitPromise = false): Promise<T> {
  const { result, exceptionDetails } = await ctx.session.send('Runtime.evaluate', {
    expression,
    contextId: ctx.contextId,
    returnByValue: true,
    awaitPromise,
  });
  if (exceptionDetails)
    throw new ArgusError('internal', `Argus page script failed: ${exceptionText(exceptionDetails)}`);
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
  if (exceptionDetails)
    throw new ArgusError('internal', `Argus page script failed: ${exceptionText(exceptionDetails)}`);
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
  if (exceptionDetails)
    throw new ArgusError('internal', `Argus page script failed: ${exceptionText(exceptionDetails)}`);
  return result.value as T;
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
  if (exceptionDetails)
    throw new ArgusError('internal', `Argus page script failed: ${exceptionText(exceptionDetails)}`);
  return result.value as T;
}
