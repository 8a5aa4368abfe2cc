import { z } from 'zod';
import type { ArgusPageApi } from '../page-walker.js';
import { readFunction } from './read-kit.js';

const PageField = z.object({
  /** the walker id of the field when the last (interactive) snapshot emitted it: the daemon maps it to its ref */
  walkerId: z.number().nullable(),
  tag: z.string(),
  type: z.string(),
  name: z.string(),
  id: z.string(),
  label: z.string(),
  value: z.string(),
  checked: z.boolean().nullable(),
  required: z.boolean(),
  disabled: z.boolean(),
  options: z.array(z.object({ value: z.string(), label: z.string(), selected: z.boolean() })).nullable(),
});
export type PageFormField = z.output<typeof PageField>;

const FormsResult = z.object({
  /** the walker's token, under which its ids were minted */
  token: z.string(),
  forms: z.array(
    z.object({ name: z.string(), action: z.string().nullable(), method: z.string(), fields: z.array(PageField) }),
  ),
});

/**
 * `read.forms`: forms and their fields, plus the fields outside any form. Runs right after an
 * interactive snapshot: the walker (`__argus`) gives each field its accessible name, the very one the
 * snapshot prints and the `label=` locator matches, and the ids of the elements it emitted let the
 * daemon turn each field into its ref.
 */
export const FORMS = readFunction('forms', FormsResult, function (this: Document | Element, { deepAll, norm }) {
  const api = (globalThis as { __argus?: ArgusPageApi }).__argus;
  const ids = new Map<Element, number>();
  if (api && api.lastIds)
    for (const id of api.lastIds) {
      const el = api.get(id, api.token);
      if (el) ids.set(el, id);
    }
  type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | HTMLButtonElement;
  const groups = new Map<HTMLFormElement | null, PageFormField[]>();
  const order: Array<HTMLFormElement | null> = [];
  for (const el of deepAll(this, 'input, select, textarea, button') as Control[]) {
    const tag = el.tagName.toLowerCase();
    const type = tag === 'textarea' ? 'textarea' : tag === 'button' ? el.type || 'submit' : el.type;
    let value = tag === 'button' ? norm(el.value) : String(el.value ?? '');
    if (type === 'password' && value) value = '\u2022\u2022\u2022\u2022';
    const files = tag === 'input' ? (el as HTMLInputElement).files : null;
    if (type === 'file' && files) value = Array.from(files, (file) => file.name).join(', ');
    const id = ids.get(el);
    const field: PageFormField = {
      walkerId: id === undefined ? null : id,
      tag,
      type,
      name: el.getAttribute('name') || '',
      id: el.id || '',
      label: (api ? norm(api.name(el)) : '').slice(0, 300),
      value: value.slice(0, 2000),
      checked: type === 'checkbox' || type === 'radio' ? !!(el as HTMLInputElement).checked : null,
      required: !!(el as HTMLInputElement).required,
      disabled: !!el.matches(':disabled'),
      options:
        tag === 'select'
          ? Array.from((el as HTMLSelectElement).options)
              .slice(0, 500)
              .map((o) => ({ value: o.value, label: norm(o.label || o.text), selected: o.selected }))
          : null,
    };
    const form = el.form || null;
    let fields = groups.get(form);
    if (!fields) {
      fields = [];
      groups.set(form, fields);
      order.push(form);
    }
    fields.push(field);
  }
  // attributes, not properties: a field named "action" or "id" shadows the form's property
  const absolute = (url: string | null) => {
    try {
      return new URL(url || '', document.baseURI).href;
    } catch {
      return document.URL;
    }
  };
  const methodOf = (form: HTMLFormElement) => {
    const method = (form.getAttribute('method') || 'get').toLowerCase();
    return method === 'post' ? 'post' : method === 'dialog' ? 'dialog' : 'get';
  };
  const forms: Array<z.output<typeof FormsResult>['forms'][number]> = [];
  for (const form of order)
    if (form)
      forms.push({
        name: form.getAttribute('name') || form.getAttribute('id') || '',
        action: absolute(form.getAttribute('action')),
        method: methodOf(form),
        fields: groups.get(form) ?? [],
      });
  const loose = groups.get(null);
  if (loose) forms.push({ name: '', action: null, method: '', fields: loose });
  return { token: api ? api.token : '', forms };
});
