import { ArgusError } from '@argus/protocol/errors';
import type { ToolSpec } from './tool-specs.js';

export const PROFILES = ['core', 'full', 'research'] as const;
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
  'argus_tabs',
  'argus_tab',
  'argus_eval',
  'argus_wait',
  'argus_console',
  'argus_network',
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
 * Tuning knobs the `core` profile does not advertise, to keep its tool list small: core tools act on
 * the active tab (`argus_tab` switches it) with the daemon's default timeouts and entry limits. The
 * fields are still accepted; `full` and `--tools` list them.
 */
export const CORE_HIDDEN_FIELDS: readonly string[] = ['tab', 'timeoutMs', 'limit'];

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
  const names = profile === 'research' ? RESEARCH_TOOLS : CORE_TOOLS;
  return specs.filter((spec) => names.includes(spec.name));
}

/** The tools to expose for a selection; unknown explicit names fail with `invalid_input`. */
export function selectTools(specs: readonly ToolSpec[], selection: ToolSelection = {}): ToolSpec[] {
  const names = selection.tools?.map((name) => name.trim()).filter(Boolean);
  if (!names?.length) {
    const profile = selection.profile ?? 'core';
    const tools = profileTools(profile, specs);
    return profile === 'core'
      ? tools.map((spec) => withoutOutputSchema(withoutFields(spec, CORE_HIDDEN_FIELDS)))
      : tools;
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
