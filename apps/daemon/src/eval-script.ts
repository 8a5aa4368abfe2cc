import { Script } from 'node:vm';
import type { Page, Session } from '@argus/cdp';
import { ArgusError } from '@argus/protocol';
import { type EvalValue, SERIALIZE_VALUE, pageResult } from '@argus/snapshot';

/**
 * How `eval` runs a script: as an async function (one round trip, `await` and `return` work) when
 * its value is that of an expression, else as a plain script, whose completion value is what the
 * console shows (`if (a) { 7 } else { 8 }` is 7). Either way the value is turned into JSON in the
 * page by SERIALIZE_VALUE, cut at `maxChars` there, so CDP never refuses it and never carries more.
 */
export type EvalPlan = { kind: 'function'; fn: string } | { kind: 'script'; script: string };

/** Objects a script's completion value leaves in the page until it is serialized. */
const EVAL_GROUP = 'argus-eval';

export interface EvalOptions {
  maxChars: number;
  timeoutMs?: number;
  /** the element the code gets as `el` */
  element?: { objectId: string; session: Session };
  /** the selected frame's main world (frameEvalTarget) */
  frame: { session?: Session; contextId?: number };
}

export async function runEval(
  page: Page,
  source: string,
  options: EvalOptions,
): Promise<Omit<EvalValue, 'unserializable'>> {
  // `el` only exists in the function form
  const plan = planScript(source, options.element === undefined);
  const serializer = SERIALIZE_VALUE.source;
  let raw: unknown;
  try {
    if (options.element) {
      raw = await page.callOn(
        options.element.objectId,
        `async function (maxChars) { return (${serializer})(await (${functionOf(plan)})(this), maxChars); }`,
        [options.maxChars],
        options.element.session,
      );
    } else if (plan.kind === 'function') {
      raw = await page.evaluate(`(async () => (${serializer})(await (${plan.fn})(undefined), ${options.maxChars}))()`, {
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        ...options.frame,
      });
    } else {
      raw = await completionValue(page, plan.script, options);
    }
  } catch (error) {
    throw unserializable(error);
  }
  const { unserializable: reason, ...result } = pageResult(SERIALIZE_VALUE, raw);
  if (reason !== undefined) throw unserializable(reason);
  return result;
}

/** Runs a script, then serializes its completion value where it is: an object never leaves the page whole. */
async function completionValue(page: Page, script: string, options: EvalOptions): Promise<unknown> {
  const session = options.frame.session ?? page.session;
  const remote = await page.evaluateRemote(script, {
    objectGroup: EVAL_GROUP,
    session,
    ...(options.frame.contextId === undefined ? {} : { contextId: options.frame.contextId }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  if (remote.objectId === undefined) return primitive(remote, options.maxChars);
  try {
    return await page.callOn(
      remote.objectId,
      `function (maxChars) { return (${SERIALIZE_VALUE.source})(this, maxChars); }`,
      [options.maxChars],
      session,
    );
  } finally {
    void session.send('Runtime.releaseObjectGroup', { objectGroup: EVAL_GROUP }).catch(() => undefined);
  }
}

/** A primitive completion value (Chrome sends those by value), by SERIALIZE_VALUE's conventions. */
function primitive(
  remote: { type: string; value?: unknown; unserializableValue?: string; description?: string },
  maxChars: number,
): EvalValue {
  if (remote.unserializableValue !== undefined) return { value: remote.unserializableValue, type: remote.type };
  if (remote.type === 'symbol') return { value: remote.description ?? 'Symbol()', type: 'symbol' };
  if (remote.type === 'undefined') return { value: null, type: 'undefined' };
  if (typeof remote.value === 'string' && remote.value.length > maxChars - 2) {
    return { value: remote.value.slice(0, maxChars - 2), type: 'string', truncated: true, length: remote.value.length };
  }
  return { value: remote.value ?? null, type: remote.value === null ? 'null' : remote.type };
}

function unserializable(cause: unknown): unknown {
  const message = cause instanceof Error ? cause.message : String(cause);
  // the serializer answers in JSON; this is a safety net for what it could still not turn into JSON
  if (cause instanceof Error && !/returned by value|reference chain is too long/.test(message)) return cause;
  return new ArgusError(
    'eval_failed',
    `The script's value could not be turned into JSON (${message}). Return a serializable value instead, e.g. only the fields you need: ({ id: x.id, name: x.name }).`,
    { ...(cause instanceof Error ? { cause } : {}) },
  );
}

/**
 * Turns user code into a plan: an expression as is; statements whose last line is an expression
 * return it; other statements run as a script (block-scoped, so `const` stays the script's own)
 * unless they use `await` or `return`, which only a function allows.
 */
export function planScript(js: string, scriptAllowed = true): EvalPlan {
  const source = js.trim();
  if (!source) throw new ArgusError('invalid_input', 'The script is empty. Pass JavaScript such as "document.title".');
  const asExpression = `async (el) => (\n${source}\n)`;
  if (parses(asExpression)) return { kind: 'function', fn: asExpression };
  // statements: return the value of the last one when it is an expression
  const cut = Math.max(source.lastIndexOf(';', source.length - 2), source.lastIndexOf('\n'));
  if (cut > 0) {
    const head = source.slice(0, cut + 1);
    const last = source
      .slice(cut + 1)
      .trim()
      .replace(/;$/, '');
    const candidate = `async (el) => {\n${head}\nreturn (\n${last}\n);\n}`;
    if (last && !/^(return|const|let|var|if|for|while|throw|function|class)\b/.test(last) && parses(candidate))
      return { kind: 'function', fn: candidate };
  }
  const script = `{\n${source}\n}`;
  if (scriptAllowed && !/\bawait\b/.test(source) && compiles(script)) return { kind: 'script', script };
  return { kind: 'function', fn: `async (el) => {\n${source}\n}` };
}

function functionOf(plan: EvalPlan): string {
  return plan.kind === 'function' ? plan.fn : `async (el) => ${plan.script}`;
}

function parses(fn: string): boolean {
  try {
    // syntax check only: the code is compiled, never run, in the daemon
    new Function(`return ${fn}`);
    return true;
  } catch {
    return false;
  }
}

function compiles(script: string): boolean {
  try {
    // syntax check only, as above: a Script is compiled here and never run
    new Script(script);
    return true;
  } catch {
    return false;
  }
}
