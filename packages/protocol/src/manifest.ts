import type { AnyCommand } from './define.js';
import { readContentCommands } from './commands/read-content.js';
import { daemonCommands } from './commands/daemon.js';
import { inputCommands } from './commands/input.js';
import { pageCommands } from './commands/page.js';
import { snapshotCommands } from './commands/snapshot.js';
import { tabCommands } from './commands/tabs.js';
import { captureCommands } from './commands/capture.js';
import { batchCommands } from './commands/batch.js';
import { tokenCommands } from './commands/token.js';
import { sessionCommands } from './commands/session.js';
import { readCommands } from './commands/read.js';
import { inspectCommands } from './commands/inspect.js';
import { visualCommands } from './commands/visual.js';
import { inputPointerCommands } from './commands/input-pointer.js';
import { filesCommands } from './commands/files.js';
import { domCommands } from './commands/dom.js';
import { emulationCommands } from './commands/emulation.js';
import { stateCommands } from './commands/state.js';
import { configCommands } from './commands/config.js';
import { approvalsCommands } from './commands/approvals.js';
import { cdpCommands } from './commands/cdp.js';
import { webCommands } from './commands/web.js';
import { webCrawlCommands } from './commands/web-crawl.js';
import { webSearchCommands } from './commands/web-search.js';
import { routeCommands } from './commands/route.js';
import { canvasCommands } from './commands/canvas.js';
import { canvasPreviewCommands } from './commands/canvas-preview.js';
import { canvasSyncCommands } from './commands/canvas-sync.js';
import { namedSessionCommands } from './commands/sessions.js';
import { journalCommands } from './commands/journal.js';
import { profileCommands } from './commands/profile.js';
import { screencastCommands, watchCommands } from './commands/watch.js';
import { skillCommands } from './commands/skill.js';
import { inboxCommands } from './commands/inbox.js';
import { handoffCommands } from './commands/handoff.js';

/**
 * THE public surface. One entry per command, grouped by namespace; the namespace and key form the
 * contract path (`page.goto`). Everything else (router, CLI, plugin tools, docs) is derived from it.
 */
export const manifest = {
  daemon: daemonCommands,
  page: pageCommands,
  snapshot: snapshotCommands,
  input: { ...inputCommands, ...inputPointerCommands },
  tabs: tabCommands,
  capture: captureCommands,
  batch: batchCommands,
  token: tokenCommands,
  session: sessionCommands,
  read: { ...readCommands, ...readContentCommands },
  inspect: inspectCommands,
  visual: visualCommands,
  files: filesCommands,
  dom: domCommands,
  emulation: emulationCommands,
  state: stateCommands,
  config: configCommands,
  approvals: approvalsCommands,
  cdp: cdpCommands,
  web: { ...webCommands, ...webCrawlCommands, ...webSearchCommands },
  route: routeCommands,
  canvas: { ...canvasCommands, ...canvasPreviewCommands, ...canvasSyncCommands },
  sessions: namedSessionCommands,
  journal: journalCommands,
  profile: profileCommands,
  watch: watchCommands,
  screencast: screencastCommands,
  skill: skillCommands,
  inbox: inboxCommands,
  handoff: handoffCommands,
};

export type Manifest = typeof manifest;
export type Namespace = keyof Manifest;

let flat: readonly AnyCommand[] | undefined;

/**
 * Orders command and tool names: ignoring case, then by code unit. For these ASCII names it is the
 * order `localeCompare` gives, without the ICU collator its first call builds (~10 ms of a process's
 * start-up, the MCP server's among them: issue 16).
 */
export function compareNames(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Every command, sorted by contract path. */
export function listCommands(): readonly AnyCommand[] {
  flat ??= Object.values(manifest)
    .flatMap((group) => Object.values(group) as AnyCommand[])
    .sort((a, b) => compareNames(a.name, b.name));
  return flat;
}

export function commandByName(name: string): AnyCommand | undefined {
  return listCommands().find((command) => command.name === name);
}

export function commandByVerb(verb: string): AnyCommand | undefined {
  return listCommands().find((command) => command.cli !== false && command.cli.verb === verb);
}

export function commandByTool(tool: string): AnyCommand | undefined {
  return listCommands().find((command) => command.tool === tool);
}
