import { z } from 'zod';
import type { ArgusPageApi } from '../page-walker.js';
import { findLocator } from '../page-locator.js';
import { deepHit } from './actionability.js';
import { pageFunction, pageFunctionWith } from './page-function.js';
import { isSecretField } from './secret-field.js';

/**
 * `argus annotate`: a picker drawn over the page in Argus's isolated world (page scripts cannot
 * reach its state or its binding). A transparent glass pane in a closed shadow root takes the
 * pointer, so the page never sees the person's clicks; hovering outlines the element under the
 * pointer with its role and name, a click adds it (again: removes it) with a note field, Send or
 * Enter reports `send` and Cancel or Escape `cancel` through the CDP binding the daemon added
 * (Runtime.addBinding scoped to the isolated world). The daemon then collects the chosen elements.
 */

/** The isolated world's global as the picker uses it (the walker API is installed first). */
interface PickerGlobal {
  __argus?: ArgusPageApi;
  __argusPicker?: { chosen: Array<{ el: Element; note: string }>; close(): void };
  [binding: string]: unknown;
}

export const PICKER_OPEN = pageFunctionWith({ deepHit })(
  'annotatePickerOpen',
  z.object({ opened: z.boolean() }),
  function (this: unknown, kit, binding: string, prompt: string | null) {
    const G = globalThis as unknown as PickerGlobal;
    const api = G.__argus;
    if (!api) return { opened: false };
    G.__argusPicker?.close();
    const signal = (event: 'send' | 'cancel') => {
      const call = G[binding];
      if (typeof call === 'function') (call as (payload: string) => void)(JSON.stringify({ event }));
    };
    const host = document.createElement('argus-annotate');
    host.setAttribute('style', 'all: initial; position: fixed; inset: 0; z-index: 2147483647;');
    const root = host.attachShadow({ mode: 'closed' });
    root.innerHTML = `<style>
      .glass { position: fixed; inset: 0; cursor: crosshair; background: transparent; }
      .box { position: fixed; pointer-events: none; outline: 2px solid #2563eb; background: rgba(37,99,235,.08); }
      .box.chosen { outline: 2px solid #d97706; background: rgba(217,119,6,.10); }
      .tag { position: fixed; pointer-events: none; font: 12px/1.4 system-ui, sans-serif; color: #fff;
        background: #1e3a8a; padding: 1px 6px; border-radius: 3px; max-width: 420px; white-space: nowrap;
        overflow: hidden; text-overflow: ellipsis; }
      .tag.chosen { background: #b45309; }
      .panel { position: fixed; right: 12px; bottom: 12px; width: 340px; max-height: 60vh; overflow: auto;
        font: 13px/1.4 system-ui, sans-serif; color: #111; background: #fff; border: 1px solid #999;
        border-radius: 6px; box-shadow: 0 4px 16px rgba(0,0,0,.25); padding: 10px; }
      .panel p { margin: 0 0 6px; }
      .item { margin: 6px 0; }
      .item label { display: block; font-size: 12px; color: #333; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
      .item input { width: 100%; box-sizing: border-box; font: inherit; padding: 3px 4px; }
      .actions { display: flex; gap: 8px; justify-content: flex-end; margin-top: 8px; }
      .actions button { font: inherit; padding: 4px 12px; }
      .hint { color: #555; font-size: 12px; }
    </style>
    <div class="glass"></div><div class="layer"></div>
    <div class="panel" role="dialog" aria-label="Argus annotation">
      <p class="prompt"></p>
      <p class="hint">Click elements to annotate them, type a note for each, then Send (Enter). Escape cancels.</p>
      <div class="items"></div>
      <div class="actions"><button class="cancel" type="button">Cancel</button><button class="send" type="button">Send</button></div>
    </div>`;
    const $ = <T extends Element>(selector: string) => root.querySelector(selector) as T; // from the markup above
    const glass = $<HTMLElement>('.glass');
    const layer = $<HTMLElement>('.layer');
    const items = $<HTMLElement>('.items');
    $<HTMLElement>('.prompt').textContent = prompt ?? 'Argus: point at elements for the agent.';
    const chosen: Array<{ el: Element; note: string; input: HTMLInputElement }> = [];
    let hovered: Element | null = null;

    /** The page element under a point, below the glass (and inside open shadow roots): the actions' hit test. */
    const under = (x: number, y: number): Element | null => kit.deepHit(x, y, host);
    const place = (node: HTMLElement, rect: DOMRect) => {
      node.style.left = `${rect.left}px`;
      node.style.top = `${rect.top}px`;
      node.style.width = `${rect.width}px`;
      node.style.height = `${rect.height}px`;
    };
    const tag = (text: string, rect: DOMRect, kind: string) => {
      const label = document.createElement('div');
      label.className = `tag ${kind}`;
      label.textContent = text;
      label.style.left = `${Math.max(0, rect.left)}px`;
      label.style.top = `${rect.top >= 20 ? rect.top - 20 : rect.bottom + 2}px`;
      return label;
    };
    const draw = () => {
      layer.textContent = '';
      for (const [index, item] of chosen.entries()) {
        const rect = item.el.getBoundingClientRect();
        const box = document.createElement('div');
        box.className = 'box chosen';
        place(box, rect);
        layer.append(box, tag(`${index + 1}. ${api.label(item.el)}`, rect, 'chosen'));
      }
      if (hovered && !chosen.some((item) => item.el === hovered)) {
        const rect = hovered.getBoundingClientRect();
        const box = document.createElement('div');
        box.className = 'box';
        place(box, rect);
        layer.append(box, tag(api.label(hovered), rect, ''));
      }
    };
    const listItems = () => {
      items.textContent = '';
      for (const [index, item] of chosen.entries()) {
        const row = document.createElement('div');
        row.className = 'item';
        const label = document.createElement('label');
        label.textContent = `${index + 1}. ${api.label(item.el)}`;
        row.append(label, item.input);
        items.append(row);
      }
    };
    const send = () => {
      if (!chosen.length) {
        $<HTMLElement>('.hint').textContent = 'Click at least one element first (or Cancel).';
        return;
      }
      for (const item of chosen) item.note = item.input.value;
      signal('send');
    };
    glass.addEventListener('mousemove', (event) => {
      hovered = under(event.clientX, event.clientY);
      draw();
    });
    glass.addEventListener('mousedown', (event) => event.preventDefault());
    glass.addEventListener('click', (event) => {
      event.preventDefault();
      const el = under(event.clientX, event.clientY);
      if (!el || el === document.documentElement || el === document.body) return;
      const at = chosen.findIndex((item) => item.el === el);
      if (at !== -1) chosen.splice(at, 1);
      else {
        const input = document.createElement('input');
        input.placeholder = 'Note for the agent';
        input.addEventListener('input', () => {
          const item = chosen.find((entry) => entry.input === input);
          if (item) item.note = input.value;
        });
        chosen.push({ el, note: '', input });
      }
      listItems();
      draw();
      chosen.at(-1)?.input.focus();
    });
    root.addEventListener('keydown', (event) => {
      const key = (event as KeyboardEvent).key;
      if (key === 'Enter') send();
      else if (key === 'Escape') signal('cancel');
      else return;
      event.preventDefault();
    });
    $<HTMLElement>('.send').addEventListener('click', send);
    $<HTMLElement>('.cancel').addEventListener('click', () => signal('cancel'));
    const redraw = () => draw();
    addEventListener('scroll', redraw, { capture: true, passive: true });
    addEventListener('resize', redraw, { passive: true });
    (document.documentElement ?? document).append(host);
    G.__argusPicker = {
      get chosen() {
        return chosen.map((item) => ({ el: item.el, note: item.input.value }));
      },
      close() {
        removeEventListener('scroll', redraw, { capture: true });
        removeEventListener('resize', redraw);
        host.remove();
        delete G.__argusPicker;
      },
    };
    return { opened: true };
  },
);

