import { Script } from 'node:vm';
import { type Page, type Session, isDocumentGone } from '@argus/cdp';
import { ArgusError } from '@argus/protocol';
import { type EvalValue, SERIALIZE_VALUE, pageResult } from '@argus/snapshot';

/**
 * How `eval` runs a script: as an async function (one round trip, `await` and `return` work) when
 * its value is that of an expression, else as a script in a direct `eval`, whose completion value is
 * what the console shows (`if (a) { 7 } else { 8 }` is 7). Either way a value JSON carries as it is comes
 * back in that round trip, and any other is turned into JSON in the page by SERIALIZE_VALUE, cut at
 * `maxChars` there, so CDP never refuses it and never carries more.
 */
export type EvalPlan = { kind: 'function'; fn: string } | { kind: 'script'; script: string };

/** The box a value that is not sent by value is left in, until it is serialized. */
const EVAL_GROUP = 'argus-eval';

export interface EvalOptions {
  maxChars: number;
  timeoutMs?: number;
  /** the element the code gets as `el` (a handle of the snapshot engine, in any world of its frame) */
  element?: { backendNodeId: number; frameId: string; session: Session };
  /** the selected frame's main world (frameEvalTarget) */
  frame: { session?: Session; contextId?: number };
}

export async function runEval(
  page: Page,
  source: string,
  options: EvalOptions,
): Promise<Omit<EvalValue, 'unserializable'>> {
  // `el` only exists in the function form
  const plan = planScript(source, options.element !== undefined);
  // The user's code sees the page's globals of any name: it is never written inside a scope that
  // binds a name of Argus's own (the wrapper's parameters and locals, `arguments`). Each wrapper
  // takes the user's function, or its value, as an argument, evaluated where nothing is bound.
  const run = async (): Promise<unknown> => {
    if (options.element) {
      const { session } = options.element;
      const element = await inMainWorld(page, options.element);
      try {
        return await page.callOn(
          element,
          `((run) => async function (maxChars) { return (${SERIALIZE_VALUE.source})(await run(this), maxChars); })(${functionOf(plan)})`,
          [options.maxChars],
          session,
        );
      } finally {
        void session.send('Runtime.releaseObjectGroup', { objectGroup: EVAL_GROUP }).catch(() => undefined);
      }
    }
    const value =
      plan.kind === 'function'
        ? `await (${plan.fn})()`
        : // a direct eval in an arrow of its own: the script's completion value, its `var`s kept local
          // (an arrow has its own var scope, and no `arguments` of its own to hide the page's)
          `(() => eval(${JSON.stringify(plan.script)}))()`;
    return valueOf(page, `(async () => ${boxed(value, options.maxChars)})()`, options);
  };
  const started = performance.now();
  let raw: unknown;
  try {
    raw = await withinScriptTimeout(run(), options.timeoutMs);
  } catch (error) {
    // Chrome stops a script still running at Runtime.evaluate's `timeout` and answers "Internal error"
    if (
      options.timeoutMs !== undefined &&
      performance.now() - started >= options.timeoutMs &&
      error instanceof Error &&
      /Internal error|Execution was terminated/.test(error.message)
    )
      throw scriptTimeout(options.timeoutMs, 'ran');
    throw unserializable(error);
  }
  const { unserializable: reason, ...result } = pageResult(SERIALIZE_VALUE, raw);
  if (reason !== undefined) throw unserializable(reason);
  return result;
}

/**
 * The element in the main world of its frame, where a plain `eval` runs and the page's globals
 * (`window.appState`) and its own properties on the element are: the engine resolves elements in
 * Argus's isolated world, whose `window` is another one.
 */
