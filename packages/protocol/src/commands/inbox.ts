import { z } from 'zod';
import { defineCommand } from '../define.js';
import { TabId } from '../common.js';

/**
 * The person points, the agent reads (issue 20): `annotate` lets the person pick elements of a tab
 * and note what they mean; each annotation lands in the workspace's agent inbox, which agents read
 * (and consume) with `argus_inbox`. Items also come from the extension's "Annotate this page" button.
 */

/** Largest annotation kept: beyond it text excerpts, then elements are cut, and the cut is recorded. */
export const ANNOTATION_MAX_BYTES = 64 * 1024;
/** Most items and bytes one `inbox consume` hands out; the rest stays unread. */
export const INBOX_CONSUME_MAX_ITEMS = 20;
export const INBOX_CONSUME_MAX_BYTES = 256 * 1024;

export const AnnotatedElement = z.object({
  note: z.string().describe("The person's note for this element"),
  locator: z
    .string()
    .nullable()
    .describe('A stable target for click/fill (role=…[name=…], label=…, text=…, CSS last); null when none is unique'),
  ref: z.string().nullable().describe('Its ref now (valid until the page changes)'),
  role: z.string(),
  name: z.string().describe('Accessible name, as the snapshot prints it'),
  text: z.string().describe('Visible text excerpt'),
  box: z
    .object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })
    .describe('Viewport CSS pixels when picked'),
  value: z.string().nullable().describe('A form field value; "[masked]" for passwords and other secrets'),
  masked: z.boolean(),
});

export const Annotation = z.object({
  id: z.string().describe('Inbox id; `argus inbox show <id>`'),
  createdAt: z.string().describe('ISO 8601'),
  source: z.enum(['command', 'extension']).describe('`argus annotate`, or the extension popup button'),
  tab: z.string().nullable(),
  url: z.string(),
  title: z.string(),
  elements: z.array(AnnotatedElement),
  cut: z
    .object({ elements: z.number(), textChars: z.number() })
    .nullable()
    .describe('What the 64 KiB cap removed (elements dropped, text characters cut); null when nothing'),
});
export type AnnotationData = z.infer<typeof Annotation>;

const InboxItem = Annotation.extend({ read: z.boolean().describe('Consumed by an agent already') });
export type InboxItemData = z.infer<typeof InboxItem>;

const ItemId = z.string().min(1).max(64).describe('Inbox item id (or a unique prefix) from `argus inbox`');

export const inboxCommands = {
  annotate: defineCommand({
    name: 'inbox.annotate',
    cli: {
      verb: 'annotate',
      examples: [
        'argus annotate',
        'argus annotate --note "Which button is broken?" --timeout 300',
        'argus annotate --tab 2',
      ],
    },
    tool: 'argus_annotate',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Let the person point at elements of a tab: a picker outlines what the pointer is over, they click elements, note each and send. Waits for send, cancel or the timeout; the annotation (locators, refs, notes) is returned and kept in the inbox.',
    input: () =>
      z.object({
        tab: TabId.optional(),
        note: z
          .string()
          .max(500)
          .optional()
          .describe('What to ask the person, shown in the picker ("Click the field that is wrong")'),
        timeout: z
          .number()
          .int()
          .min(1)
          .max(3600)
          .default(120)
          .describe('Seconds to wait for the person (default 120)'),
      }),
    output: () =>
      z.object({
        status: z.enum(['sent', 'cancelled', 'timeout']).describe('sent: the person sent elements; otherwise none'),
        reason: z.string().nullable().describe('Why it ended without an annotation (cancel, navigation, timeout)'),
        annotation: Annotation.nullable(),
        duplicate: z.boolean().describe('The same annotation arrived within 60 s and was stored once'),
      }),
    pageContent: ['annotation'],
  }),
  list: defineCommand({
    name: 'inbox.list',
    cli: { verb: 'inbox list', verbAliases: ['inbox'], examples: ['argus inbox', 'argus inbox list --unread'] },
    tool: false,
    kind: 'query',
    scope: 'read',
    summary: 'List the agent inbox (annotations from the person), newest last; unread ones marked.',
    input: () => z.object({ unread: z.boolean().default(false).describe('Only items no agent consumed yet') }),
    output: () =>
      z.object({
        items: z.array(
          z.object({
            id: z.string(),
            createdAt: z.string(),
            source: z.enum(['command', 'extension']),
            url: z.string(),
            title: z.string(),
            elements: z.number(),
            firstNote: z.string(),
            read: z.boolean(),
            bytes: z.number(),
          }),
        ),
        unread: z.number(),
      }),
    pageContent: ['items'],
  }),
  show: defineCommand({
    name: 'inbox.show',
    cli: { verb: 'inbox show', positionals: ['id'], examples: ['argus inbox show 3f2a'] },
    tool: false,
    kind: 'query',
    scope: 'read',
    summary: 'Show one inbox item in full (does not mark it read).',
    input: () => z.object({ id: ItemId }),
    output: () => z.object({ item: InboxItem }),
    pageContent: ['item'],
  }),
  consume: defineCommand({
    name: 'inbox.consume',
    cli: { verb: 'inbox consume', examples: ['argus inbox consume', 'argus inbox consume --limit 5 --json'] },
    tool: 'argus_inbox',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Read the unread annotations the person sent (marks them read). Oldest first, at most 20 items and 256 KiB per call; the rest stays unread for the next call.',
    input: () =>
      z.object({
        limit: z
          .number()
          .int()
          .min(1)
          .max(INBOX_CONSUME_MAX_ITEMS)
          .default(INBOX_CONSUME_MAX_ITEMS)
          .describe('Most items to take (1-20)'),
      }),
    output: () =>
      z.object({
        items: z.array(InboxItem),
        remaining: z.number().describe('Unread items left for the next call'),
      }),
    pageContent: ['items'],
  }),
  clear: defineCommand({
    name: 'inbox.clear',
    cli: { verb: 'inbox clear', examples: ['argus inbox clear'] },
    tool: false,
    kind: 'mutation',
    scope: 'write',
    summary: 'Delete every inbox item, read or not.',
    input: () => z.object({}),
    output: () => z.object({ cleared: z.number() }),
  }),
  watch: defineCommand({
    name: 'inbox.watch',
    cli: { verb: 'inbox --follow', examples: ['argus inbox --follow'] },
    tool: false,
    kind: 'subscription',
    // the MCP server watches it to tell its agent that annotations arrived
    scope: 'read',
    summary: 'Stream the unread count: once at the start, then each time items arrive or are consumed, until Ctrl-C.',
    input: () => z.object({}),
    output: () =>
      z.object({
        unread: z.number(),
        added: z.number().describe('Items that arrived with this change (0 at the start and for consumes)'),
        newest: z.string().nullable().describe('Id of the newest item'),
      }),
  }),
};
