/**
 * Replays a skill inside the daemon: one dispatch per step through the router (validation, the
 * caller's scopes, policy, journal: exactly what the same command sent alone gets), with no
 * snapshot on the way. Before anything runs, the file's commands are checked against what a skill
 * may contain and each step against the file's own declared commands; the steps then run with the
 * caller's token narrowed to those commands. A failing step is reported with its number, command,
 * target and the page's interactive snapshot, so the caller (often an agent) can repair the file.
 */
import { ArgusError, type CallContext, SKILL_COMMANDS, type SkillFileData, commandByName } from '@argus/protocol';
import { toArgusErrorData } from '@argus/protocol/router';
import { parseLocator, parseRef } from '@argus/snapshot';
import type { BrowserManager } from '../browser-manager.js';
import type { Dispatch } from '../dispatch.js';
import type { LocateTab } from '../journal/journal.js';
import { cutSecrets } from '../journal/journal-redact.js';
import type { LoadedSkill } from '@argus/protocol';

const ALLOWED: ReadonlySet<string> = new Set(SKILL_COMMANDS);
/** Lines of the page's interactive snapshot a failure carries: enough to find the renamed button. */
const SNAPSHOT_LINES = 60;
const SNAPSHOT_CHARS = 4_000;
/** Refusals of the safety seam: not the page's fault, so they keep their code and carry no snapshot. */
const REFUSALS: ReadonlySet<string> = new Set([
  'forbidden_scope',
  'policy_denied',
  'approval_denied',
  'approval_timeout',
  'url_forbidden',
  'remote_forbidden',
  'path_forbidden',
]);

export interface RunDeps {
  dispatch: Dispatch;
  manager: BrowserManager;
  locate: LocateTab;
}

export interface RunRequest {
  params: Record<string, string>;
  start: boolean;
  tab?: string | undefined;
}

export interface StepRun {
  index: number;
  command: string;
  target: string | null;
  ms: number;
}

function invalid(skill: LoadedSkill, message: string, details: Record<string, unknown> = {}): ArgusError {
  return new ArgusError('skill_invalid', `Skill "${skill.name}" (${skill.path ?? 'bundled'}) ${message}`, {
    details: { skill: skill.name, path: skill.path, ...details },
  });
}

/**
 * The scope check, before any step runs. A skill may only contain navigation and input commands
 * (SKILL_COMMANDS), and each step only a command its file declares: a file edited to add `eval`,
 * `cookies` or anything else is refused whole, not run up to that step.
 */
export function checkScope(skill: LoadedSkill, data: SkillFileData): Set<string> {
  const declared = new Set(data.commands);
  for (const command of declared) {
    if (!ALLOWED.has(command))
      throw invalid(
        skill,
        `declares ${command}, which a skill may not use: skills replay navigation and input only (${SKILL_COMMANDS.join(', ')}). Remove it from "commands" and its steps.`,
        { command },
      );
  }
  data.steps.forEach((step, index) => {
    if (!declared.has(step.command))
      throw invalid(
        skill,
        `step ${index + 1} runs ${step.command}, which is not among the skill's declared commands (${[...declared].join(', ')}). The file was edited outside its scope; nothing ran.`,
        { step: index + 1, command: step.command },
      );
  });
  return declared;
}

/** The parameter values to use: given, else the default; missing required ones listed in one error. */
export function resolveParams(
  skill: LoadedSkill,
  data: SkillFileData,
  given: Record<string, string>,
): Map<string, string> {
  const unknown = Object.keys(given).filter((name) => !Object.hasOwn(data.params, name));
  if (unknown.length > 0)
    throw new ArgusError(
      'invalid_input',
      `Skill "${skill.name}" has no parameter ${unknown.join(', ')}. Its parameters: ${Object.keys(data.params).join(', ') || 'none'}.`,
      { details: { unknown, known: Object.keys(data.params) } },
    );
  const values = new Map<string, string>();
  const missing: string[] = [];
  for (const [name, param] of Object.entries(data.params)) {
    const value = given[name] ?? param.default;
    if (value === undefined) missing.push(name);
    else values.set(name, value);
  }
  if (missing.length > 0)
    throw new ArgusError(
      'skill_params_missing',
      `Skill "${skill.name}" needs ${missing.map((name) => `--param ${name}=…`).join(' ')} (${missing
        .map((name) => `${name}: ${data.params[name]?.description ?? ''}${data.params[name]?.secret ? ', secret' : ''}`)
        .join('; ')}).`,
      { details: { missing, skill: skill.name } },
    );
  return values;
}

