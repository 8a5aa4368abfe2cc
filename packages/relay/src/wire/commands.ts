import { z } from 'zod';

/**
 * The typed command map spoken between the relay and the extension node (and, unchanged, by /ops
 * clients). Each entry is `{ params, result }` as a zod schema pair; the TS types are inferred from
 * the schemas so the two can never drift.
 */

export const TabInfo = z.object({
  tabId: z.number().int(),
  /** Chrome's DevTools target id of the tab (same id a CDP client sees). */
  targetId: z.string(),
  windowId: z.number().int().optional(),
  url: z.string(),
  title: z.string(),
  active: z.boolean(),
  /** Opened by an agent through `tabs.open`; only such tabs may be closed without `force`. */
  agentOpened: z.boolean(),
  /** Whether the extension's debugger is attached to the tab. */
  attached: z.boolean(),
});
export type TabInfo = z.infer<typeof TabInfo>;

const Empty = z.object({}).strict();

export const COMMANDS = {
  'node.status': {
    params: Empty,
    result: z.object({
      nodeId: z.string(),
      extensionVersion: z.string(),
      userAgent: z.string(),
      tabs: z.number().int(),
      sessions: z.number().int(),
    }),
  },
  'tabs.list': { params: Empty, result: z.object({ tabs: z.array(TabInfo) }) },
  'tabs.open': {
    params: z.object({ url: z.string().default('about:blank'), active: z.boolean().optional() }),
    result: z.object({ tab: TabInfo }),
  },
  'tabs.close': {
    params: z.object({
      tabId: z.number().int(),
      /** Closing a tab the user opened needs an explicit opt-in. */
      force: z.boolean().optional(),
    }),
    result: z.object({ closed: z.boolean() }),
  },
  'tabs.activate': { params: z.object({ tabId: z.number().int() }), result: z.object({}) },
  'debugger.attach': {
    params: z.object({ tabId: z.number().int() }),
    result: z.object({ sessionId: z.string(), tab: TabInfo }),
  },
  'debugger.detach': { params: z.object({ sessionId: z.string() }), result: z.object({}) },
  'cdp.send': {
    params: z.object({
      /** A tab session from `debugger.attach`, or a child session (OOPIF, worker) auto-attached under it. */
      sessionId: z.string(),
      method: z.string().min(1),
      params: z.record(z.string(), z.unknown()).optional(),
    }),
    result: z.object({ result: z.unknown() }),
  },
} as const;

export type CommandName = keyof typeof COMMANDS;
export type CommandParams<C extends CommandName> = z.input<(typeof COMMANDS)[C]['params']>;
export type CommandResult<C extends CommandName> = z.output<(typeof COMMANDS)[C]['result']>;
export type CommandMap = { [C in CommandName]: { params: CommandParams<C>; result: CommandResult<C> } };

export function isCommandName(value: string): value is CommandName {
  return Object.hasOwn(COMMANDS, value);
}

export const EVENTS = {
  'tab.created': z.object({ tab: TabInfo }),
  'tab.updated': z.object({ tab: TabInfo }),
  'tab.removed': z.object({ tabId: z.number().int(), targetId: z.string().optional() }),
  /** A CDP event from a tab session or one of its children (`sessionId` is the session it belongs to). */
  'cdp.event': z.object({ sessionId: z.string(), method: z.string(), params: z.unknown() }),
  'session.detached': z.object({ sessionId: z.string(), targetId: z.string().optional(), reason: z.string() }),
  /** The person pressed "Annotate this page" in the popup: the daemon runs the picker on that tab, into the inbox. */
  'page.annotate': z.object({ tabId: z.number().int(), targetId: z.string().min(1).max(128) }),
  /** The person paused (or resumed) the agent on a tab from the side panel: the daemon holds its commands. */
  'tab.paused': z.object({ tabId: z.number().int(), targetId: z.string().min(1).max(128), paused: z.boolean() }),
  /** The person pressed "Clear" under the inbox in the side panel: the daemon runs `inbox.clear`. */
  'inbox.clear': z.object({}).strict(),
} as const;

export type EventName = keyof typeof EVENTS;
export type EventParams<E extends EventName> = z.output<(typeof EVENTS)[E]>;

/** One inbox item as the side panel lists it: page-derived text (URL, title) plus the person's notes. */
export const PanelInboxItem = z.object({
  id: z.string().max(64),
  createdAt: z.string().max(40),
  url: z.string().max(2048),
  title: z.string().max(300),
  elements: z.array(z.object({ note: z.string().max(600), locator: z.string().max(400).nullable() })).max(50),
});
export type PanelInboxItem = z.infer<typeof PanelInboxItem>;

/**
 * Events the relay pushes to the extension (relay -> extension; additive: an extension that does not
 * know this frame type drops it). They feed the side panel; nothing in them is a command.
 */
export const RELAY_EVENTS = {
  /** A command an agent ran on one of the user's tabs: CLI verb, its target (redacted), how it ended. */
  'panel.feed': z.object({
    targetId: z.string().min(1).max(128),
    at: z.string().max(40),
    verb: z.string().max(64),
    target: z.string().max(300).nullable(),
    ok: z.boolean(),
    error: z.string().max(64).nullable(),
  }),
  /** The unread inbox (newest first, at most 20 items shown) after every change and on connect. */
  'panel.inbox': z.object({ unread: z.number().int().min(0), items: z.array(PanelInboxItem).max(20) }),
} as const;

export type RelayEventName = keyof typeof RELAY_EVENTS;
export type RelayEventParams<E extends RelayEventName> = z.output<(typeof RELAY_EVENTS)[E]>;
