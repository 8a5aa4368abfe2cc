/** In-page (isolated world) helpers for check/uncheck; `this` is the target element. */

export interface CheckState {
  kind: 'checkbox' | 'radio' | 'aria' | 'none';
  checked: boolean;
  disabled: boolean;
  /** Whether the control itself can be clicked (a styled checkbox is often hidden behind its label). */
  visible: boolean;
  hasLabel: boolean;
}

/** Reads the checked state of a checkbox, radio, switch, ARIA checkbox, or the control a label points at. */
export const READ_CHECK = `function () {
  let el = this;
  if (el.tagName === 'LABEL' && el.control) el = el.control;
  const visibleOf = (node) => typeof node.checkVisibility === 'function' ? node.checkVisibility({ opacityProperty: true, visibilityProperty: true }) && node.getBoundingClientRect().width > 1 : node.getClientRects().length > 0;
  if (el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio')) {
    return { kind: el.type, checked: el.checked, disabled: el.disabled, visible: visibleOf(el), hasLabel: !!(el.labels && el.labels.length) };
  }
  const role = (el.getAttribute && el.getAttribute('role') || '').toLowerCase();
  if (['checkbox', 'switch', 'radio', 'menuitemcheckbox', 'menuitemradio'].includes(role)) {
    return { kind: role.includes('radio') ? 'radio' : 'aria', checked: el.getAttribute('aria-checked') === 'true', disabled: el.getAttribute('aria-disabled') === 'true', visible: visibleOf(el), hasLabel: false };
  }
  return { kind: 'none', checked: false, disabled: false, visible: true, hasLabel: false };
}`;

/** Clicks the first label of a hidden native control (DOM click: no visible box to aim the mouse at). */
export const CLICK_LABEL = `function () {
  let el = this;
  if (el.tagName === 'LABEL' && el.control) el = el.control;
  const label = el.labels && el.labels[0];
  if (label) label.click(); else el.click();
  return true;
}`;