/**
 * `{{name}}` in every string of a step's input replaced by the parameter's value. A placeholder the
 * file does not declare is refused (the loader already refuses such files; bundled ones are not
 * parsed): typed literally, `{{password}}` would land in the page.
 */
function substitute(value: unknown, values: ReadonlyMap<string, string>, undeclared: (name: string) => never): unknown {
  if (typeof value === 'string')
    return value.replace(/\{\{(\w+)\}\}/g, (_whole, name: string) => values.get(name) ?? undeclared(name));
  if (Array.isArray(value)) return value.map((item) => substitute(item, values, undeclared));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, values, undeclared)]));
  return value;
}

/** Every string under `value` with the secrets in it replaced by `[redacted]` (a copy). */
function scrub<T>(value: T, secrets: readonly string[]): T {
  const cut = (item: unknown): unknown => {
    if (typeof item === 'string') return cutSecrets(item, secrets);
    if (Array.isArray(item)) return item.map(cut);
    if (item && typeof item === 'object')
      return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, cut(inner)]));
    return item;
  };
  return cut(value) as T;
}

/** A failure with the run's secret values cut from its message and details (the page snapshot echoes a typed field). */
function scrubError(error: ArgusError, secrets: readonly string[]): ArgusError {
  if (secrets.length === 0) return error;
  return new ArgusError(error.code, scrub(error.message, secrets), {
    ...(error.details ? { details: scrub(error.details, secrets) } : {}),
  });
}

/** The element a step acts on or waits for, if any. */
function targetOf(input: Record<string, unknown>): string | null {
  const target = input['target'] ?? input['selector'];
  return typeof target === 'string' ? target : null;
}

export async function runSkill(
  deps: RunDeps,
  skill: LoadedSkill,
  request: RunRequest,
  ctx: CallContext,
): Promise<{ name: string; tier: LoadedSkill['tier']; steps: StepRun[]; durationMs: number; url: string | null }> {
  const data = skill.data;
  if (!data)
    throw invalid(
      skill,
      `cannot be read: ${skill.error ?? 'unknown error'}. Fix the file (\`argus skill show ${skill.name}\`).`,
    );
  const declared = checkScope(skill, data);
  const values = resolveParams(skill, data, request.params);
  // every step's input before the first runs: an undeclared placeholder stops the run at step 0
  const inputs = data.steps.map(
    (step, index) =>
      substitute(step.input, values, (name) => {
        throw invalid(
          skill,
          `step ${index + 1} uses {{${name}}}, which "params" does not declare, so it would be typed literally. Declare it (\`"params": { "${name}": { "description": "…" } }\`, with \`"secret": true\` for a password) or fix the placeholder's name. Nothing ran.`,
          { step: index + 1, placeholder: name },
        );
      }) as Record<string, unknown>,
  );
  // the values of secret parameters: the journal and watch feed cut them from every step (a secret
  // typed into a field that does not look like a password would otherwise be kept), and they are
  // cut from what a failure reports (the page snapshot shows a field's value)
  const secrets = [...values].filter(([name]) => data.params[name]?.secret).map(([, value]) => value);
  // the caller's token narrowed to the skill's commands: a step can do nothing its file does not
  // declare, and nothing the caller could not do alone
  const narrowed = (extra: readonly string[]): CallContext => {
    const scope = [...declared, ...extra];
    return {
      ...ctx,
      commands: ctx.commands ? ctx.commands.filter((name) => scope.includes(name)) : scope,
      ...(secrets.length > 0 ? { secrets: [...(ctx.secrets ?? []), ...secrets] } : {}),
    };
  };
  const scoped = narrowed([]);
  const started = performance.now();
  if (request.start) {
    if (data.startUrl === null)
      throw invalid(
        skill,
        'has no start URL, so it cannot start by navigating. Run it on the page it acts on (`argus skill run`).',
      );
    await deps.dispatch(
      'page.goto',
      { url: data.startUrl, ...(request.tab ? { tab: request.tab } : {}) },
      narrowed(['page.goto']),
    );
  }
  const runs: StepRun[] = [];
  for (const [index, step] of data.steps.entries()) {
    const input = inputs[index] ?? {};
    if (request.tab !== undefined) input['tab'] = request.tab;
    const target = targetOf(step.input);
    const t0 = performance.now();
    try {
      const resolved = targetOf(input);
      if (resolved !== null) await assertOneMatch(deps.manager, resolved, request.tab);
      await deps.dispatch(step.command, input, scoped);
    } catch (error) {
      throw scrubError(await stepFailure(deps, skill, index, step.command, target, error, request.tab), secrets);
    }
    runs.push({ index: index + 1, command: step.command, target, ms: Math.round((performance.now() - t0) * 10) / 10 });
  }
  return {
    name: skill.name,
    tier: skill.tier,
    steps: runs,
    durationMs: Math.round((performance.now() - started) * 10) / 10,
    url: scrub(deps.locate(ctx, request.tab ? { tab: request.tab } : {}).url, secrets),
  };
}

