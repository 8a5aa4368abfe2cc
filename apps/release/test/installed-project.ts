import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess } from '@argus/test-kit';
// @ts-expect-error -- the pack script is plain JavaScript without declarations
import { readCatalog } from '../scripts/pack.mjs';
import { startSqliteMirror } from './sqlite-mirror.js';

const RELEASE = join(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = join(RELEASE, '..', '..');

/** Exact version of a catalog entry in pnpm-workspace.yaml (the same versions the workspace builds with). */
export function catalogVersion(name: string): string {
  const version = readCatalog(readFileSync(join(REPO_ROOT, 'pnpm-workspace.yaml'), 'utf8'))
    .get(name)
    ?.replace(/^\^/, '');
  if (!version) throw new Error(`no catalog entry for ${name}`);
  return version;
}

/**
 * The environment of a user's shell, not of this test runner: no npm_* or pnpm variables (pnpm sets
 * some that would steer npm), no ARGUS_* the runner may carry. PATH, HOME, TMPDIR (the leak guard's
 * per-run temp dir, which the daemon and Chromium must inherit) and CHROME_PATH pass through.
 */
export function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /^(npm_|pnpm_|ARGUS_|VITEST|NODE_OPTIONS$|INIT_CWD$)/i.test(key)) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

export interface InstalledProject {
  readonly dir: string;
  readonly tarball: string;
  readonly tarballBytes: number;
  readonly bin: (name: string) => string;
  dispose(): void;
}

/**
 * Packs the `argus` package with `pnpm pack:argus`'s script into a temp dir, then installs the tarball
 * (plus TypeScript and Node's types, as a TypeScript user's project would have, and the optional peer
 * @opencode-ai/plugin that an OpenCode project has, for `argus/opencode`) into an empty temp
 * project with plain npm. `--prefer-offline`: the npm cache answers when it holds a package; the
 * registry only for what it does not.
 */
export async function installPackedArgus(): Promise<InstalledProject> {
  const out = mkdtempSync(join(tmpdir(), 'argus-pack-'));
  const dir = mkdtempSync(join(tmpdir(), 'argus-user-'));
  const dispose = () => {
    rmSync(out, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const packed = await runProcess(process.execPath, [join(RELEASE, 'scripts', 'pack.mjs'), '--out', out], {
      cwd: RELEASE,
      timeoutMs: 240_000,
    });
    if (packed.code !== 0) throw new Error(`pack failed (${packed.code}): ${packed.stderr}`);
    const tarball = packed.stdout.trim();
    const mirror = await startSqliteMirror(REPO_ROOT, join(out, 'mirror'));
    writeFileSync(
      join(dir, 'package.json'),
      `${JSON.stringify({ name: 'argus-user-project', private: true, type: 'module' }, null, 2)}\n`,
    );
    const npm = await runProcess(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        tarball,
        `typescript@${catalogVersion('typescript')}`,
        `@types/node@${catalogVersion('@types/node')}`,
        `@opencode-ai/plugin@${catalogVersion('@opencode-ai/plugin')}`,
      ],
      // better-sqlite3's install script downloads its prebuilt binary (from the loopback mirror here)
      { cwd: dir, env: userEnv(mirror.env), timeoutMs: 240_000 },
    ).finally(() => mirror.close());
    if (npm.code !== 0) throw new Error(`npm install failed (${npm.code}): ${npm.stderr}`);
    const tarballBytes = readFileSync(tarball).byteLength;
    return { dir, tarball, tarballBytes, bin: (name) => join(dir, 'node_modules', '.bin', name), dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}
