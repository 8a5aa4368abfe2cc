import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * One AsyncLocalStorage for every value a command carries through its async calls (its command
 * scope, its tab-queue slot, its caller, its lease claim, its WebSocket signals): each is a slot of
 * the one store. Node 20's AsyncLocalStorage copies every instance's store into each promise made
 * (async hooks), so each instance costs on every `await` in the daemon: measured on this machine,
 * 200,000 awaits took 13 ms with none, 45 ms with one instance and 74 ms with five.
 */
type Slots = Readonly<Record<symbol, unknown>>;

const storage = new AsyncLocalStorage<Slots>();

/** One value carried through async calls (an AsyncLocalStorage of its own, sharing the one store). */
export interface AsyncSlot<T> {
  /** The value set by the innermost `run` around this code, if any. */
  get(): T | undefined;
  /** Runs `run` (and everything it starts) with this slot set to `value`; the other slots stay. */
  run<R>(value: T, run: () => R): R;
  /** Runs `run` with this slot empty; the other slots stay. */
  exit<R>(run: () => R): R;
}

export function asyncSlot<T>(name: string): AsyncSlot<T> {
  const key = Symbol(name);
  return {
    get: () => storage.getStore()?.[key] as T | undefined,
    run: (value, run) => storage.run({ ...storage.getStore(), [key]: value }, run),
    exit: (run) => {
      const store = storage.getStore();
      return store?.[key] === undefined ? run() : storage.run({ ...store, [key]: undefined }, run);
    },
  };
}