/**
 * Exactly one element: locators already refuse none (`element_not_found`) and several
 * (`element_ambiguous`) when the step resolves them; a CSS selector would take the first match, so
 * it is counted here first. A ref in a skill file is refused: it names an element of a page long gone.
 */
async function assertOneMatch(manager: BrowserManager, target: string, tab: string | undefined): Promise<void> {
  const trimmed = target.trim();
  if (parseRef(trimmed))
    throw new ArgusError(
      'invalid_input',
      `${trimmed} is a snapshot ref: refs die with the page they came from. Use a locator (label=…, role=…[name=…], text=…) or a CSS selector in the skill file.`,
    );
  if (parseLocator(trimmed)) return;
  const count = await manager.onTab(tab, (page) =>
    page.evaluate<number>(
      `(() => { try { return document.querySelectorAll(${JSON.stringify(trimmed)}).length } catch { return -1 } })()`,
    ),
  );
  if (count === 0)
    throw new ArgusError('element_not_found', `No element matches the selector ${trimmed}.`, {
      details: { selector: trimmed },
    });
  if (count > 1)
    throw new ArgusError(
      'element_ambiguous',
      `The selector ${trimmed} matches ${count} elements; a skill step must match exactly one. Make it more specific.`,
      { details: { selector: trimmed, matches: count } },
    );
}

/** The interactive snapshot of the tab, capped: what the failing step's region looks like now. */
async function pageSnapshot(manager: BrowserManager, tab: string | undefined): Promise<string> {
  try {
    const result = await manager.onTab(tab, (page) => manager.engine(page).snapshot({ interactive: true }));
    const lines = result.text.split('\n');
    let text = lines.slice(0, SNAPSHOT_LINES).join('\n');
    if (text.length > SNAPSHOT_CHARS) text = text.slice(0, SNAPSHOT_CHARS);
    const cut = lines.length > SNAPSHOT_LINES || text.length < result.text.length;
    return cut ? `${text}\n… (cut; \`argus snapshot -i\` shows the whole page)` : text;
  } catch (error) {
    return `(no snapshot: ${(error as Error).message})`;
  }
}

async function stepFailure(
  deps: RunDeps,
  skill: LoadedSkill,
  index: number,
  command: string,
  target: string | null,
  error: unknown,
  tab: string | undefined,
): Promise<ArgusError> {
  const cause = toArgusErrorData(error, command);
  const def = commandByName(command);
  const verb = def && def.cli !== false ? def.cli.verb : command;
  // a refusal of the seam (scope, policy) is not the page's fault: no snapshot, the code kept
  if (REFUSALS.has(cause.code))
    return new ArgusError(
      cause.code,
      `Skill "${skill.name}" step ${index + 1} (${verb}${target ? ` ${target}` : ''}) was refused: ${cause.message}`,
      { details: { skill: skill.name, step: index + 1, command, verb, target, cause } },
    );
  const snapshot = await pageSnapshot(deps.manager, tab);
  const where = skill.path ? `in ${skill.path}` : `(bundled; copy it with \`argus skill show ${skill.name}\`)`;
  return new ArgusError(
    'skill_step_failed',
    `Skill "${skill.name}" failed at step ${index + 1} of ${skill.data?.steps.length ?? '?'}: ${verb}${target ? ` ${target}` : ''}: [${cause.code}] ${cause.message}\nRepair step ${index + 1} ${where} with a locator from the page as it is now, or record the skill again (\`argus skill record ${skill.name}\`).\nPage now (interactive snapshot):\n${snapshot}`,
    { details: { skill: skill.name, path: skill.path, step: index + 1, command, verb, target, cause, snapshot } },
  );
}
