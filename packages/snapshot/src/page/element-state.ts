import { z } from 'zod';
import { textInput } from './actionability.js';
import { pageFunction, pageFunctionWith } from './page-function.js';

/**
 * `inspect.is`: whether the element is visible, hidden, enabled, disabled, checked, editable or
 * focused; a string names why the state does not apply (`not_checkable`, `unknown_state`).
 */
export const ELEMENT_STATE = pageFunctionWith({ textInput })(
  'state',
  z.union([z.boolean(), z.string()]),
  function (this: Element, kit, state: string): boolean | string {
    const el = this as HTMLElement;
    const visible = () => {
      if (!el.isConnected) return false;
      const rect = el.getBoundingClientRect();
      if (rect.width <= 0 || rect.height <= 0) return false;
      return typeof el.checkVisibility === 'function'
        ? el.checkVisibility({ visibilityProperty: true, opacityProperty: false })
        : true;
    };
    const disabled = () =>
      (typeof el.matches === 'function' && el.matches(':disabled')) ||
      !!(el.closest && el.closest('[aria-disabled="true"]'));
    switch (state) {
      case 'visible':
        return visible();
      case 'hidden':
        return !visible();
      case 'enabled':
        return !disabled();
      case 'disabled':
        return disabled();
      case 'checked': {
        const input = el as HTMLInputElement;
        if (el.tagName === 'INPUT' && (input.type === 'checkbox' || input.type === 'radio')) return input.checked;
        const aria = el.getAttribute('aria-checked') ?? el.getAttribute('aria-pressed');
        if (aria !== null) return aria === 'true';
        if (el.tagName === 'OPTION') return (el as HTMLOptionElement).selected;
        return 'not_checkable';
      }
      case 'editable': {
        if (disabled()) return false;
        if (el.isContentEditable) return true;
        if (el.tagName === 'TEXTAREA') return !(el as HTMLTextAreaElement).readOnly;
        if (el.tagName === 'SELECT') return true;
        if (el.tagName === 'INPUT') return !(el as HTMLInputElement).readOnly && kit.textInput(el);
        const role = el.getAttribute('role');
        return (
          (role === 'textbox' || role === 'searchbox' || role === 'combobox') &&
          el.getAttribute('aria-readonly') !== 'true'
        );
      }
      case 'focused': {
        let active = document.activeElement;
        while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
        return active === el;
      }
    }
    return 'unknown_state';
  },
);

const CheckState = z.object({
  kind: z.enum(['checkbox', 'radio', 'aria', 'none']),
  checked: z.boolean(),
  disabled: z.boolean(),
  /** whether the control itself can be clicked (a styled checkbox is often hidden behind its label) */
  visible: z.boolean(),
  hasLabel: z.boolean(),
});
export type CheckState = z.output<typeof CheckState>;

/** check/uncheck: the checked state of a checkbox, radio, switch, ARIA checkbox, or the control a label points at. */
export const CHECK_STATE = pageFunction('checkState', CheckState, function (this: Element): CheckState {
  let el = this as HTMLElement;
  if (el.tagName === 'LABEL' && (el as HTMLLabelElement).control) el = (el as HTMLLabelElement).control as HTMLElement;
  const visibleOf = (node: Element) =>
    typeof node.checkVisibility === 'function'
      ? node.checkVisibility({ opacityProperty: true, visibilityProperty: true }) &&
        node.getBoundingClientRect().width > 1
      : node.getClientRects().length > 0;
  const input = el as HTMLInputElement;
  if (el.tagName === 'INPUT' && (input.type === 'checkbox' || input.type === 'radio')) {
    return {
      kind: input.type,
      checked: input.checked,
      disabled: input.disabled,
      visible: visibleOf(el),
      hasLabel: !!(input.labels && input.labels.length),
    };
  }
  const role = ((el.getAttribute && el.getAttribute('role')) || '').toLowerCase();
  if (['checkbox', 'switch', 'radio', 'menuitemcheckbox', 'menuitemradio'].includes(role)) {
    return {
      kind: role.includes('radio') ? 'radio' : 'aria',
      checked: el.getAttribute('aria-checked') === 'true',
      disabled: el.getAttribute('aria-disabled') === 'true',
      visible: visibleOf(el),
      hasLabel: false,
    };
  }
  return { kind: 'none', checked: false, disabled: false, visible: true, hasLabel: false };
});

/** Clicks the first label of a hidden native control (DOM click: no visible box to aim the mouse at). */
export const CLICK_LABEL = pageFunction('clickLabel', z.literal(true), function (this: Element): true {
  let el = this as HTMLElement;
  if (el.tagName === 'LABEL' && (el as HTMLLabelElement).control) el = (el as HTMLLabelElement).control as HTMLElement;
  const labels = (el as HTMLInputElement).labels;
  const label = labels && labels[0];
  if (label) label.click();
  else el.click();
  return true;
});
