/* Functions that run INSIDE the page with `this` bound to the target element (Runtime.callFunctionOn).
 * Each is serialized with `.toString()`: no references outside its own body. The actionability wait,
 * the landing guard, the typing target and how an element is named are typed page functions in
 * page/actionability.ts; those of `fill` are in page/fill.ts. */

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
