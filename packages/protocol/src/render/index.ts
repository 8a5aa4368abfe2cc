/**
 * One renderer per manifest command, typed by its output schema (`@argus/protocol/render`). The
 * CLI prints them; the MCP server and the OpenCode plugin send them to agents (with the untrusted
 * envelope around page content). Only types come from the manifest, so loading this costs no zod.
 */
import { approvalsRenderers, cdpRenderers, configRenderers, tokenRenderers } from './admin.js';
import { batchRenderers } from './batch.js';
import { captureRenderers } from './capture.js';
import { daemonRenderers, sessionRenderers } from './daemon.js';
import { domRenderers, emulationRenderers, filesRenderers, inputRenderers, stateRenderers } from './interaction.js';
import { pageRenderers, snapshotRenderers } from './page.js';
import { inspectRenderers, readRenderers, visualRenderers } from './reading.js';
import { tabRenderers } from './tabs.js';
import { webRenderers } from './web.js';
import { routeRenderers } from './route.js';
import { canvasRenderers } from './canvas.js';
import { namedSessionRenderers } from './sessions.js';
import { journalRenderers, profileRenderers } from './journal.js';
import { screencastRenderers, watchRenderers } from './watch.js';
import { handoffRenderers } from './handoff.js';
import { skillRenderers } from './skill.js';
import { inboxRenderers } from './inbox.js';
import type { CommandName, RenderContext, Renderers } from './types.js';

export type { CommandName, OutputOf, RenderContext, Renderer, Renderers, Surface } from './types.js';
export { consoleLine, networkLine } from './capture.js';
export { extensionLine } from './daemon.js';

export const renderers: Renderers = {
  ...daemonRenderers,
  ...pageRenderers,
  ...snapshotRenderers,
  ...inputRenderers,
  ...tabRenderers,
  ...captureRenderers,
  ...batchRenderers((command, output, context) => renderCommand(command, output, context)),
  ...tokenRenderers,
  ...sessionRenderers,
  ...readRenderers,
  ...inspectRenderers,
  ...visualRenderers,
  ...filesRenderers,
  ...domRenderers,
  ...emulationRenderers,
  ...stateRenderers,
  ...configRenderers,
  ...approvalsRenderers,
  ...cdpRenderers,
  ...webRenderers,
  ...routeRenderers,
  ...canvasRenderers,
  ...namedSessionRenderers,
  ...journalRenderers,
  ...profileRenderers,
  ...watchRenderers,
  ...screencastRenderers,
  ...handoffRenderers,
  ...skillRenderers,
  ...inboxRenderers,
};

export function hasRenderer(command: string): command is CommandName {
  return Object.hasOwn(renderers, command);
}

/**
 * Text for a command's output, by contract path. The output comes from the daemon, which validated
 * it with the same output schema, so it is typed by the name at this one boundary. A name the
 * table lacks (a newer daemon's command inside a batch) prints as JSON.
 */
export function renderCommand(command: string, output: unknown, context: RenderContext): string {
  if (!hasRenderer(command)) return JSON.stringify(output, null, 2) ?? '';
  const render = renderers[command] as (output: unknown, context: RenderContext) => string;
  return render(output, context);
}
