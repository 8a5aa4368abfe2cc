import { cut, titled } from './format.js';
import type { OutputOf, RenderContext, RenderersOf } from './types.js';

type Item = NonNullable<OutputOf<'inbox.annotate'>['annotation']>;

/** One annotation: the page, then each element with what to target it by and the person's note. */
function annotationText(item: Item, context: RenderContext): string {
  const head = `${item.id}  ${item.createdAt}  ${titled(item.title, item.url)}${item.source === 'extension' ? '  (from the extension)' : ''}`;
  const rows = item.elements.map((element, index) => {
    const target = element.locator ?? element.ref ?? '(no stable target)';
    const ref = element.ref && element.locator ? ` ${element.ref}` : '';
    const value = element.value === null ? '' : ` value=${JSON.stringify(element.value)}`;
    const text = element.text && element.text !== element.name ? ` text=${JSON.stringify(cut(element.text, 160))}` : '';
    return [
      `${index + 1}. ${element.role} ${JSON.stringify(element.name)} -> ${target}${ref}${value}${text}`,
      `   note: ${element.note || '(none)'}`,
    ].join('\n');
  });
  const cutLine = item.cut
    ? [`[cut to 64 KiB: ${item.cut.elements} elements dropped, ${item.cut.textChars} text characters cut]`]
    : [];
  const next =
    context.surface === 'agent' && item.elements.some((element) => element.locator)
      ? ['Act on an element with its locator (refs go stale once the page changes).']
      : [];
  return [head, ...rows, ...cutLine, ...next].join('\n');
}

export const inboxRenderers: RenderersOf<'inbox'> = {
  'inbox.annotate': (output, context) => {
    if (!output.annotation) return `no annotation: ${output.status}${output.reason ? ` (${output.reason})` : ''}`;
    const stored = output.duplicate ? ' (same as one sent within 60 s: stored once)' : '';
    return `annotation from the person, kept in the inbox${stored}\n${annotationText(output.annotation, context)}`;
  },
  'inbox.list': (output) =>
    output.items
      .map(
        (item) =>
          `${item.read ? ' ' : '*'} ${item.id}  ${item.createdAt}  ${item.elements} element${item.elements === 1 ? '' : 's'}  ${cut(titled(item.title, item.url), 80)}${item.firstNote ? `  "${cut(item.firstNote, 60)}"` : ''}`,
      )
      .join('\n') || '(the inbox is empty)',
  'inbox.show': (output, context) => `${output.item.read ? 'read' : 'unread'}\n${annotationText(output.item, context)}`,
  'inbox.consume': (output, context) => {
    if (!output.items.length) return '(no unread annotations)';
    const more = output.remaining ? `\n[${output.remaining} more unread: call again]` : '';
    return `${output.items.length} annotation${output.items.length === 1 ? '' : 's'} from the person (page content and their notes):\n${output.items.map((item) => annotationText(item, context)).join('\n\n')}${more}`;
  },
  'inbox.clear': (output) => `cleared ${output.cleared} inbox item${output.cleared === 1 ? '' : 's'}`,
  'inbox.watch': (output) =>
    `${output.unread} unread${output.added ? ` (+${output.added} new${output.newest ? `, newest ${output.newest}` : ''})` : ''}`,
};