/** Removes the picker (cancel, timeout); false when there was none (the page navigated). */
export const PICKER_CLOSE = pageFunction(
  'annotatePickerClose',
  z.object({ closed: z.boolean() }),
  function (this: unknown) {
    const G = globalThis as unknown as PickerGlobal;
    const picker = G.__argusPicker;
    picker?.close();
    return { closed: picker !== undefined };
  },
);

const FoundLocatorResult = z
  .object({
    kind: z.enum(['role', 'label', 'text', 'css']),
    role: z.string().max(64).optional(),
    value: z.string().max(4096),
    exact: z.boolean(),
  })
  .nullable();

const PickedElement = z.object({
  id: z.number().int().nonnegative(),
  note: z.string().max(10_000),
  label: z.string().max(1000),
  role: z.string().max(64),
  name: z.string().max(10_000),
  text: z.string().max(10_000),
  box: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
  value: z.string().max(10_000).nullable(),
  masked: z.boolean(),
  locator: FoundLocatorResult,
});
export type PickedElement = z.infer<typeof PickedElement>;

export const PickerCollection = z.object({
  url: z.string().max(16_384),
  title: z.string().max(4096),
  token: z.string().max(64),
  elements: z.array(PickedElement).max(500),
});
export type PickerCollection = z.infer<typeof PickerCollection>;

/**
 * The chosen elements with what the agent needs to act on them: the walker id (the daemon mints the
 * ref), role and name as the snapshot prints them, a text excerpt, the box (viewport CSS px), a form
 * field's value (masked for passwords and other secrets) and the stable locator `click` accepts.
 * The picker is removed first, so it never counts in a locator's uniqueness.
 */
export const PICKER_COLLECT = pageFunctionWith({ findLocator, isSecretField })(
  'annotatePickerCollect',
  PickerCollection,
  function (this: unknown, kit, maxText: number) {
    const G = globalThis as unknown as PickerGlobal;
    const api = G.__argus;
    const picker = G.__argusPicker;
    const chosen = picker ? picker.chosen : [];
    picker?.close();
    const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
    const valueOf = (el: Element): { value: string | null; masked: boolean } => {
      const field =
        el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement;
      if (!field) return { value: null, masked: false };
      if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio'))
        return { value: el.checked ? 'checked' : 'unchecked', masked: false };
      if (kit.isSecretField(el)) return { value: el.value ? '[masked]' : '', masked: true };
      return { value: cut(el.value, maxText), masked: false };
    };
    const elements = api
      ? chosen
          .filter((item) => item.el.isConnected)
          .map((item) => {
            const el = item.el;
            const label = api.label(el);
            const space = label.indexOf(' ');
            const rect = el.getBoundingClientRect();
            const { value, masked } = valueOf(el);
            const rawText = ((el as HTMLElement).innerText ?? el.textContent ?? '').replace(/\s+/g, ' ').trim();
            return {
              id: api.idOf(el),
              note: cut(item.note, 4000),
              label: cut(label, 1000),
              role: space === -1 ? label : label.slice(0, space),
              name: cut(api.name(el), 1000),
              // a secret field's text is its value in some widgets: never copied
              text: masked ? '' : cut(rawText, maxText),
              box: { x: rect.left, y: rect.top, width: rect.width, height: rect.height },
              value,
              masked,
              locator: kit.findLocator.call(el, api),
            };
          })
      : [];
    return { url: location.href, title: document.title, token: api?.token ?? '', elements };
  },
);
