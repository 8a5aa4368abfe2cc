/** Walker ids: the number a ref is minted from, one per element for the life of its document. */
export interface IdsKit {
  /** the element's id, given on first sight */
  idOf(el: Element): number;
  /** the id the element already has, if any */
  known(el: Element): number | undefined;
  /** the element with this id while it is alive (connected or not) */
  element(id: number): Element | undefined;
  /** forgets ids of collected elements once the table has grown large */
  sweep(): void;
}

/**
 * Runs INSIDE the page (serialised into the walker's bundle, see frame-eval.ts): it must not refer
 * to anything outside its own body. Ids live in a WeakMap, so a DOM node keeps its id for the life
 * of the document and a re-created node gets a new one.
 */
export function idsKit(): IdsKit {
  const ids = new WeakMap<Element, number>();
  const nodes = new Map<number, WeakRef<Element>>();
  let nextId = 1;

  function idOf(el: Element): number {
    let id = ids.get(el);
    if (id === undefined) {
      id = nextId++;
      ids.set(el, id);
      nodes.set(id, new WeakRef(el));
    }
    return id;
  }

  return {
    idOf,
    known: (el) => ids.get(el),
    element: (id) => nodes.get(id)?.deref(),
    sweep() {
      if (nodes.size > 20000) for (const [id, ref] of nodes) if (!ref.deref()) nodes.delete(id);
    },
  };
}
