import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DAEMON_RUNTIME_EXTERNALS } from '../tsup.config.js';

// The daemon process is one bundle (dist/daemon) with its dependencies inlined; what it still loads
// by name at run time must resolve from there, or a command fails only when first used (the
// providers' parsers, the canvas colours, the journal driver).
const bundle = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'daemon');
const files = readdirSync(bundle).filter((file) => file.endsWith('.js'));

interface Metafile {
  outputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[] }>;
}

/** Bare package names the bundle's files import or require, from esbuild's metafile of the build. */
function importedPackages(): Set<string> {
  const meta = JSON.parse(readFileSync(join(bundle, 'metafile-esm.json'), 'utf8')) as Metafile;
  const names = new Set<string>();
  for (const output of Object.values(meta.outputs))
    for (const { path, external } of output.imports) {
      if (!external || path.startsWith('.') || path.startsWith('node:')) continue;
      if (builtinModules.includes(path.split('/')[0]!)) continue;
      const parts = path.split('/');
      names.add(path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
    }
  return names;
}

describe('the bundled daemon', () => {
  it('imports no package but the declared run-time externals', () => {
    expect(files).toContain('daemon-main.js');
    const unexpected = [...importedPackages()].filter((name) => !DAEMON_RUNTIME_EXTERNALS.includes(name));
    expect(unexpected).toEqual([]);
  });

  it('resolves every run-time external from where the bundle lies', () => {
    const require = createRequire(join(bundle, 'daemon-main.js'));
    const missing = DAEMON_RUNTIME_EXTERNALS.filter((name) => {
      if (name === 'bufferutil' || name === 'utf-8-validate') return false; // optional speed-ups of ws
      try {
        require.resolve(name);
        return false;
      } catch {
        return true;
      }
    });
    expect(missing).toEqual([]);
  });
});
