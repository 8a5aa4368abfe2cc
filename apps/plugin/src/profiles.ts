import { ArgusError } from '@argus/protocol/errors';
import { TARGET_DESCRIPTION } from '@argus/protocol';
import type { ToolSpec } from './tool-specs.js';

export const PROFILES = ['core', 'full', 'research', 'design'] as const;
export type Profile = (typeof PROFILES)[number];

/**
 * The `core` profile: what an agent needs for most tasks, by tool name. Names not (yet) in the
 * manifest are skipped, so summary tools join the profile as soon as they are defined.
 */
export const CORE_TOOLS: readonly string[] = [
  'argus_goto',
  'argus_navigate',
  'argus_snapshot',
  'argus_click',
  'argus_fill',
  'argus_type',
  'argus_press',
  'argus_select',
  'argus_text',
  'argus_screenshot',
  'argus_hover',
  'argus_upload',
  'argus_back',
  'argus_reload',
  'argus_dialog_accept',
  'argus_dialog_dismiss',
  'argus_tabs',
  'argus_tab',
  'argus_closetab',
  'argus_eval',
  'argus_wait',
  'argus_console',
  'argus_network',
  // the person's annotations: the hint in tool responses names it, so it is there in every profile's core
  'argus_inbox',
];

/**
 * The `research` profile: reading the web without driving a tab (packages/providers), plus the few
 * browser tools to look at one page closely. Names not (yet) in the manifest are skipped.
 */
export const RESEARCH_TOOLS: readonly string[] = [
  'argus_fetch',
  'argus_crawl',
  'argus_search',
  'argus_research',
  'argus_artifacts',
  'argus_goto',
  'argus_snapshot',
  'argus_text',
];

/**
 * The `design` profile: the canvas (issue 18) plus the browser tools to look at what it renders.
 */
export const DESIGN_TOOLS: readonly string[] = [
  'argus_canvas_new',
  'argus_canvas_list',
  'argus_canvas_show',
  'argus_canvas_rm',
  'argus_canvas_save',
  'argus_canvas_load',
  'argus_canvas_patch',
  'argus_canvas_undo',
  'argus_canvas_redo',
  'argus_canvas_export',
  'argus_canvas_lint',
  'argus_canvas_import',
  'argus_canvas_open',
  'argus_canvas_node_of',
  'argus_canvas_lease',
  'argus_canvas_release',
  'argus_canvas_leases',
  'argus_goto',
  'argus_snapshot',
  'argus_screenshot',
];

/**
 * Tuning knobs the `core` profile does not advertise, to keep its tool list small: core tools act on
 * the active tab (`argus_tab` switches it) with the daemon's default timeouts and entry limits. The
 * fields are still accepted; `full` and `--tools` list them.
 */
export const CORE_HIDDEN_FIELDS: readonly string[] = ['tab', 'timeoutMs', 'limit'];

/**
 * Core also leaves out an action's `diff` flag (argus_snapshot {diff: true} after the action shows
 * the same, except the `+ text:` lines of short text the action made appear, which only an action's
 * own diff carries), text's `maxChars`, the console/network cursors (`since`, `clear`: a core agent reads
 * the whole buffer) and `overwrite`; all still accepted. It says `target` in short: the locator
 * forms are in the server's instructions once.
 */
const CORE_ACTION_HIDDEN = [...CORE_HIDDEN_FIELDS, 'diff', 'maxChars', 'since', 'clear', 'overwrite'];
export const CORE_TARGET = 'Element: ref (e12), locator or CSS selector';

/** A description's first sentence (core lists the rest of a summary, such as CLI flags, nowhere). */
const firstSentence = (text: string) => /^.*?[.!?](?=\s+[A-Z`]|$)/s.exec(text)?.[0] ?? text;

/** A core tool as listed: tuning fields hidden, short texts, no output schema (see below). */
function coreSpec(spec: ToolSpec): ToolSpec {
  const lean = withoutOutputSchema(
    withoutFields(spec, spec.command.name === 'snapshot.take' ? CORE_HIDDEN_FIELDS : CORE_ACTION_HIDDEN),
  );
  const target = lean.inputSchema.properties['target'];
  const properties =
    target && target['description'] === TARGET_DESCRIPTION
      ? { ...lean.inputSchema.properties, target: { ...target, description: CORE_TARGET } }
      : lean.inputSchema.properties;
  return {
    ...lean,
    description: firstSentence(lean.description),
    // a default the daemon applies anyway (waitUntil load, button left) is left to the description
    inputSchema: {
      ...lean.inputSchema,
      properties: Object.fromEntries(
        Object.entries(properties).map(([name, { default: _default, ...property }]) => [name, property]),
      ),
    },
  };
}

export interface ToolSelection {
  profile?: Profile | undefined;
  /** Explicit tool names (`argus_click` or `click`) or profile names; overrides `profile`. */
  tools?: readonly string[] | undefined;
}

function canonical(name: string): string {
  const trimmed = name.trim();
  return trimmed.startsWith('argus_') ? trimmed : `argus_${trimmed}`;
}

export function isProfile(value: string): value is Profile {
  return (PROFILES as readonly string[]).includes(value);
}

/** A spec whose listed schema leaves out some fields (validation still uses the full zod schema). */
export function withoutFields(spec: ToolSpec, hidden: readonly string[]): ToolSpec {
  const names = Object.keys(spec.inputSchema.properties);
  if (!names.some((name) => hidden.includes(name))) return spec;
  const properties = Object.fromEntries(
    Object.entries(spec.inputSchema.properties).filter(([name]) => !hidden.includes(name)),
  );
  const required = ((spec.inputSchema.required as string[] | undefined) ?? []).filter((name) => !hidden.includes(name));
  return { ...spec, inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}) } };
}

/** The core list leaves out output schemas: they would double its tokens (structuredContent still comes). */
function withoutOutputSchema({ outputSchema: _outputSchema, ...spec }: ToolSpec): ToolSpec {
  return spec;
}

function profileTools(profile: Profile, specs: readonly ToolSpec[]): ToolSpec[] {
  if (profile === 'full') return [...specs];
  const names = profile === 'research' ? RESEARCH_TOOLS : profile === 'design' ? DESIGN_TOOLS : CORE_TOOLS;
  return specs.filter((spec) => names.includes(spec.name));
}

/** The tools to expose for a selection; unknown explicit names fail with `invalid_input`. */
export function selectTools(specs: readonly ToolSpec[], selection: ToolSelection = {}): ToolSpec[] {
  const names = selection.tools?.map((name) => name.trim()).filter(Boolean);
  if (!names?.length) {
    const profile = selection.profile ?? 'core';
    const tools = profileTools(profile, specs);
    return profile === 'core' ? tools.map(coreSpec) : tools;
  }
  const chosen = new Set<string>();
  const unknown: string[] = [];
  for (const name of names) {
    if (isProfile(name)) {
      for (const spec of profileTools(name, specs)) chosen.add(spec.name);
      continue;
    }
    const tool = canonical(name);
    if (specs.some((spec) => spec.name === tool)) chosen.add(tool);
    else unknown.push(name);
  }
  if (unknown.length > 0) {
    throw new ArgusError(
      'invalid_input',
      `Unknown tool${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}. Available: ${specs.map((spec) => spec.name).join(', ')}, or a profile (${PROFILES.join(', ')}).`,
    );
  }
  return specs.filter((spec) => chosen.has(spec.name));
}
