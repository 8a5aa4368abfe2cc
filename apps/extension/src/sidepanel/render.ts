import type { PanelFeedEntry, PanelInbox } from '../background/panel-state.js';

/**
 * DOM for the side panel's lists. Everything shown comes from the daemon and partly from pages
 * (titles, URLs, locators): it is only ever set as text, never parsed as HTML.
 */
function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function feedItem(entry: PanelFeedEntry): HTMLLIElement {
  const item = el('li', '');
  const result = entry.ok ? 'ok' : (entry.error ?? 'error');
  item.dataset.verb = entry.verb;
  item.dataset.result = result;
  item.append(
    el('span', 'time', `${new Date(entry.at).toLocaleTimeString()} `),
    el('span', 'verb', entry.verb),
    ' ',
    el('code', 'target', entry.target ?? ''),
    ' ',
    el('span', 'result', result),
  );
  return item;
}

export function inboxItems(inbox: PanelInbox): HTMLLIElement[] {
  return inbox.items.map((annotation) => {
    const item = el('li', '');
    item.dataset.id = annotation.id;
    item.append(el('div', 'title', annotation.title || '(untitled page)'), el('div', 'url', annotation.url));
    const elements = el('ul', 'elements');
    for (const element of annotation.elements) {
      const line = el('li', 'element');
      line.append(el('span', 'note', element.note || '(no note)'), ' ', el('code', 'locator', element.locator ?? ''));
      elements.append(line);
    }
    item.append(elements);
    return item;
  });
}
