import { type Handlers, INBOX_CONSUME_MAX_BYTES } from '@argus/protocol';
import { eventStream } from '../event-stream.js';
import { runAnnotationPicker } from '../inbox/annotate-picker.js';
import type { InboxChange } from '../inbox/inbox-store.js';
import type { Services } from '../services.js';

/** `argus annotate` and the agent inbox (issue 20). */
export function inboxHandlers(services: Services): Handlers['inbox'] {
  const { inbox, manager } = services;
  return {
    annotate: async (input, ctx) => {
      // the tab is resolved in its turn; the picker takes a turn to open and one to read what was
      // sent, not the whole wait for the person (PickerOptions.inTab)
      const page = await manager.onTab(input.tab, async (tab) => tab);
      const outcome = await runAnnotationPicker(page, manager.engine(page), {
        prompt: input.note,
        timeoutMs: input.timeout * 1000,
        signal: ctx.signal,
        inTab: (work) => manager.onTab(page.id, () => work()),
      });
      if (outcome.status !== 'sent')
        return { status: outcome.status, reason: outcome.reason, annotation: null, duplicate: false };
      const { item, duplicate } = inbox.add({ ...outcome.annotation, source: 'command' });
      const { read: _read, ...annotation } = item;
      return { status: 'sent', reason: null, annotation, duplicate };
    },
    list: async (input) => {
      const items = inbox.list({ unread: input.unread });
      return {
        items: items.map((item) => ({
          id: item.id,
          createdAt: item.createdAt,
          source: item.source,
          url: item.url,
          title: item.title,
          elements: item.elements.length,
          firstNote: item.elements.find((element) => element.note)?.note ?? '',
          read: item.read,
          bytes: Buffer.byteLength(JSON.stringify(item), 'utf8'),
        })),
        unread: inbox.unread(),
      };
    },
    show: async (input) => ({ item: inbox.get(input.id) }),
    consume: async (input) => inbox.consume(input.limit, INBOX_CONSUME_MAX_BYTES),
    clear: async () => ({ cleared: inbox.clear() }),
    async *watch(_input, ctx) {
      yield* eventStream<InboxChange>({
        signal: ctx.signal,
        // the count now first, then each change: none falls in between
        start: (push) => {
          push({ unread: inbox.unread(), added: 0, newest: inbox.list().at(-1)?.id ?? null });
          return inbox.onChange(push);
        },
      });
    },
  };
}
