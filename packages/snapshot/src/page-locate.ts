import type { IdsKit } from './page-ids.js';
import type { ItemsKit } from './page-items.js';
import type { NamesKit } from './page-names.js';
import type { RolesKit } from './page-roles.js';

/** Visible elements a semantic locator matches, in document order: ids (for refs) and labels of the first few. */
export interface LocateResult {
  total: number;
  ids: number[];
  labels: string[];
  /**
   * For `role`: whether any element of the document has the role, shown or not (a made-up role such
   * as `role="foo"` is one only the page's own elements give it a meaning).
   */
  carried?: boolean;
}

/** Finding elements by what a person reads (role and name, text, label) and naming them in reports. */
export interface LocateKit {
  /** `role "name"` (or `role (hint)`) of an element, for action reports and locators */
  label(el: Element): string;
  /** the role the snapshot gives `el` (`generic` when it has none) */
  roleOf(el: Element): string;
  /** the accessible name, as the snapshot computes it */
  nameOf(el: Element, role: string): string;
  /** Bench/diagnostics: visible elements matching `selector`, and the ids of those in `emitted`. */
  coverage(selector: string, emitted: number[]): { total: number; ids: number[]; missed: string[] };
  locate(
    kind: 'role' | 'text' | 'label',
    role: string,
    value: string | null,
    exact: boolean,
    max: number,
  ): LocateResult;
}

/**
 * Runs INSIDE the page (serialised into the walker's bundle, see frame-eval.ts): it must not refer
 * to anything outside its own body.
 */
