import { z } from 'zod';
import { pageFunction, pageFunctionWith } from './page-function.js';

/*
 * The page functions of `fill`: focus and select the field, put the text in (the native setter for
 * a field that takes no typed text, else the daemon inserts it as trusted input, a long multi-line
 * text through presetLines first), then read the value back. The echo of that value is cut in the
 * page (fillEcho), so a long value never crosses CDP whole, and compared with the text given by its
 * length and digest (textDigest, run in Node and in the page), so the text need not cross it again.
 */

/**
 * A 64-bit digest of a string (two 32-bit FNV-1a style hashes), as hex. Runs in Node and in the page
 * (in the fill kit): `fill` tells whether a long field value is the text given without sending
 * either of them across CDP a second time.
 */
export function textDigest(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/** What `fill` reads back of a field: at most `max` characters of its value, its length, whether it is the text given. */
export const FillEcho = z.object({
  value: z.string(),
  length: z.number().int().nonnegative(),
  truncated: z.boolean(),
  /** the whole value is the text given (compared by length and textDigest, so the text need not cross CDP again) */
  matches: z.boolean(),
});
export type FillEcho = z.infer<typeof FillEcho>;

/** The text given, as the page compares a field's value with it. */
type Expected = { length: number; digest: string };

/** The echo of a field's value, cut in the page (not inside a surrogate pair). `digest`: kit.textDigest. */
function fillEcho(value: string, max: number, expected: Expected, digest: (text: string) => string): FillEcho {
  const matches = value.length === expected.length && digest(value) === expected.digest;
  if (value.length <= max) return { value, length: value.length, truncated: false, matches };
  const cut = /[\uD800-\uDBFF]/.test(value.charAt(max - 1)) ? max - 1 : max;
  return { value: value.slice(0, cut), length: value.length, truncated: true, matches };
}

/** Defines a fill page function that answers with the field's echo: `kit` the two helpers above. */
const fillFunction = pageFunctionWith({ textDigest, fillEcho });

const PreparedFill = z.object({
  /** input: a text field, selected; editable: a contenteditable, its content selected; native: a value set directly */
  kind: z.enum(['input', 'editable', 'native']),
  /** the input's type, `textarea`, or '' for a contenteditable */
  type: z.string(),
});
export type PreparedFill = z.infer<typeof PreparedFill>;

/** Focuses and selects the current content of an input, textarea or contenteditable. */
export const PREPARE_FILL = pageFunction('prepareFill', PreparedFill, function (this: Element): PreparedFill {
  const el = this as HTMLInputElement;
  el.focus();
  if ((el as unknown as HTMLElement).isContentEditable) {
    const range = document.createRange();
    range.selectNodeContents(el);
    const selection = getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    return { kind: 'editable', type: '' };
  }
  const type = el.tagName === 'INPUT' ? (el.type || 'text').toLowerCase() : 'textarea';
  // these inputs do not take typed text: their value is set directly
  if (['date', 'datetime-local', 'month', 'week', 'time', 'color', 'range'].includes(type))
    return { kind: 'native', type };
  el.select();
  return { kind: 'input', type };
});

/** Sets the value through the native setter (what frameworks listen to), fires input + change, and echoes the value. */
export const SET_NATIVE_VALUE = fillFunction(
  'setNativeValue',
  FillEcho,
  function (this: Element, kit, text: string, max: number, expected: Expected): FillEcho {
    const el = this as HTMLInputElement;
    const proto = el.tagName === 'TEXTAREA' ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(el, text);
    el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return kit.fillEcho(el.value, max, expected, kit.textDigest);
  },
);

/**
 * Before a text of many lines goes into a textarea: puts all of it before its last line break in the
 * field through the native setter, silently (no event), with the caret at the end, so that only the
 * rest is inserted as typed text (Input.insertText). Inserting every line break is an editing command
 * of its own, each costing the whole value's layout and firing its own input events: 50,000
 * characters of 48-character lines took seconds of the renderer's main thread and 2,000 input events.
 * The page still sees the trusted beforeinput and input of the insertion (and reads the full value
 * in them). Refused (false) for a field with a maxlength, which a setter would not apply.
 */
export const PRESET_LINES = pageFunction('presetLines', z.boolean(), function (this: Element, before: string) {
  const el = this as HTMLTextAreaElement;
  if (el.tagName !== 'TEXTAREA' || el.maxLength >= 0) return false;
  Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set?.call(el, before);
  el.setSelectionRange(before.length, before.length);
  return true;
});

/** After text was inserted: fire change (typing fires it on blur) and echo the value. */
export const FINISH_FILL = fillFunction(
  'finishFill',
  FillEcho,
  function (this: Element, kit, max: number, expected: Expected): FillEcho {
    const el = this as HTMLInputElement;
    if ((el as unknown as HTMLElement).isContentEditable)
      return kit.fillEcho((el as unknown as HTMLElement).innerText.replace(/\n$/, ''), max, expected, kit.textDigest);
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return kit.fillEcho(el.value, max, expected, kit.textDigest);
  },
);
