import { z } from 'zod';
import { defineCommand } from '../define.js';
import { HttpUrl, TabId } from '../common.js';

/**
 * The commands a skill may contain: navigation and input on the current tab, nothing that reads
 * secrets, runs script or touches files. A recording keeps only these; a skill file naming any other
 * command is refused before its first step runs, whatever the caller could do by itself (a skill is
 * data, possibly from a cloned project, that an agent runs in one tool call without reading it).
 */
export const SKILL_COMMANDS = [
  'page.goto',
  'page.back',
  'page.forward',
  'page.reload',
  'page.wait',
  'page.scroll',
  'input.click',
  'input.hover',
  'input.fill',
  'input.type',
  'input.press',
  'input.select',
  'input.check',
  'input.uncheck',
  'input.scrollIntoView',
] as const;

/** Most steps one skill may hold. */
export const MAX_SKILL_STEPS = 100;

export const SkillName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,47}$/, 'lower-case letters, digits, "_" or "-" (1-48), starting with a letter or digit')
  .describe('Skill name, e.g. login (its MCP tool is skill_<name>)');

const ParamName = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,39}$/, 'lower-case letters, digits and "_", starting with a letter');

export const SkillParam = z.object({
  description: z.string().max(500).optional().describe('What to pass (shown to agents)'),
  secret: z.boolean().default(false).describe('A password or similar: never stored, never echoed'),
  default: z.string().max(10_000).optional().describe('Used when the caller leaves the parameter out'),
});

/** The `{{name}}` placeholders in every string of a step's input. */
export function placeholders(value: unknown): string[] {
  if (typeof value === 'string') return [...value.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1] ?? '');
  if (Array.isArray(value)) return value.flatMap(placeholders);
  if (value && typeof value === 'object') return Object.values(value).flatMap(placeholders);
  return [];
}

export const SkillStep = z.object({
  command: z.string().min(3).max(100).describe('Contract path of the command, e.g. input.click'),
  input: z
    .record(z.string(), z.unknown())
    .default({})
    .describe('Its input; `{{name}}` in a string is replaced by the parameter of that name'),
});

/** The skill file (`<name>.json` in a tier's directory). */
export const SkillFile = z
  .object({
    argusSkill: z.literal(1).describe('Format version'),
    name: SkillName,
    description: z.string().max(1_000).default(''),
    startUrl: z
      .string()
      .max(8192)
      .nullable()
      .default(null)
      .describe('Where the flow starts (skill test goes here first)'),
    commands: z
      .array(z.string().min(3).max(100))
      .min(1)
      .max(SKILL_COMMANDS.length)
      .describe('The commands the steps may use: the scope the skill runs with'),
    params: z.record(ParamName, SkillParam).default({}),
    steps: z.array(SkillStep).min(1).max(MAX_SKILL_STEPS),
  })
  .superRefine((file, ctx) => {
    // a placeholder with no parameter behind it would be typed into the page as `{{name}}`
    file.steps.forEach((step, index) => {
      for (const name of placeholders(step.input))
        if (!Object.hasOwn(file.params, name))
          ctx.addIssue({
            code: 'custom',
            path: ['steps', index, 'input'],
            message: `step ${index + 1} uses {{${name}}}, which "params" does not declare; add "${name}": { "description": "…" } to "params" (with "secret": true for a password) or fix the placeholder`,
          });
    });
    // the start URL is navigated to by `skill test`: the same rule as `goto` (no script URLs)
    if (file.startUrl !== null) {
      if (!HttpUrl.safeParse(file.startUrl).success)
        ctx.addIssue({
          code: 'custom',
          path: ['startUrl'],
          message: `${JSON.stringify(file.startUrl.slice(0, 100))} is not a URL a skill can start from (script URLs never are); use an http(s) URL, or null to run on the current page`,
        });
    }
  });
export type SkillFileData = z.output<typeof SkillFile>;

const Tier = z.enum(['project', 'user', 'bundled']);

const ParamInfo = z.object({
  name: z.string(),
  description: z.string(),
  secret: z.boolean(),
  required: z.boolean().describe('No default: the caller must pass it'),
});

const SkillInfo = z.object({
  name: z.string(),
  tier: Tier,
  path: z.string().nullable().describe('The file (null for a bundled example)'),
  description: z.string(),
  startUrl: z.string().nullable(),
  params: z.array(ParamInfo),
  steps: z.number(),
  /** Present when the file cannot be used: why (the skill is listed so it can be repaired). */
  error: z.string().optional(),
});

const Params = z
  .record(z.string().max(40), z.string().max(10_000))
  .default({})
  .describe('Parameter values by name (CLI: --param key=value, repeatable)');

const StepRun = z.object({
  index: z.number().describe('Step number, from 1'),
  command: z.string(),
  target: z.string().nullable(),
  ms: z.number().describe('How long the step took'),
});

const RunOutput = z.object({
  name: z.string(),
  tier: Tier,
  steps: z.array(StepRun),
  durationMs: z.number().describe('Whole replay, navigation to the start URL included'),
  url: z.string().nullable().describe('The tab URL after the last step'),
});

