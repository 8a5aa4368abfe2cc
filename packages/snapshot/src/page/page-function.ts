import { ArgusError } from '@argus/protocol';
import type { z } from 'zod';

/**
 * A typed function that runs INSIDE the page (Runtime.callFunctionOn / Runtime.evaluate), shipped as
 * its source text. tsc checks its body against the DOM types and its callers against `Args` and
 * `Result`; `result` validates the JSON value the page hands back, since page scripts can tamper with
 * what a page function sees (prototypes, getters) and so with what it returns.
 */
export interface PageFunction<Binds extends Binding, Args extends unknown[], Result> {
  /** for error messages */
  readonly name: string;
  /** a function expression: `function (...args) { ... }`, `this` bound by the caller */
  readonly source: string;
  readonly result: z.ZodType<Result>;
  /** type-level only: what `this` may be bound to (see BindingsOf) */
  readonly binds?: { readonly [K in Binds]: true };
  /** type-level only: the JSON arguments */
  readonly argsType?: (...args: Args) => void;
}

/**
 * What a page function's `this` may be: an element handle, the document, or nothing. Kept as names
 * rather than DOM types so callers without the DOM library (the daemon) still get them checked.
 */
export type Binding = 'element' | 'document' | 'none';

/** The bindings a `this` type accepts: `this: Element` only an element, `this: unknown` anything. */
export type BindingsOf<This> =
  | (Element extends This ? 'element' : never)
  | (Document extends This ? 'document' : never)
  | (undefined extends This ? 'none' : never);

/**
 * Wraps `fn` as a page function. It is serialised with `.toString()`: it must not refer to anything
 * outside its own body (types are fine; they are erased). Helpers shared between page functions are
 * passed as `kit` (see `pageFunctionWith`).
 */
export function pageFunction<This, Args extends unknown[], S extends z.ZodType>(
  name: string,
  result: S,
  fn: (this: This, ...args: Args) => z.output<S> | Promise<z.output<S>>,
): PageFunction<BindingsOf<This>, Args, z.output<S>> {
  return { name, source: fn.toString(), result: result as z.ZodType<z.output<S>> };
}

/**
 * A page function that gets `kit` (an object of self-contained helper functions, serialised with it)
 * as its first argument, so helpers such as a shadow-piercing query live once.
 */
export function pageFunctionWith<K extends Record<string, (...args: never[]) => unknown>>(kit: K) {
  const kitSource = `{ ${Object.entries(kit)
    .map(([key, helper]) => `${JSON.stringify(key)}: ${helper.toString()}`)
    .join(', ')} }`;
  return <This, Args extends unknown[], S extends z.ZodType>(
    name: string,
    result: S,
    fn: (this: This, kit: K, ...args: Args) => z.output<S> | Promise<z.output<S>>,
  ): PageFunction<BindingsOf<This>, Args, z.output<S>> => ({
    name,
    source: `function (...args) { return (${fn.toString()}).call(this, ${kitSource}, ...args); }`,
    result: result as z.ZodType<z.output<S>>,
  });
}

/** An expression that calls `fn` with `this` bound to `self` (a JS expression) and JSON `args`. */
export function pageExpression<Args extends unknown[], Result>(
  fn: PageFunction<never, Args, Result>,
  self: 'document' | 'undefined',
  args: Args,
): string {
  return `(${fn.source}).apply(${self}, ${JSON.stringify(args)})`;
}

/** The page's answer checked against the function's result schema (an `internal` error if it does not fit). */
export function pageResult<Result>(fn: PageFunction<never, never, Result>, value: unknown): Result {
  const parsed = fn.result.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length ? ` at ${issue.path.join('.')}` : '';
  throw new ArgusError(
    'internal',
    `Argus page function ${fn.name} returned an unexpected value${where}: ${issue?.message ?? 'invalid'}. The page may have changed built-in DOM objects; retry after a reload.`,
  );
}
