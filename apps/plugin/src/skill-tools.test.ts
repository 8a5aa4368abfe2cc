import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SkillTools } from './skill-tools.js';

// The project tier (.argus/skills) is watched itself, never its parent: .argus is the daemon's state
// dir, whose journal is written on every command, and a watch there woke the MCP server several
// times per tool call.

const made: string[] = [];
const project = () => {
  const root = mkdtempSync(join(tmpdir(), 'argus-skill-tools-'));
  mkdirSync(join(root, '.git'));
  made.push(root);
  return root;
};
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const waitFor = async (check: () => boolean, what: string) => {
  const deadline = Date.now() + 3_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('SkillTools.watch', () => {
  it('makes the missing project tier (0700) in an existing state dir and watches it', () => {
    const root = project();
    mkdirSync(join(root, '.argus'));
    const tools = new SkillTools({ cwd: root, home: root });
    try {
      tools.watch(() => undefined);
      const tier = join(root, '.argus', 'skills');
      expect(existsSync(tier)).toBe(true);
      expect(statSync(tier).mode & 0o777).toBe(0o700);
    } finally {
      tools.close();
    }
  });

  it('makes it once the state dir appears (the daemon starts after the server)', async () => {
    const root = project();
    const tools = new SkillTools({ cwd: root, home: root });
    try {
      tools.watch(() => undefined);
      expect(existsSync(join(root, '.argus'))).toBe(false);
      mkdirSync(join(root, '.argus'));
      await waitFor(() => existsSync(join(root, '.argus', 'skills')), 'the project tier');
    } finally {
      tools.close();
    }
  });

  it('makes nothing where the tier has no parent yet', () => {
    const root = project();
    const tools = new SkillTools({ cwd: root, home: root });
    try {
      tools.watch(() => undefined);
      expect(existsSync(join(root, '.argus'))).toBe(false);
      expect(existsSync(join(root, '.config'))).toBe(false);
    } finally {
      tools.close();
    }
  });
});
