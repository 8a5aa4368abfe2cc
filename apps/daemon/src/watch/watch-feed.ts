import { type AnyCommand, type CallContext, isArgusError } from '@argus/protocol';
import type { ObserveCall } from '@argus/protocol/router';
import type { LocateTab } from '../journal/journal.js';
import { redactInput } from '../journal/journal-redact.js';
import { afterReply, runAfterReply } from '../after-reply.js';

/** One command as a viewer sees it: what ran, how it ended, its (redacted) input. */
export interface FeedEntry {
  at: string;
  command: string;
  ok: boolean;
  error: string | null;
  durationMs: number;
  input: string;
  /** What it acted on: the input's ref/locator, selector or URL (redacted), null when it names none. */
  target: string | null;
}

/** Commands kept per tab (a viewer that joins sees these). */
const KEEP = 20;
/** Characters of a command's input shown. */
const INPUT_MAX = 160;
/** Tabs whose history is kept (the oldest tab's goes first). */
const MAX_TABS = 200;
/** Input fields that say what a command acts on, most specific first. */
const TARGET_KEYS = ['target', 'ref', 'selector', 'locator', 'element', 'url'] as const;
/** Characters of a target shown. */
const TARGET_MAX = 200;

/** Calls that say nothing about what happens in the tab. */
const QUIET = new Set(['daemon.status', 'watch.open', 'journal.list', 'journal.export']);

/**
 * The last commands run on each tab, fed from the router's observe seam (the same one the journal
 * uses, so every call is seen: HTTP, WebSocket, batch steps, tunnel). Inputs are redacted with the
 * journal's redactor before they are kept: typed passwords never reach a viewer.
 */
export class WatchFeed {
  private readonly recent = new Map<string, FeedEntry[]>();
  private readonly listeners = new Map<string, Set<(entry: FeedEntry) => void>>();
  private readonly everyTab = new Set<(tab: string, entry: FeedEntry) => void>();

  constructor(private readonly locate: LocateTab) {}

  readonly observe: ObserveCall = (ctx: CallContext, command: AnyCommand, input: unknown) => {
    if (QUIET.has(command.name)) return undefined;
    const t0 = performance.now();
    const before = this.locate(ctx, input);
    return (error, output) => {
      const tab = this.locate(ctx, input).tab ?? before.tab;
      if (!tab) return;
      const at = Date.now();
      const durationMs = Math.round(performance.now() - t0);
      // the entry is built once the reply is sent (afterReply), with the journal's redaction of the call
      afterReply(() => {
        const failed = error !== undefined;
        const json = redactInput(command.name, input, output, ctx.secrets).json;
        this.push(tab, {
          at: new Date(at).toISOString(),
          command: command.name,
          ok: !failed,
          error: failed ? (isArgusError(error) ? error.code : 'internal') : null,
          durationMs,
          input: json === '{}' ? '' : json.length > INPUT_MAX ? `${json.slice(0, INPUT_MAX - 1)}…` : json,
          target: targetOf(json),
        });
      });
    };
  };

  private push(tab: string, entry: FeedEntry): void {
    let list = this.recent.get(tab);
    if (!list) {
      list = [];
      this.recent.set(tab, list);
      if (this.recent.size > MAX_TABS) {
        const oldest = this.recent.keys().next().value;
        if (oldest !== undefined) this.recent.delete(oldest);
      }
    }
    list.push(entry);
    if (list.length > KEEP) list.shift();
    for (const listener of this.listeners.get(tab) ?? []) listener(entry);
    for (const listener of this.everyTab) listener(tab, entry);
  }

  last(tab: string): FeedEntry[] {
    // the entries of commands that have answered, including those still queued after their reply
    runAfterReply();
    return [...(this.recent.get(tab) ?? [])];
  }

  /** Calls `listener` with each new command on the tab until the returned function runs. */
  follow(tab: string, listener: (entry: FeedEntry) => void): () => void {
    let set = this.listeners.get(tab);
    if (!set) {
      set = new Set();
      this.listeners.set(tab, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(tab);
    };
  }

  /** Calls `listener` with each new command on any tab (the extension side panel's feed). */
  followAll(listener: (tab: string, entry: FeedEntry) => void): () => void {
    this.everyTab.add(listener);
    return () => this.everyTab.delete(listener);
  }

  /** The tab closed: its history goes with it. */
  forget(tab: string): void {
    this.recent.delete(tab);
  }
}

/** The first target-like field of the redacted input (so a typed secret never shows). */
function targetOf(redactedJson: string): string | null {
  let input: unknown;
  try {
    input = JSON.parse(redactedJson);
  } catch {
    return null;
  }
  if (!input || typeof input !== 'object') return null;
  for (const key of TARGET_KEYS) {
    const value = (input as Record<string, unknown>)[key];
    if (typeof value === 'string' && value)
      return value.length > TARGET_MAX ? `${value.slice(0, TARGET_MAX - 1)}…` : value;
  }
  return null;
}
