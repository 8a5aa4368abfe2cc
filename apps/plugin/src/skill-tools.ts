import { type FSWatcher, existsSync, mkdirSync, watch } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, relative, sep } from 'node:path';
import { type LoadedSkill, type SkillFileData, listSkills, skillDirs } from '@argus/protocol';
import { projectRoot } from '@argus/security';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** Skill tools are named `skill_<name>`: apart from the manifest's `argus_*` tools. */
export const SKILL_TOOL_PREFIX = 'skill_';

type UsableSkill = LoadedSkill & { data: SkillFileData };

/** The MCP tool of a skill: its parameters as the input schema, its description and steps as the text. */
export function skillTool(skill: UsableSkill): Tool {
  const { data } = skill;
  const properties = Object.fromEntries(
    Object.entries(data.params).map(([name, param]) => [
      name,
      {
        type: 'string',
        description: `${param.description ?? name}${param.secret ? ' (secret: never stored)' : ''}`,
        ...(param.default === undefined ? {} : { default: param.default }),
      },
    ]),
  );
  const required = Object.entries(data.params)
    .filter(([, param]) => param.default === undefined)
    .map(([name]) => name);
  const verbs = [...new Set(data.steps.map((step) => step.command.split('.')[1]))].join(', ');
  const start = data.startUrl ? ` Opens ${data.startUrl} first.` : ' Acts on the current page.';
  return {
    name: `${SKILL_TOOL_PREFIX}${skill.name}`,
    description: `${data.description || `Recorded flow "${skill.name}".`} Replays ${data.steps.length} recorded steps (${verbs}) in one call, without snapshots.${start} On error the reply names the failing step and shows the page.`,
    inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
  };
}

/**
 * The skills of the MCP server's project and user (not the bundled examples), as tools. Read from the files directly (the
 * same reader the daemon uses), so listing tools starts neither a daemon nor a browser; running one
 * goes through the daemon, which reads and checks the file again. The directories are watched, and
 * `onChange` fires when the tool list changed (the server sends `notifications/tools/list_changed`).
 */
export class SkillTools {
  private skills = new Map<string, UsableSkill>();
  private listed: Tool[] = [];
  private watchers: FSWatcher[] = [];
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  readonly dirs: { project: string; user: string };

  constructor(options: { cwd?: string; home?: string } = {}) {
    this.dirs = skillDirs(projectRoot(options.cwd ?? process.cwd()), options.home ?? (process.env.HOME || homedir()));
    this.refresh();
  }

  tools(): readonly Tool[] {
    return this.listed;
  }

  get(toolName: string): UsableSkill | undefined {
    return this.skills.get(toolName);
  }

  /** Reads the tiers again; true when the tool list changed. */
  refresh(): boolean {
    // bundled examples demonstrate skills on the demo page: they are no agent's tools (and would
    // cost every agent's tool list tokens)
    const usable = listSkills(this.dirs).filter(
      (skill): skill is UsableSkill => skill.data !== undefined && skill.tier !== 'bundled',
    );
    const next = new Map(usable.map((skill) => [`${SKILL_TOOL_PREFIX}${skill.name}`, skill]));
    const tools = usable.map(skillTool);
    const changed = JSON.stringify(tools) !== JSON.stringify(this.listed);
    this.skills = next;
    this.listed = tools;
    return changed;
  }

  /**
   * Watches both tiers (or, while one does not exist yet, its nearest existing parent, so a first
   * `skill save` is seen too) and calls `onChange` after a burst of changes that altered the list.
   */
  watch(onChange: () => void): void {
    const rewatch = () => {
      for (const watcher of this.watchers) watcher.close();
      this.watchers = [];
      if (this.closed) return;
      for (const dir of [this.dirs.project, this.dirs.user]) {
        makeTier(dir);
        const target = nearestExisting(dir);
        if (target === undefined) continue;
        // in a parent, only the child on the way to the tier counts (not the journal's writes in .argus)
        const child = target === dir ? undefined : relative(target, dir).split(sep)[0];
        try {
          const watcher = watch(target, { persistent: false }, (_event, name) => {
            if (child === undefined || name === null || String(name) === child) schedule();
          });
          watcher.on('error', () => undefined);
          this.watchers.push(watcher);
        } catch {
          // an unwatchable directory: the list still refreshes after this server's own saves
        }
      }
    };
    const schedule = () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        rewatch();
        if (this.refresh()) onChange();
      }, 50);
      this.timer.unref();
    };
    rewatch();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    for (const watcher of this.watchers) watcher.close();
    this.watchers = [];
  }
}

/**
 * Makes a missing tier directory (empty, 0700) when its parent exists, so the tier itself is watched
 * rather than its parent: the project tier's parent is the daemon's state dir, whose journal is
 * written on every command, and a watch there woke this server several times per tool call.
 */
function makeTier(dir: string): void {
  if (existsSync(dir) || !existsSync(dirname(dir))) return;
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch {
    // not ours to make (read-only, raced): the parent is watched instead
  }
}

/** `dir` itself, or the closest of its parents that exists (at most three levels up). */
function nearestExisting(dir: string): string | undefined {
  let current = dir;
  for (let level = 0; level < 4; level++) {
    if (existsSync(current)) return current;
    current = dirname(current);
  }
  return undefined;
}