const Recording = z.object({ name: z.string(), steps: z.number(), startUrl: z.string().nullable() });

export const skillCommands = {
  record: defineCommand({
    name: 'skill.record',
    cli: { verb: 'skill record', positionals: ['name'], examples: ['argus skill record login'] },
    tool: 'argus_skill_record',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Start recording the successful navigation and input commands of your session as a skill; `skill save` writes it. Typed values become parameters and are never stored.',
    input: () =>
      z.object({
        name: SkillName,
        description: z.string().max(1_000).optional().describe('What the flow does (shown to agents)'),
      }),
    output: () => Recording,
  }),
  cancel: defineCommand({
    name: 'skill.cancel',
    cli: { verb: 'skill cancel', examples: ['argus skill cancel'] },
    tool: 'argus_skill_cancel',
    kind: 'mutation',
    scope: 'write',
    summary: "Stop recording without saving (your session's recording is dropped).",
    input: () => z.object({}),
    output: () => z.object({ cancelled: Recording.nullable() }),
  }),
  save: defineCommand({
    name: 'skill.save',
    cli: { verb: 'skill save', examples: ['argus skill save', 'argus skill save --user'] },
    tool: 'argus_skill_save',
    kind: 'mutation',
    scope: 'write',
    summary:
      "Write the recording as a skill file: .argus/skills/<name>.json of your project, or ~/.config/argus/skills with --user. Steps keep stable locators (never refs); filled values become parameters named from the field's label.",
    input: () =>
      z.object({
        user: z
          .boolean()
          .default(false)
          .describe('Save to the user tier (~/.config/argus/skills) instead of the project'),
        overwrite: z.boolean().default(false).describe('Replace a skill of the same name in that tier'),
        description: z.string().max(1_000).optional().describe('What the flow does (replaces the one given at record)'),
      }),
    output: () => z.object({ skill: SkillInfo, commands: z.array(z.string()) }),
  }),
  list: defineCommand({
    name: 'skill.list',
    cli: { verb: 'skill list', verbAliases: ['skills'], examples: ['argus skill list', 'argus skills --json'] },
    tool: 'argus_skill_list',
    kind: 'query',
    scope: 'read',
    summary:
      'List the skills you can run (project tier first, then user, then bundled examples; a name in an earlier tier hides later ones) and your current recording.',
    input: () => z.object({}),
    output: () =>
      z.object({
        skills: z.array(SkillInfo),
        recording: Recording.nullable(),
        dirs: z.object({ project: z.string(), user: z.string() }).describe('Where the project and user tiers live'),
      }),
  }),
  show: defineCommand({
    name: 'skill.show',
    cli: { verb: 'skill show', positionals: ['name'], examples: ['argus skill show login'] },
    tool: 'argus_skill_show',
    kind: 'query',
    scope: 'read',
    summary: 'Show a skill: its file, parameters and steps.',
    input: () => z.object({ name: SkillName }),
    output: () => z.object({ skill: SkillInfo, file: z.string().describe('The file as JSON text') }),
  }),
  rm: defineCommand({
    name: 'skill.rm',
    cli: { verb: 'skill rm', positionals: ['name'], examples: ['argus skill rm login', 'argus skill rm login --user'] },
    tool: false,
    kind: 'mutation',
    scope: 'write',
    summary: 'Delete a skill file from the project tier (or the user tier with --user). Bundled examples stay.',
    input: () =>
      z.object({
        name: SkillName,
        user: z.boolean().default(false).describe('Delete from the user tier'),
      }),
    output: () => z.object({ removed: z.string().describe('The file deleted') }),
  }),
  run: defineCommand({
    name: 'skill.run',
    cli: {
      verb: 'skill run',
      positionals: ['name'],
      aliases: { param: 'params' },
      examples: ['argus skill run login --param username=jane --param password=…', 'argus skill run search --start'],
    },
    tool: 'argus_skill_run',
    kind: 'mutation',
    scope: 'read',
    summary:
      "Replay a skill in the current tab without snapshots: each step's locator must match exactly one element, and the skill may use only the commands its file declares (and you may run). A failing step names its number, command, locator and the page's interactive snapshot.",
    input: () =>
      z.object({
        name: SkillName,
        params: Params,
        start: z.boolean().default(false).describe("Go to the skill's start URL first"),
        tab: TabId.optional(),
      }),
    output: () => RunOutput,
  }),
  test: defineCommand({
    name: 'skill.test',
    cli: {
      verb: 'skill test',
      positionals: ['name'],
      aliases: { param: 'params' },
      examples: ['argus skill test login --param username=jane --param password=…'],
    },
    tool: false,
    kind: 'mutation',
    scope: 'read',
    summary: 'Check a skill against its recorded start URL: go there, then replay every step (skill run --start).',
    input: () => z.object({ name: SkillName, params: Params, tab: TabId.optional() }),
    output: () => RunOutput,
  }),
};
