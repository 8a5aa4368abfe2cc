/**
 * Where skills live and how they are written: the caller's project (`<project>/.argus/skills`),
 * the user's (`~/.config/argus/skills`) and the bundled examples, looked up in that order. Reading
 * is shared with the MCP server (`@argus/protocol` skill-files); writing is the daemon's alone.
 */
import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import {
  ArgusError,
  BUNDLED_SKILLS,
  type CallContext,
  type LoadedSkill,
  type SkillFileData,
  bundledSkill,
  listSkills,
  readSkillFile,
  skillDirs,
} from '@argus/protocol';
import { confinePath, hasScope, projectRoot, writeOutput } from '@argus/security';
import type { Access } from '../access.js';
import { makeDirs } from '@argus/protocol/make-dirs';

export interface SkillStoreOptions {
  access: Access;
  /** The operator's home: the user tier is `<home>/.config/argus/skills`. */
  home: string;
}

type Caller = Pick<CallContext, 'cwd' | 'scopes'>;

export class SkillStore {
  constructor(private readonly options: SkillStoreOptions) {}

  /**
   * The tiers' directories for a caller. The project is the caller's own (git top-level of its
   * directory) only for admin callers, as for every other path: a scoped token's claimed directory
   * never widens where it writes. Others get the daemon's workspace.
   */
  dirs(ctx: Caller): { project: string; user: string } {
    const { access } = this.options;
    const root = ctx.cwd !== undefined && hasScope(ctx.scopes, 'admin') ? projectRoot(ctx.cwd) : access.workspace;
    return skillDirs(root, this.options.home);
  }

  /** Every skill the caller can run, earlier tiers hiding later ones of the same name. */
  list(ctx: Caller): LoadedSkill[] {
    return listSkills(this.dirs(ctx));
  }

  /** The skill a name runs: the first tier that has it. */
  find(ctx: Caller, name: string): LoadedSkill {
    const dirs = this.dirs(ctx);
    for (const tier of ['project', 'user'] as const) {
      const skill = readSkillFile(join(dirs[tier], `${name}.json`), name, tier);
      if (skill) return skill;
    }
    const data = BUNDLED_SKILLS.find((skill) => skill.name === name);
    if (data) return bundledSkill(data);
    const known = this.list(ctx).map((skill) => skill.name);
    throw new ArgusError(
      'skill_not_found',
      `No skill named "${name}" (looked in ${dirs.project}, ${dirs.user} and the bundled examples). Known: ${known.join(', ') || 'none'}. Record one with \`argus skill record ${name}\`.`,
      { details: { name, known } },
    );
  }

  /**
   * Writes a skill file, never following a link. The project tier is confined to the caller's
   * allowed area like any other path; the user tier is the operator's own and needs admin.
   */
  async save(ctx: Caller, data: SkillFileData, options: { user: boolean; overwrite: boolean }): Promise<string> {
    const dir = this.tierDir(ctx, options.user);
    makeDirs(dir, 0o700);
    const target = join(dir, `${data.name}.json`);
    const policy = options.user ? undefined : this.options.access.paths(ctx);
    const path = policy ? confinePath(target, policy) : target;
    try {
      await writeOutput(path, `${JSON.stringify(data, null, 2)}\n`, {
        overwrite: options.overwrite,
        mode: 0o600,
        ...(policy ? { policy } : {}),
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' || (error as ArgusError).code === 'file_exists')
        throw new ArgusError(
          'file_exists',
          `A skill named "${data.name}" exists (${path}). Pass --overwrite to replace it, or record under another name.`,
          { details: { path } },
        );
      throw error;
    }
    return path;
  }

  /** Deletes a skill file of the project (or user) tier. */
  remove(ctx: Caller, name: string, user: boolean): string {
    const dir = this.tierDir(ctx, user);
    const path = join(dir, `${name}.json`);
    if (!user) confinePath(path, this.options.access.paths(ctx));
    try {
      unlinkSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const bundledToo = BUNDLED_SKILLS.some((skill) => skill.name === name)
        ? ' (bundled examples cannot be removed)'
        : '';
      throw new ArgusError(
        'skill_not_found',
        `No skill file ${path}${bundledToo}. \`argus skill list\` shows each skill's tier; pass --user for the user tier.`,
        { details: { name, path } },
      );
    }
    return path;
  }

  private tierDir(ctx: Caller, user: boolean): string {
    if (user && !hasScope(ctx.scopes, 'admin'))
      throw new ArgusError(
        'forbidden_scope',
        `The user tier (~/.config/argus/skills) is the operator's: it needs the admin scope; this token has ${ctx.scopes.join(', ') || 'none'}. Save to the project tier instead.`,
        { details: { needed: 'admin' } },
      );
    const dirs = this.dirs(ctx);
    return user ? dirs.user : dirs.project;
  }
}
