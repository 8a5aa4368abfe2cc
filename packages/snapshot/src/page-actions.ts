/* Functions that run INSIDE the page with `this` bound to the target element (Runtime.callFunctionOn).
 * Each is serialized with `.toString()`: no references outside its own body. The actionability wait,
 * the landing guard and the typing target are typed page functions in page/actionability.ts. */

/** Describes an element for messages (used for a covering element from another frame). */
export function describeElement(this: Element): string {
  let out = this.tagName.toLowerCase();
  if (this.id) out += '#' + this.id;
  const cls = typeof this.className === 'string' ? this.className.trim().split(/\s+/).slice(0, 2).filter(Boolean) : [];
  if (cls.length) out += '.' + cls.join('.');
  return out;
}

/** Focuses and selects the current content of an input, textarea or contenteditable. */
export function prepareFill(this: Element): { kind: 'input' | 'editable' | 'native'; type: string } {
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
}

/** What `fill` reads back of a field: at most `max` characters of its value, its length, whether it is the text given. */
export interface FillEcho {
  value: string;
  length: number;
  truncated: boolean;
  /** the whole value is the text given (compared by length and textDigest, so the text need not cross CDP again) */
  matches: boolean;
}

/**
 * A 64-bit digest of a string (two 32-bit FNV-1a style hashes), as hex. Runs in Node and in the page
 * (bound into fill's page functions): `fill` tells whether a long field value is the text given
 * without sending either of them across CDP a second time.
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

/** The echo of a field's value, cut in the page (not inside a surrogate pair). */
export function fillEcho(
  value: string,
  max: number,
  expected: { length: number; digest: string },
  digest: (text: string) => string,
): FillEcho {
  const matches = value.length === expected.length && digest(value) === expected.digest;
  if (value.length <= max) return { value, length: value.length, truncated: false, matches };
  const cut = /[\uD800-\uDBFF]/.test(value.charAt(max - 1)) ? max - 1 : max;
  return { value: value.slice(0, cut), length: value.length, truncated: true, matches };
}

/** Sets a value through the native setter (what frameworks listen to) and fires input + change. */
export function setNativeValue(this: Element, value: string): string {
  const el = this as HTMLInputElement;
  const proto = el.tagName === 'TEXTAREA' ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(el, value);
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return el.value;
}

/**
 * Before a text of many lines goes into a textarea: puts all of it before its last line break in the
 * field through the native setter, silently (no event), with the caret at the end, so that only the
 * rest is inserted as typed text (Input.insertText). Inserting every line break is an editing command
 * of its own, each costing the whole value's layout and firing its own input events: 50,000
 * characters of 48-character lines took seconds of the renderer's main thread and 2,000 input events.
 * The page still sees the trusted beforeinput and input of the insertion (and reads the full value
 * in them). Refused (false) for a field with a maxlength, which a setter would not apply.
 */
export function presetLines(this: Element, before: string): boolean {
  const el = this as HTMLTextAreaElement;
  if (el.tagName !== 'TEXTAREA' || el.maxLength >= 0) return false;
  Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set?.call(el, before);
  el.setSelectionRange(before.length, before.length);
  return true;
}

/** After text was inserted: fire change (typing fires it on blur) and report the value. */
export function finishFill(this: Element): string {
  const el = this as HTMLInputElement;
  if ((el as unknown as HTMLElement).isContentEditable)
    return (el as unknown as HTMLElement).innerText.replace(/\n$/, '');
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return el.value;
}

/**
 * Selects options of a native <select>, each wanted one matched by value, then visible label, then
 * label in any case. A single select takes one; a <select multiple> ends with exactly the wanted
 * options selected (the others cleared; none wanted clears it), as a user's ctrl-clicks would leave it.
 * An option disabled itself or by its <optgroup> is refused. One input and one change event follow.
 */
export function pickOptions(
  this: Element,
  wanted: string[],
): {
  ok: boolean;
  chosen?: { value: string; label: string }[];
  options?: string[];
  missing?: string;
  disabled?: string;
  notSelect?: boolean;
  single?: boolean;
} {
  if (this.tagName !== 'SELECT') return { ok: false, notSelect: true };
  const select = this as HTMLSelectElement;
  const options = Array.from(select.options);
  const clean = (s: string) => s.replace(/\s+/g, ' ').trim();
  const labelOf = (o: HTMLOptionElement) => clean(o.label || o.text);
  if (!select.multiple && wanted.length !== 1) return { ok: false, single: true };
  const matches = new Set<HTMLOptionElement>();
  for (const want of wanted) {
    const match =
      options.find((o) => o.value === want) ||
      options.find((o) => labelOf(o) === clean(want)) ||
      options.find((o) => labelOf(o).toLowerCase() === clean(want).toLowerCase());
    if (!match)
      return {
        ok: false,
        missing: want,
        options: options.slice(0, 30).map((o) => labelOf(o) + (o.value !== clean(o.text) ? ` (value=${o.value})` : '')),
      };
    if (match.matches(':disabled')) return { ok: false, disabled: labelOf(match) };
    matches.add(match);
  }
  select.focus();
  if (select.multiple) for (const option of options) option.selected = matches.has(option);
  else for (const match of matches) match.selected = true;
  select.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  select.dispatchEvent(new Event('change', { bubbles: true }));
  return { ok: true, chosen: options.filter((o) => o.selected).map((o) => ({ value: o.value, label: labelOf(o) })) };
}

export function readText(this: Element | null, maxChars: number): { text: string; truncated: boolean } {
  const root = (this && this.nodeType === 1 ? this : document.body || document.documentElement) as HTMLElement;
  const text = (root.innerText ?? root.textContent ?? '').replace(/\n{3,}/g, '\n\n').trim();
  return text.length > maxChars ? { text: text.slice(0, maxChars), truncated: true } : { text, truncated: false };
}

export function readHtml(this: Element | null, maxChars: number): { html: string; truncated: boolean } {
  const root = this && this.nodeType === 1 ? this : document.documentElement;
  const html = root.outerHTML;
  return html.length > maxChars ? { html: html.slice(0, maxChars), truncated: true } : { html, truncated: false };
}