async function inMainWorld(
  page: Page,
  element: { backendNodeId: number; frameId: string; session: Session },
): Promise<string> {
  // without a context DOM.resolveNode also takes the frame's main world; named when known
  const contextId = page.frames.mainWorld(element.frameId);
  const { object } = await element.session.send('DOM.resolveNode', {
    backendNodeId: element.backendNodeId,
    objectGroup: EVAL_GROUP,
    ...(contextId === undefined ? {} : { executionContextId: contextId }),
  });
  if (object.objectId === undefined)
    throw new ArgusError(
      'element_not_found',
      'The element is no longer in the page. Run `argus snapshot` and use the new ref.',
    );
  return object.objectId;
}

/**
 * The hot path of an `eval`: what JSON carries as it is (null, a boolean, a finite number, a string
 * within the budget) comes back by value in the one round trip that ran the code, at the cost of a
 * bare Runtime.evaluate; anything else is handed back in a one-element array, an object that stays in
 * the page, for SERIALIZE_VALUE to turn into JSON there. (Inlining the 10 KB serializer into every
 * expression made Chromium parse and compile it on each call: +0.6 ms for `document.title`.)
 */
function boxed(valueExpression: string, maxChars: number): string {
  // the value is the box's argument, not its body: the user's code runs outside the scope of `v`
  // and `t` (a page global `t` read inside it was in their temporal dead zone)
  return `((v, t = typeof v) => v === null || t === 'undefined' || t === 'boolean' || (t === 'number' && v === v && v !== Infinity && v !== -Infinity && (v !== 0 || 1 / v > 0)) || (t === 'string' && v.length <= ${maxChars - 2}) ? v : [v])(${valueExpression})`;
}

