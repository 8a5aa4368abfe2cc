import type { ArgusPageApi } from './page-walker.js';

/** A locator for one element, as found in the page (turned into text by `stable-locator.ts`). */
export interface FoundLocator {
  kind: 'role' | 'label' | 'text' | 'css';
  role?: string;
  value: string;
  exact: boolean;
}

/**
 * Runs INSIDE the page (Argus isolated world), serialized with `.toString()`: the most readable
 * locator that matches this element and nothing else, checked with the walker's own `locate` (so
 * replaying it resolves to this element): `label="…"` for a form field, `role=…[name="…"]`,
 * `text="…"`, then a CSS path (an id, else `tag:nth-of-type` steps up to an ancestor with a
 * unique id) as the last resort. Role and name come from the walker's label of the element; a
 * name the label cut is matched as a part (`name*=`).
 */
export function findLocator(this: Element, api: ArgusPageApi): FoundLocator | null {
  const el = this;
  const norm = (text: string) => text.replace(/\s+/g, ' ').trim();
  // the walker's label: `role "name"` (quotes escaped, cut with … at 60 characters) or `role (hint)`
  const label = api.label(el);
  const space = label.indexOf(' ');
  const role = space === -1 ? label : label.slice(0, space);
  const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(label.slice(space + 1));
  let name = quoted ? quoted[1]!.replace(/\\(.)/g, '$1') : '';
  const clipped = name.endsWith('…');
  if (clipped) name = name.slice(0, -1).trim();
  const only = (kind: 'role' | 'text' | 'label', r: string, value: string | null, exact: boolean) => {
    const found = api.locate(kind, r, value, exact, 2);
    return found.total === 1 && found.ids.length === 1 && api.get(found.ids[0]!, api.token) === el;
  };
  const field =
    el.tagName === 'INPUT' ||
    el.tagName === 'SELECT' ||
    el.tagName === 'TEXTAREA' ||
    ['textbox', 'combobox', 'searchbox', 'spinbutton', 'slider'].includes(role);
  if (name) {
    if (field && !clipped && only('label', '', name, true)) return { kind: 'label', value: name, exact: true };
    if (role !== 'generic' && only('role', role, name, !clipped))
      return { kind: 'role', role, value: name, exact: !clipped };
  }
  const text = norm((el as HTMLElement).innerText || '');
  if (text && text.length <= 80 && !text.includes('"') && only('text', '', text, true))
    return { kind: 'text', value: text, exact: true };
  // a CSS path, when the element is in the document itself (a selector does not cross shadow roots)
  if (el.getRootNode() !== document) return null;
  const esc = (value: string) => CSS.escape(value);
  const unique = (selector: string) => {
    try {
      const all = document.querySelectorAll(selector);
      return all.length === 1 && all[0] === el;
    } catch {
      return false;
    }
  };
  if (el.id && unique(`#${esc(el.id)}`)) return { kind: 'css', value: `#${esc(el.id)}`, exact: true };
  const steps: string[] = [];
  for (let node: Element | null = el; node && node !== document.documentElement; node = node.parentElement) {
    if (node !== el && node.id && document.querySelectorAll(`#${esc(node.id)}`).length === 1) {
      steps.unshift(`#${esc(node.id)}`);
      break;
    }
    const tag = node.tagName.toLowerCase();
    const parent: Element | null = node.parentElement;
    const same = parent ? Array.from(parent.children).filter((child) => child.tagName === node!.tagName) : [];
    steps.unshift(same.length > 1 ? `${tag}:nth-of-type(${same.indexOf(node) + 1})` : tag);
    if (steps.length >= 2 && unique(steps.join(' > '))) break;
  }
  const path = steps.join(' > ');
  return unique(path) ? { kind: 'css', value: path, exact: true } : null;
}
