/**
 * Reading skill files (issue 19), shared by the daemon (which runs them and is the authority) and
 * the MCP server (which lists them as tools without starting a daemon or a browser). A tier is a
 * directory of `<name>.json`; files are validated on every read, so a hand edit takes effect (or
 * is reported) at once, and a broken file is listed with its error instead of hidden.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SkillFile, type SkillFileData } from './commands/skill.js';
import { BUNDLED_SKILLS } from './skill-bundled.js';

export { BUNDLED_SKILLS } from './skill-bundled.js';

export type SkillTier = 'project' | 'user' | 'bundled';

export interface LoadedSkill {
  name: string;
  tier: SkillTier;
  path: string | null;
  /** The validated skill, or undefined when the file is broken (see `error`). */
  data?: SkillFileData;
  error?: string;
  /** The file text as read (bundled: the JSON the example would have). */
  text: string;
}

/** A skill file is a few kilobytes; a larger one is not a skill. */
const MAX_FILE_BYTES = 256 * 1024;

/** The directories of the project and user tiers: `<project>/.argus/skills`, `<home>/.config/argus/skills`. */
export function skillDirs(project: string, home: string): { project: string; user: string } {
  return { project: join(project, '.argus', 'skills'), user: join(home, '.config', 'argus', 'skills') };
}

/** Validates a skill's JSON text; a broken one keeps its error so `skill list` can show it. */
export function parseSkill(text: string, name: string): Pick<LoadedSkill, 'data' | 'error'> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { error: `not JSON (${(error as Error).message})` };
  }
  const parsed = SkillFile.safeParse(raw);
  if (!parsed.success)
    return {
      error: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'file'}: ${issue.message}`).join('; '),
    };
  if (parsed.data.name !== name) return { error: `the file is ${name}.json but names the skill "${parsed.data.name}"` };
  return { data: parsed.data };
}

/** One skill file, or undefined when there is none. `name` must already be a valid skill name. */
export function readSkillFile(path: string, name: string, tier: SkillTier): LoadedSkill | undefined {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return undefined;
    size = stat.size;
  } catch {
    return undefined;
  }
  if (size > MAX_FILE_BYTES)
    return {
      name,
      tier,
      path,
      text: '',
      error: `the file is ${size} bytes; a skill file is at most ${MAX_FILE_BYTES}`,
    };
  const text = readFileSync(path, 'utf8');
  return { name, tier, path, text, ...parseSkill(text, name) };
}

/** Every `<name>.json` of a tier's directory (none when it does not exist), by name. */
export function readSkillDir(dir: string, tier: SkillTier): LoadedSkill[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((file) => /^[a-z0-9][a-z0-9_-]{0,47}\.json$/.test(file));
  } catch {
    return [];
  }
  return files
    .sort()
    .map((file) => readSkillFile(join(dir, file), file.slice(0, -'.json'.length), tier))
    .filter((skill): skill is LoadedSkill => skill !== undefined);
}

export function bundledSkill(data: SkillFileData): LoadedSkill {
  return { name: data.name, tier: 'bundled', path: null, data, text: `${JSON.stringify(data, null, 2)}\n` };
}

/** Every skill of the tiers, project first: a name in an earlier tier hides later ones. */
export function listSkills(dirs: { project: string; user: string }): LoadedSkill[] {
  const seen = new Set<string>();
  const all = [
    ...readSkillDir(dirs.project, 'project'),
    ...readSkillDir(dirs.user, 'user'),
    ...BUNDLED_SKILLS.map(bundledSkill),
  ];
  return all.filter((skill) => !seen.has(skill.name) && seen.add(skill.name));
}
