import type { Session } from './session.js';

/**
 * For unit tests (not exported by the package): a tab's session reduced to what event watchers
 * need, events to subscribe to and its detach, with `emit` to tell an event to its subscribers.
 * A test adds `send` and the like where the code under test calls them.
 */
export function fakeSession<Extra extends object = object>(extra?: Extra) {
  const handlers = new Map<string, Set<(event: unknown) => void>>();
  const session = {
    on(name: string, handler: (event: unknown) => void) {
      let set = handlers.get(name);
      if (!set) handlers.set(name, (set = new Set()));
      set.add(handler);
      return () => set.delete(handler);
    },
    onDetach() {
      return () => undefined;
    },
    ...extra,
  };
  const emit = (name: string, event: unknown) => {
    for (const handler of [...(handlers.get(name) ?? [])]) handler(event);
  };
  return { session: session as unknown as Session, emit };
}
