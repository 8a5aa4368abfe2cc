import { z } from 'zod';
import { defineCommand } from '../define.js';
import { HttpUrl, TabId, Title } from '../common.js';
import { leaseCommands } from './leases.js';

const TabInfo = z.object({
  id: z.string().describe('Tab id'),
  index: z.number().int().describe('1-based position in tab order'),
  shortId: z.string().describe('Shortest unique id prefix (4+ chars)'),
  url: z.string(),
  title: Title,
  active: z.boolean(),
});

export const tabCommands = {
  list: defineCommand({
    name: 'tabs.list',
    cli: { verb: 'tabs' },
    tool: 'argus_tabs',
    kind: 'query',
    scope: 'read',
    summary: 'List open tabs.',
    input: () => z.object({}),
    output: () => z.object({ tabs: z.array(TabInfo) }),
    // every tab's title is page text
    pageContent: ['tabs'],
  }),
  open: defineCommand({
    name: 'tabs.open',
    cli: { verb: 'newtab', positionals: ['url'], examples: ['argus newtab', 'argus newtab https://example.com'] },
    tool: 'argus_newtab',
    kind: 'mutation',
    scope: 'write',
    summary: 'Open a new tab (optionally at a URL) and make it active.',
    input: () => z.object({ url: HttpUrl.optional() }),
    output: () => TabInfo,
  }),
  select: defineCommand({
    name: 'tabs.select',
    cli: { verb: 'tab', positionals: ['id'], examples: ['argus tab 2', 'argus tab 37F0'] },
    tool: 'argus_tab',
    kind: 'mutation',
    scope: 'write',
    summary: 'Make a tab the active one.',
    input: () => z.object({ id: TabId.describe('Tab index, id or id prefix from `tabs`') }),
    output: () => TabInfo,
  }),
  close: defineCommand({
    name: 'tabs.close',
    cli: { verb: 'closetab', verbAliases: ['close'], positionals: ['id'] },
    tool: 'argus_closetab',
    kind: 'mutation',
    scope: 'write',
    summary: 'Close a tab (default: the active one).',
    input: () => z.object({ id: TabId.optional() }),
    output: () =>
      z.object({
        closed: z.string().describe('Id of the tab closed'),
        activeTab: z
          .string()
          .nullable()
          .describe('Your active tab now (null: none; a command without a tab then opens a new one)'),
        openTabs: z.number().int().describe('Tabs you still see listed (`tabs`)'),
        next: TabInfo.omit({ index: true, active: true })
          .nullable()
          .describe(
            'With no active tab: a listed tab you could use, not attached (extension mode attaches a tab only when a command names it: `tab <shortId>`)',
          ),
      }),
    // the tab it names carries its page's title
    pageContent: ['next'],
  }),
  ...leaseCommands,
};
