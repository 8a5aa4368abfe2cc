import { z } from 'zod';
import { pageFunction } from './page-function.js';

const Picked = z.object({
  ok: z.boolean(),
  /** the options selected now */
  chosen: z.array(z.object({ value: z.string(), label: z.string() })).optional(),
  /** with `missing`: the first 30 options, as a person reads them */
  options: z.array(z.string()).optional(),
  /** the wanted value no option matched */
  missing: z.string().optional(),
  /** the label of a wanted option that is disabled */
  disabled: z.string().optional(),
  /** the element is not a <select> */
  notSelect: z.boolean().optional(),
  /** several wanted for a select that takes one */
  single: z.boolean().optional(),
});
export type Picked = z.infer<typeof Picked>;

/**
 * `select`: selects options of a native <select>, each wanted one matched by value, then visible
 * label, then label in any case. A single select takes one; a <select multiple> ends with exactly
 * the wanted options selected (the others cleared; none wanted clears it), as a user's ctrl-clicks
 * would leave it. An option disabled itself or by its <optgroup> is refused. One input and one
 * change event follow.
 */
export const PICK_OPTIONS = pageFunction('pickOptions', Picked, function (this: Element, wanted: string[]): Picked {
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
});
