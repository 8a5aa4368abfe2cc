import { z } from 'zod';
import { pageFunction } from './page-function.js';

/** What `page.wait` waits for in the page: this element visible, a selector's first match visible, or text shown. */
export type WaitTest = { kind: 'visible' } | { kind: 'selector'; selector: string } | { kind: 'text'; text: string };

/**
 * `page.wait`: resolves true once `test` holds, re-checked by a MutationObserver on every DOM change,
 * or false after `timeoutMs`: the page decides, nothing polls. `this` is the element for `visible`.
 */
export const WAIT_UNTIL = pageFunction(
  'waitUntil',
  z.boolean(),
  function (this: Element | undefined, test: WaitTest, timeoutMs: number) {
    const self = this;
    const visible = (el: Element | null | undefined) =>
      !!el &&
      el.isConnected &&
      (typeof el.checkVisibility === 'function'
        ? el.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true })
        : el.getClientRects().length > 0);
    const holds = () =>
      test.kind === 'visible'
        ? visible(self)
        : test.kind === 'selector'
          ? visible(document.querySelector(test.selector))
          : (document.body?.innerText ?? '').includes(test.text);
    return new Promise<boolean>((resolve) => {
      if (holds()) return resolve(true);
      const observer = new MutationObserver(() => {
        if (holds()) {
          clearTimeout(timer);
          observer.disconnect();
          resolve(true);
        }
      });
      observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      const timer = setTimeout(() => {
        observer.disconnect();
        resolve(false);
      }, timeoutMs);
    });
  },
);

/** Whether `selector` is a CSS selector the page accepts. */
export const VALID_SELECTOR = pageFunction('validSelector', z.boolean(), function (this: unknown, selector: string) {
  try {
    document.querySelector(selector);
    return true;
  } catch {
    return false;
  }
});