/** Runs the boxed wrapper, then turns what it left in the page into JSON there (serializeBoxed). */
async function valueOf(page: Page, expression: string, options: EvalOptions): Promise<unknown> {
  const session = options.frame.session ?? page.session;
  const remote = await page.evaluateRemote(expression, {
    objectGroup: EVAL_GROUP,
    session,
    ...(options.frame.contextId === undefined ? {} : { contextId: options.frame.contextId }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  if (remote.objectId === undefined)
    return { value: remote.value ?? null, type: remote.value === null ? 'null' : remote.type };
  try {
    return await serializeBoxed(session, options.frame.contextId, remote.objectId, options.maxChars);
  } finally {
    void session.send('Runtime.releaseObjectGroup', { objectGroup: EVAL_GROUP }).catch(() => undefined);
  }
}

/**
 * The serializer, kept in the page once per JavaScript context as a function only the daemon holds a
 * handle to (never a global the page could see or replace), so an object's value costs one small
 * call instead of compiling the serializer again. A handle whose context is gone (a navigation) or
 * is another one is noticed by Chrome's answer, before anything runs, and the serializer is put in
 * the value's own context again.
 */
const SERIALIZERS = new WeakMap<Session, Map<number | 'default', string>>();
const SERIALIZER_GROUP = 'argus-serializer';
/** Chrome's answers about a handle itself: gone with its context, or of another context than the value */
const STALE_HANDLE = /Could not find object with given id|belong to the same JavaScript world/;

async function serializeBoxed(
  session: Session,
  contextId: number | undefined,
  objectId: string,
  maxChars: number,
): Promise<unknown> {
  let known = SERIALIZERS.get(session);
  // one handle per context evaluated in; contexts of documents long gone are let go in bulk
  if (known === undefined || known.size > 64) SERIALIZERS.set(session, (known = new Map()));
  const key = contextId ?? 'default';
  const call = (serializer: string) =>
    session.send('Runtime.callFunctionOn', {
      objectId: serializer,
      functionDeclaration: 'function (box, maxChars) { return this(box[0], maxChars); }',
      arguments: [{ objectId }, { value: maxChars }],
      returnByValue: true,
    });
  const held = known.get(key);
  if (held !== undefined) {
    const answer = await call(held).catch((error: unknown) => {
      if (isDocumentGone(error) || (error instanceof Error && STALE_HANDLE.test(error.message))) return undefined;
      throw error;
    });
    if (answer !== undefined) return answer.result.value;
  }
  // defined through the value's own handle, so in its context
  const { result } = await session.send('Runtime.callFunctionOn', {
    objectId,
    functionDeclaration: `function () { return (${SERIALIZE_VALUE.source}); }`,
    objectGroup: SERIALIZER_GROUP,
  });
  if (result.objectId === undefined) throw new ArgusError('internal', 'The page could not hold the eval serializer.');
  known.set(key, result.objectId);
  return (await call(result.objectId)).result.value;
}

/**
 * The script's whole run, its awaited promises included, bounded by its timeoutMs: Chrome's own
 * `timeout` stops only a script that is still running, and a promise that never settles was waited
 * for until the command's CDP deadline (60 s, whatever timeoutMs said). The evaluation left waiting in
 * the page costs nothing; its late answer is dropped.
 */
/** How long after timeoutMs the daemon stops waiting for a script Chrome did not stop itself. */
const SCRIPT_TIMEOUT_GRACE_MS = 500;

async function withinScriptTimeout<T>(running: Promise<T>, timeoutMs: number | undefined): Promise<T> {
  if (timeoutMs === undefined) return running;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    // a little after Chrome's own `timeout`, so a script still running is reported as Chrome stopped it
    timer = setTimeout(() => reject(scriptTimeout(timeoutMs, 'waited')), timeoutMs + SCRIPT_TIMEOUT_GRACE_MS);
  });
  // a late failure of the abandoned evaluation is nobody's to report
  running.catch(() => undefined);
  try {
    return await Promise.race([running, expired]);
  } finally {
    clearTimeout(timer);
  }
}

function scriptTimeout(timeoutMs: number, how: 'ran' | 'waited'): ArgusError {
  return new ArgusError(
    'timeout',
    how === 'ran'
      ? `The script ran for ${timeoutMs} ms without finishing and was stopped (a loop that never ends?). Pass a larger timeoutMs if it needs longer.`
      : `The script did not finish within ${timeoutMs} ms: a promise it awaits or returns is still pending (a request that never answers, an event that never fires). Pass a larger timeoutMs, or do not wait for it.`,
    { details: { timeoutMs, reason: how === 'ran' ? 'script_running' : 'promise_pending' } },
  );
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
export function planScript(js: string, withElement = false): EvalPlan {
  const source = js.trim();
  if (!source) throw new ArgusError('invalid_input', 'The script is empty. Pass JavaScript such as "document.title".');
  // without an element there is no `el` to bind: a page global of that name stays visible
  const params = withElement ? '(el)' : '()';
  // a function given for an element (`el => el.id`, `function (node) { … }`) is called with it
  if (withElement && FUNCTION_LITERAL.test(source) && parses(`(\n${source}\n)`))
    return { kind: 'function', fn: `async (el) => (\n${source}\n)(el)` };
  const asExpression = `async ${params} => (\n${source}\n)`;
  if (parses(asExpression)) return { kind: 'function', fn: asExpression };
  // statements: return the value of the last one when it is an expression
  const cut = Math.max(source.lastIndexOf(';', source.length - 2), source.lastIndexOf('\n'));
  if (cut > 0) {
    const head = source.slice(0, cut + 1);
    const last = source
      .slice(cut + 1)
      .trim()
      .replace(/;$/, '');
    const candidate = `async ${params} => {\n${head}\nreturn (\n${last}\n);\n}`;
    if (last && !/^(return|const|let|var|if|for|while|throw|function|class)\b/.test(last) && parses(candidate))
      return { kind: 'function', fn: candidate };
  }
  const script = `{\n${source}\n}`;
  if (!withElement && !/\bawait\b/.test(source) && compiles(script)) return { kind: 'script', script };
  return { kind: 'function', fn: `async ${params} => {\n${source}\n}` };
}

/** How a function expression starts: `function`, `async`, or an arrow's parameters (`el =>`, `({ id }) =>`). */
const FUNCTION_LITERAL = /^(?:async\b\s*)?(?:function\b|[\w$]+\s*=>|\([^()]*\)\s*=>)/;

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
