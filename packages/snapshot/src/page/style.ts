import { z } from 'zod';
import { pageFunction } from './page-function.js';

const SetStyle = z.object({
  ok: z.boolean(),
  /** the inline value and priority before, for `style --undo` */
  before: z.object({ value: z.string(), priority: z.string() }),
  computed: z.string().optional(),
});

/** `dom.style`: sets (or with '' removes) one inline property; `ok: false` when Chrome rejected it. */
export const SET_STYLE = pageFunction(
  'setStyle',
  SetStyle,
  function (this: Element, property: string, value: string, important: boolean) {
    const style = (this as HTMLElement).style;
    const before = { value: style.getPropertyValue(property), priority: style.getPropertyPriority(property) };
    if (value === '') style.removeProperty(property);
    else {
      style.setProperty(property, value, important ? 'important' : '');
      if (style.getPropertyValue(property) === '') return { ok: false, before };
    }
    return { ok: true, before, computed: getComputedStyle(this).getPropertyValue(property) };
  },
);

/** `dom.style --undo`: puts back an inline property as it was. */
export const RESTORE_STYLE = pageFunction(
  'restoreStyle',
  z.literal(true),
  function (this: Element, property: string, value: string, priority: string): true {
    const style = (this as HTMLElement).style;
    if (value === '') style.removeProperty(property);
    else style.setProperty(property, value, priority);
    return true;
  },
);
