import { quoteName } from '@argus/protocol/snapshot-refs';
import type { ElementHandle } from './element-handle.js';
import { callOnElementWithWalker } from './frame-eval.js';
import { type FoundLocator, findLocator } from './page-locator.js';

const FIND_FN = `function (a) { return (${findLocator.toString()}).call(this, a); }`;

/** A found locator as target text (`role=button[name="Sign in"]`, `label="Email"`, `text="Next"`, a CSS path). */
export function locatorText(found: FoundLocator): string {
  switch (found.kind) {
    case 'role':
      return `role=${found.role ?? 'generic'}[name${found.exact ? '' : '*'}=${quoteName(found.value)}]`;
    case 'label':
    case 'text':
      return `${found.kind}=${quoteName(found.value)}`;
    default:
      return found.value;
  }
}

/**
 * The stable locator of an element: what a script can target instead of a ref, which dies with the
 * page. Unique on the page and checked in the page to resolve back to this element (the same
 * `locate` a locator target uses). Undefined when none is found (an element inside a shadow root
 * with no unique role, label or text) or the page does not answer: it never fails an action.
 */
export async function stableLocator(handle: ElementHandle): Promise<string | undefined> {
  try {
    const found = await callOnElementWithWalker<FoundLocator | null>(handle.session, handle.objectId, FIND_FN);
    return found ? locatorText(found) : undefined;
  } catch {
    return undefined;
  }
}
