import type { groupsKit } from './page-groups.js';
import type { idsKit } from './page-ids.js';
import type { itemsKit } from './page-items.js';
import type { LocateResult, locateKit } from './page-locate.js';
import type { lookKit } from './page-look.js';
import type { namesKit } from './page-names.js';
import type { rolesKit } from './page-roles.js';
import type { textKit } from './page-text.js';
import type { visibilityKit } from './page-visibility.js';
import type { walkKit } from './page-walk.js';
import type { WalkNode, WalkOptions, WalkResult } from './walker-types.js';

export type { LocateResult } from './page-locate.js';

/** What `installArgus` puts on the isolated world's `globalThis.__argus`. */
export interface ArgusPageApi {
  v: number;
  token: string;
  snapshot(options: WalkOptions): WalkResult;
  get(id: number, token: string): Element | null;
  frameAt(index: number): Element | null;
  lastIds: number[];
  label(el: Element): string;
  /** The walker id of `el` (given now if it has none): a ref is minted from it with `token`. */
  idOf(el: Element): number;
  /** The accessible name the snapshot gives `el` (one computation for snapshot, `forms` and `label=`). */
  name(el: Element): string;
  coverage(selector: string): { total: number; ids: number[]; missed: string[] };
  /** Elements the engine found click-type listeners on (CDP), so the walk gives them refs. */
  markListened(...els: Element[]): void;
  /** Visible text of `root` (the body by default), iframes marked for the engine to fill in (see TextKit). */
  text(root: Element | null): { text: string; frames: number };
  textFrameAt(index: number): Element | null;
  locate(
    kind: 'role' | 'text' | 'label',
    role: string,
    value: string | null,
    exact: boolean,
    max: number,
  ): LocateResult;
  /**
   * Form fields that kept a form from being submitted in the last second (the `invalid` events a
   * submission's validation fires, heard since the document's first walk), then forgets them:
   * id and label for a ref, and the message the browser shows a person in its bubble.
   */
  takeInvalid(): { token: string; fields: Array<{ id: number; label: string; message: string }> };
  /**
   * Starts counting the document's DOM mutations (a MutationObserver, started once, when a snapshot
   * of it is first cut: a page nobody continues a snapshot of is not observed) and answers the count
   * so far; a cursor compares it with `mutations()` later (SnapshotEngine.continueFrom).
   */
  watchMutations(): number;
  /** The mutations counted since watchMutations started it (records pending now included), or -1 when it did not. */
  mutations(): number;
}

/** The walker's modules, each a self-contained factory (see frame-eval.ts, which serialises them). */
export interface WalkerModules {
  visibilityKit: typeof visibilityKit;
  itemsKit: typeof itemsKit;
  idsKit: typeof idsKit;
  textKit: typeof textKit;
  namesKit: typeof namesKit;
  rolesKit: typeof rolesKit;
  groupsKit: typeof groupsKit;
  lookKit: typeof lookKit;
  walkKit: typeof walkKit;
  locateKit: typeof locateKit;
}

/** The walker's version: a world holding another version's `__argus` gets this one installed over it. */
export const WALKER_VERSION = 15;

/**
 * Runs INSIDE the page (Argus isolated world), serialized with `.toString()`: it must not refer
 * to anything outside its own body and the modules it is given. Installs `globalThis.__argus` once
 * per document (the modules are only built then) and returns it.
 */
export function installArgus(m: WalkerModules, VERSION: number): ArgusPageApi {
  const G = globalThis as unknown as { __argus?: ArgusPageApi };
  if (G.__argus && G.__argus.v === VERSION) return G.__argus;

  const vis = m.visibilityKit();
  const items = m.itemsKit();
  const ids = m.idsKit();
  const texts = m.textKit(vis, items);
  const names = m.namesKit(items);
  const roles = m.rolesKit(vis);
  const walker = m.walkKit(vis, names, roles, m.groupsKit(), items, ids, m.lookKit(vis));
  const locator = m.locateKit(names, roles, items, ids);
  const token = Math.random().toString(36).slice(2, 10);
  /** `invalid` events (a blocked submission, reportValidity), at most a few, with their time */
  let invalid: Array<{ el: Element; at: number }> = [];
  document.addEventListener(
    'invalid',
    (event) => {
      if (invalid.length < 5 && event.target instanceof Element)
        invalid.push({ el: event.target, at: event.timeStamp });
    },
    true,
  );
  /** mutations observed since watchMutations: a count, nothing kept (the observer's records go as they come) */
  let mutated = 0;
  let observer: MutationObserver | undefined;
  const mutations = () => (observer ? (mutated += observer.takeRecords().length) : -1);
  const watchMutations = () => {
    if (!observer) {
      observer = new MutationObserver((records) => {
        mutated += records.length;
      });
      observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    }
    return mutations();
  };
  let frames: Element[] = [];
  /** iframes met by the last `text` read, by index */
  let textFrames: Element[] = [];

  function snapshot(options: WalkOptions): WalkResult {
    frames = [];
    ids.sweep();
    let root: Element | null = document.body || document.documentElement;
    if (options.rootId !== undefined) {
      root = api.get(options.rootId, token);
      if (!root) return { token, title: document.title, tree: null, frames: 0, error: 'scope_not_found' };
    } else if (options.rootSelector) {
      try {
        root = document.querySelector(options.rootSelector);
      } catch {
        return { token, title: document.title, tree: null, frames: 0, error: 'bad_selector' };
      }
      if (!root) return { token, title: document.title, tree: null, frames: 0, error: 'scope_not_found' };
    }
    let walked: Array<WalkNode | string> = [];
    let lastIds: number[] = [];
    if (root) {
      const whole = root === document.body || root === document.documentElement;
      const result = walker.walk(root, whole, options.textMax);
      walked = result.items;
      frames = result.frames;
      lastIds = result.ids;
    }
    const kids = items.finish(walked, options.textMax);
    const tree: WalkNode = { r: 'root' };
    if (kids.length) tree.c = kids;
    api.lastIds = lastIds;
    return { token, title: document.title, tree, frames: frames.length };
  }

  const api: ArgusPageApi = {
    v: VERSION,
    token,
    snapshot,
    get(id: number, expected: string): Element | null {
      if (expected !== token) return null;
      const el = ids.element(id);
      return el && el.isConnected ? el : null;
    },
    frameAt: (index: number) => frames[index] ?? null,
    lastIds: [],
    idOf: (el: Element) => ids.idOf(el),
    label: locator.label,
    name: (el: Element) => locator.nameOf(el, locator.roleOf(el)),
    coverage: (selector: string) => locator.coverage(selector, api.lastIds),
    locate: locator.locate,
    markListened(...els: Element[]) {
      walker.markListened(els);
    },
    text(root: Element | null) {
      textFrames = [];
      const text = texts.text(root ?? document.body ?? document.documentElement, textFrames);
      return { text, frames: textFrames.length };
    },
    textFrameAt: (index: number) => textFrames[index] ?? null,
    takeInvalid() {
      const now = performance.now();
      const fields = invalid
        .filter((entry) => now - entry.at < 1000 && entry.el.isConnected)
        .map(({ el }) => ({
          id: ids.idOf(el),
          label: locator.label(el),
          message: ((el as HTMLInputElement).validationMessage || 'invalid').replace(/\s+/g, ' ').slice(0, 200),
        }));
      invalid = [];
      return { token, fields };
    },
    mutations,
    watchMutations,
  };
  G.__argus = api;
  return api;
}