export function locateKit(names: NamesKit, roles: RolesKit, itemKit: ItemsKit, ids: IdsKit): LocateKit {
  const { SKIP, norm, clip } = itemKit;
  const idOf = ids.idOf;

  function label(el: Element): string {
    const role = roleOf(el);
    const name = nameOf(el, role);
    // one line, quotes escaped: a page cannot end the quoted name early in an action's report
    return name
      ? `${role} "${clip(norm(name).trim(), 60).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
      : `${role} (${names.fallbackHint(el).replace(/[()]/g, '')})`;
  }

  /** Bench/diagnostics: visible elements matching `selector`, and the ids of those the last walk emitted (`lastIds`). */
  function coverage(selector: string, lastIds: number[]): { total: number; ids: number[]; missed: string[] } {
    const emitted = new Set(lastIds);
    let total = 0;
    const found: number[] = [];
    const missed: string[] = [];
    for (const el of Array.from(document.querySelectorAll(selector))) {
      if (!shown(el)) continue;
      total++;
      const id = ids.known(el);
      if (id !== undefined && emitted.has(id)) found.push(id);
      else if (missed.length < 10) missed.push(el.outerHTML.slice(0, 160));
    }
    return { total, ids: found, missed };
  }

  /** Every element below `root` in document order, through open shadow roots. */
  function eachElement(root: Element | ShadowRoot, visit: (el: Element) => boolean | void): void {
    for (let child = root.firstElementChild; child; child = child.nextElementSibling) {
      if (SKIP.has(child.tagName)) continue;
      // visit returns false to skip the element's subtree
      if (visit(child) === false) continue;
      if (child.shadowRoot) eachElement(child.shadowRoot, visit);
      eachElement(child, visit);
    }
  }

  function shown(el: Element): boolean {
    if (!el.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions)) return false;
    const rect = el.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0;
  }

  function roleOf(el: Element): string {
    const explicit = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
    // a label standing in for a hidden checkbox, radio or file input has its role, as in the snapshot
    const stood = explicit ? null : roles.standIn(el);
    if (stood) return roles.implicitRole(stood, 'INPUT') || 'button';
    const role = explicit || roles.implicitRole(el, el.tagName) || '';
    // an editing host with no role is a text box, as the snapshot calls it
    if ((!role || role === 'generic') && roles.isEditingHost(el)) return 'textbox';
    return role || 'generic';
  }

  /** The accessible name, as the snapshot computes it. */
  function nameOf(el: Element, role: string): string {
    const stood = roles.standIn(el);
    let name = stood ? names.explicitName(stood, 'INPUT', role) : names.explicitName(el, el.tagName, role);
    if (!name && roles.NAME_FROM_CONTENT.has(role))
      name = norm((el as HTMLElement).innerText || el.textContent || '').trim();
    return name || names.lateName(el);
  }

  /**
   * Semantic locators (see locator.ts): `role` matches role and accessible name, `text` the
   * innermost elements whose text holds the value, `label` form fields by their label. `exact`
   * compares whole (whitespace collapsed); otherwise contains, case-insensitive, and when some
   * matches are whole (any case) only those count: `label=Age` is "Age", not also "Languages".
   */
  function locate(
    kind: 'role' | 'text' | 'label',
    role: string,
    value: string | null,
    exact: boolean,
    max: number,
  ): LocateResult {
    const wanted = value === null ? null : exact ? value : value.toLowerCase();
    const matches = (text: string) =>
      wanted === null || (exact ? norm(text).trim() === wanted : norm(text).toLowerCase().includes(wanted));
    const whole = (text: string) => wanted !== null && !exact && norm(text).trim().toLowerCase() === wanted;
    const found: Element[] = [];
    const wholly = new Set<Element>();
    let carried = false;
    const wantedRole = role.toLowerCase();
    const root = document.body || document.documentElement;
    if (kind === 'text') {
      // descend only into elements whose text holds the value; keep the innermost ones
      const needle = (value ?? '').toLowerCase();
      // textContent leaves out shadow trees: shadow hosts and every element above one are always
      // descended into, and the innermost match is decided by rendered text as anywhere else
      const aboveShadow = new Set<Element>();
      eachElement(root, (el) => {
        if (!el.shadowRoot) return;
        for (let node: Element | null = el; node && !aboveShadow.has(node); ) {
          aboveShadow.add(node);
          node = node.parentElement ?? ((node.parentNode as ShadowRoot | null)?.host || null);
        }
      });
      const holds = (el: Element) =>
        aboveShadow.has(el) ||
        norm(el.textContent || '')
          .toLowerCase()
          .includes(needle);
      const visit = (el: Element) => {
        let inner = false;
        const children = [...Array.from(el.children), ...(el.shadowRoot ? Array.from(el.shadowRoot.children) : [])];
        for (const child of children) if (!SKIP.has(child.tagName) && holds(child)) inner = visit(child) || inner;
        if (inner) return true;
        const text = (el as HTMLElement).innerText ?? el.textContent ?? '';
        if (!shown(el) || !matches(text)) return false;
        found.push(el);
        if (whole(text)) wholly.add(el);
        return true;
      };
      if (root && holds(root)) visit(root);
    } else {
      const seen = new Set<Element>();
      eachElement(root, (el) => {
        const elRole = roleOf(el);
        // role tokens compare in any case, as browsers read them (`role="Foo"` is role=foo)
        const roleMatch = kind === 'role' && elRole.toLowerCase() === wantedRole;
        if (roleMatch) carried = true;
        if (
          kind === 'role'
            ? !roleMatch
            : !(
                el.tagName === 'INPUT' ||
                el.tagName === 'SELECT' ||
                el.tagName === 'TEXTAREA' ||
                (el as HTMLElement).isContentEditable ||
                elRole === 'textbox' ||
                elRole === 'combobox' ||
                elRole === 'searchbox' ||
                elRole === 'checkbox' ||
                elRole === 'radio' ||
                elRole === 'switch' ||
                elRole === 'slider' ||
                elRole === 'spinbutton'
              )
        )
          return;
        if (kind === 'label' && (el as HTMLInputElement).type === 'hidden') return;
        const texts =
          kind === 'role'
            ? [nameOf(el, elRole)]
            : [nameOf(el, elRole), el.getAttribute('placeholder') || '', el.getAttribute('title') || ''];
        if (!(kind === 'role' ? matches(texts[0]!) : texts.some((text) => text && matches(text)))) return;
        // a control the page hides is reached through the label that stands in for it (matched once)
        const labels = el.tagName === 'INPUT' ? (el as HTMLInputElement).labels : null;
        const stand = labels && Array.from(labels).find((l) => roles.standIn(l) === el && shown(l));
        const target = stand || (shown(el) ? el : null);
        if (target && !seen.has(target)) found.push(target);
        if (target && texts.some(whole)) wholly.add(target);
        if (target) seen.add(target);
      });
    }
    const kept = wholly.size ? found.filter((el) => wholly.has(el)) : found;
    const result: LocateResult = {
      total: kept.length,
      ids: kept.slice(0, max).map(idOf),
      labels: kept.slice(0, max).map(label),
    };
    if (kind === 'role') result.carried = carried;
    return result;
  }

  return { label, roleOf, nameOf, coverage, locate };
}
